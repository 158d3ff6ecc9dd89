"""`quizzer doctor` (check and repair the store), `quizzer undo` and `quizzer leeches`."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

import quizzer.progress.doctor as doctor
from quizzer.cards.card import CardKey
from quizzer.cli.subcommands import Subcommands
from quizzer.errors import InputError, StoreError, shown
from quizzer.library.decks import find_deck
from quizzer.paths import default_db_path
from quizzer.progress import Bury, open_store
from quizzer.progress.doctor import Report
from quizzer.progress.events import Practice
from quizzer.progress.storepath import check_store_path, require_store, store_exists
from quizzer.scheduling.grades import GRADE_NAMES


def _existing_store(db: str | None) -> Path:
    """The store path; :class:`StoreError` when there is no store there (a mistyped --db)."""
    return require_store(default_db_path(db))


def register(subparsers: Subcommands) -> None:
    """Add this module's sub-commands to the CLI."""
    p = subparsers.add_parser(
        "doctor",
        help="verify every device's log, report damage and losses, rebuild the card states",
        description="Verify every device's log in the store folder and report damaged lines, "
        "events that can't be replayed and answers that are gone; repair a damaged marker "
        "and rebuild this device's card states from the logs. No log is ever rewritten.",
    )
    p.add_argument("--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or user dir)")
    p.add_argument("--check", action="store_true", help="only report, change nothing")
    p.set_defaults(func=run_doctor)

    u = subparsers.add_parser(
        "undo",
        help="take back the last answer(s) recorded in the progress store",
        description="Take back answers: each card's state is restored and the log entry removed.",
    )
    u.add_argument("--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or user dir)")
    u.add_argument("-n", "--steps", type=int, default=1, help="how many answers (default 1)")
    u.set_defaults(func=run_undo)

    lp = subparsers.add_parser(
        "leeches",
        help="list the cards marked as leeches (or bring one back with --unsuspend)",
        description="A card becomes a leech after `leech_threshold` lapses (8), and again every "
        "`leech_every` (4) more; it is then suspended or flagged (`quizzer settings`). "
        "--unsuspend brings a card back into study and clears its leech mark.",
    )
    lp.add_argument(
        "--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or user dir)"
    )
    lp.add_argument("--deck", metavar="NAME", help="only this deck (id or name)")
    lp.add_argument(
        "--unsuspend",
        metavar="CARD_ID",
        action="append",
        default=[],
        help="resume this card, e.g. 'training-efficiency/lora|ru:term>bn:definition' (repeatable)",
    )
    lp.set_defaults(func=run_leeches)


def _ok_line(report: Report) -> str:
    return f"{report.path}: ok ({report.cards} cards, {report.devices} device(s))"


def run_doctor(args: argparse.Namespace) -> int:
    """Print the findings; exit 0 when healthy (or repaired), 3 when problems remain."""
    path = check_store_path(default_db_path(args.db))  # a folder or another's file: refused
    if not store_exists(path):
        print(f"{shown(path)}: no progress store here (nothing to check)")
        return 3
    found = doctor.check(path)
    for note in found.notes:
        print(f"note: {note}")
    if found.healthy:
        print(_ok_line(found))
        return 0
    for problem in found.problems:
        print(f"problem: {problem}")
    for loss in found.losses:
        print(f"lost: {loss}")
    if args.check:
        print(f"run `quizzer doctor --db {shown(path)}` to repair")
        return 3
    fixed = doctor.repair(path)
    for action in fixed.actions:
        print(f"repaired: {action}")
    for loss in fixed.losses:
        print(f"lost: {loss}")
    for problem in fixed.problems:
        print(f"still wrong: {problem}")
    if fixed.problems:
        return 3
    if fixed.losses:
        # Usable again, but never "ok": what the damage destroyed is listed above.
        print(f"{shown(path)}: repaired with losses ({fixed.cards} cards); see `lost:` above")
        return 0
    print(f"{shown(path)}: ok ({fixed.cards} cards)")
    return 0


def run_undo(args: argparse.Namespace) -> int:
    """Undo ``--steps`` answers, printing each one taken back."""
    if args.steps < 1:
        raise InputError("--steps must be 1 or more")
    done = 0
    try:
        with open_store(_existing_store(args.db)) as store:
            for _ in range(args.steps):
                review = store.undo()
                if review is None:
                    print("nothing (more) to undo")
                    break
                done += 1
                if isinstance(review, Bury):
                    print(f"undone: bury of {review.card_id}")
                    continue
                if isinstance(review, Practice):
                    when = review.when.isoformat(timespec="seconds")
                    grade = GRADE_NAMES[review.grade]
                    print(f"undone: practice ({review.mode}) {review.card} {grade} at {when}")
                    continue
                when = review.reviewed_at.isoformat(timespec="seconds")
                print(f"undone: {review.card_id} {GRADE_NAMES[review.grade]} at {when}")
    except StoreError as exc:
        if not done:
            raise
        # Each undo printed is saved in the journal; what failed came after (the tidying up
        # at the close, or a later step, whose own message says it was not undone).
        kept = "the undo above is" if done == 1 else f"the {done} undos above are"
        hint = f"{kept} kept (saved in the journal); {exc.hint or 'free some disk space'}"
        raise StoreError(exc.message, hint=hint, path=exc.path) from exc
    return 0


def run_leeches(args: argparse.Namespace) -> int:
    """List leeches (card, lapses, suspended or flagged); ``--unsuspend`` resumes cards first."""
    path = _existing_store(args.db)
    keys: list[CardKey] = []
    for card_id in args.unsuspend:
        try:
            keys.append(CardKey.parse(card_id.strip()))
        except ValueError:
            raise InputError(
                f"--unsuspend {card_id!r}: not a card id",
                hint="copy it from `quizzer leeches`, e.g. "
                "'training-efficiency/lora|ru:term>bn:definition'",
            ) from None
    if keys:
        with open_store(path) as store:
            for key in keys:
                state = store.card(key)
                if state is None:
                    raise InputError(
                        f"--unsuspend {key.id!r}: that card was never studied", path=path
                    )
                if not (state.suspended or state.leech):
                    raise InputError(
                        f"--unsuspend {key.id!r}: that card is not suspended (nor a leech); "
                        "nothing to resume",
                        hint="`quizzer leeches` lists the cards that are",
                        path=path,
                    )
            for key in keys:
                store.set_suspended(key, False, datetime.now(UTC))
                print(f"resumed: {key.id}")
    with open_store(path, read_only=True) as store:
        states = list(store.cards())
        leeches = [st for st in states if st.leech]
        deck = args.deck
        if deck is not None:
            decks = {st.key.deck for st in states}
            if deck not in decks:
                deck = find_deck(deck).deck.id
            leeches = [st for st in leeches if st.key.deck == deck]
    leeches.sort(key=lambda st: (-st.lapses, st.card_id))
    if not leeches:
        print("no leeches" + (f" in {deck}" if deck else ""))
        return 0
    for st in leeches:
        status = "suspended" if st.suspended else "flagged"
        print(f"{st.card_id}  lapses {st.lapses}  {status}")
    print(f"{len(leeches)} leech(es); resume one with `quizzer leeches --unsuspend CARD_ID`")
    return 0
