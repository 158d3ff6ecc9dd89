"""`quizzer export anki`: write the decks as an Anki package (see ``--help``)."""

from __future__ import annotations

import argparse
import json
import sys
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from quizzer.anki.audio import record_terms
from quizzer.anki.directions import (
    DEFAULT_MAX_PER_CONCEPT,
    Direction,
    default_directions,
    directions_for,
    every_direction,
    parse_template_name,
)
from quizzer.anki.exporter import export_apkg
from quizzer.anki.ids import PARENT_DECK
from quizzer.anki.model import KINDS
from quizzer.cards.card import CardKey, Pair
from quizzer.cli.subcommands import Subcommands
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import LanguageTagError, check_language, order_languages
from quizzer.errors import InputError, shown
from quizzer.library.decks import find_deck, load_library
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.services.anki_export import (
    Learner,
    exports_record_path,
    last_export_time,
    read_exported,
    read_learner,
    read_store,
    record_exported,
)

KIND_HELP = "meaning = term(FROM)→definition(TO), term = definition(FROM)→term(TO), " + (
    "translate = term(FROM)→term(TO)"
)


def register(subparsers: Subcommands) -> None:
    """Add ``export`` and its ``anki`` sub-command to the CLI."""
    export = subparsers.add_parser(
        "export", help="export decks to other programs", description="Export decks."
    )
    targets = export.add_subparsers(dest="export_target", metavar="TARGET")
    export.set_defaults(func=lambda args: _missing_target(export))

    anki = targets.add_parser(
        "anki",
        help="write an Anki package (.apkg)",
        description="Write the decks as an Anki package: one note per concept, one card per "
        "direction asked for. Without --pair, --kinds or --all: the directions you study in "
        "quizzer (up to 12), else each language's term to and from English (a deck of one "
        "language: term to definition and back). Re-importing a newer export updates the "
        f"notes in place. Kinds: {KIND_HELP}.",
    )
    anki.add_argument("--out", required=True, metavar="FILE.apkg", help="the package to write")
    anki.add_argument(
        "--deck",
        action="append",
        default=[],
        metavar="NAME",
        help="a deck to export, by id or name (repeatable; default: every deck)",
    )
    anki.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="FROM:TO",
        help="a language pair such as en:bn (repeatable; BCP 47 language tags; "
        "with --kinds alone: every pair of the deck's languages)",
    )
    anki.add_argument(
        "--kinds",
        metavar="KINDS",
        help="comma-separated card kinds (default with --pair: meaning,term,translate)",
    )
    anki.add_argument(
        "--all",
        action="store_true",
        help="every direction: each kind between every two of the deck's languages "
        "(up to 70 cards per concept for five languages)",
    )
    anki.add_argument(
        "--fresh",
        action="store_true",
        help="for a new Anki profile: forget the cards earlier exports gave (by default a "
        "note keeps them, so importing a narrower export over a wider one breaks no card)",
    )
    anki.add_argument(
        "--with-progress",
        action="store_true",
        help="carry the schedule and review history of cards studied here into the package "
        "(import it in Anki with 'Import any learning progress' ticked)",
    )
    anki.add_argument(
        "--audio",
        action="store_true",
        help="put a recording of every term in the package, made offline by espeak-ng (or "
        "piper with a voice in $QUIZZER_PIPER_VOICES); kept in the cache dir for re-exports",
    )
    anki.add_argument("--db", metavar="PATH", help="the progress store (default: the user's)")
    anki.add_argument(
        "--decks-dir", metavar="DIR", help="where imported decks live (default: the user's)"
    )
    anki.add_argument(
        "--timestamp",
        type=float,
        metavar="SECONDS",
        help="export time in seconds since the epoch, for reproducible builds (default: now)",
    )
    anki.set_defaults(func=run_anki)


def _missing_target(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def parse_kinds(text: str) -> tuple[str, ...]:
    """``"meaning,term"`` → ``("meaning", "term")``; unknown kinds are an :class:`InputError`."""
    kinds = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not kinds:
        raise InputError("--kinds is empty", hint=f"use some of: {','.join(KINDS)}")
    for kind in kinds:
        if kind not in KINDS:
            raise InputError(f"unknown card kind {kind!r}", hint=f"use some of: {','.join(KINDS)}")
    return kinds


def parse_pair(text: str) -> tuple[str, str]:
    """``"en:bn"`` → ``("en", "bn")``; anything else is an :class:`InputError`."""
    parts = text.split(":")
    hint = "write FROM:TO with language tags, e.g. en:bn or es:pt-BR"
    if len(parts) != 2 or not all(parts):
        raise InputError(f"--pair {text!r} is not FROM:TO", hint=hint)
    langs = []
    for lang in parts:
        try:
            langs.append(check_language(lang))
        except LanguageTagError as exc:
            raise InputError(f"--pair {text!r}: unknown language {lang!r}", hint=exc.hint) from None
    return langs[0], langs[1]


def select_decks(names: Sequence[str], decks_dir: str | None = None) -> list[Deck]:
    """The decks named (by id or name), or every deck in the library."""
    if names:
        chosen: dict[str, Deck] = {}
        for name in names:
            deck = find_deck(name, decks_dir).deck
            chosen.setdefault(deck.id, deck)
        return list(chosen.values())
    decks = [item.deck for item in load_library(decks_dir)]
    if not decks:
        raise InputError("there are no decks to export", hint="import a glossary first")
    return decks


@contextmanager
def progress_bar(
    total_hint: int, console: Console | None = None
) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal (stderr) for exports big enough to wait for.

    Yields the callback to pass as ``on_progress``, or ``None`` when there is no
    terminal or too little to show.
    """
    if console is None:
        console = Console(stderr=True)
    if not console.is_terminal or total_hint < 500:
        yield None
        return
    with Progress(
        "Writing notes",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("notes", total=total_hint)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield update


def plan_directions(
    decks: Sequence[Deck], args: argparse.Namespace
) -> tuple[dict[str, tuple[Direction, ...]], Learner | None]:
    """Per deck id, the directions to export (see the command's description), and what
    the learner's store says when there is one (settings for the preset, studied cards)."""
    present = order_languages(lang for deck in decks for lang in deck.languages)
    pairs = [parse_pair(text) for text in args.pair]
    if pairs:
        wanted = order_languages(lang for pair in pairs for lang in pair)
        missing = [lang for lang in wanted if lang not in present]
        if missing:
            raise InputError(
                f"no exported deck has {', '.join(missing)}",
                hint=f"the decks have: {', '.join(present)}",
            )
    learner = read_learner(args.db)
    plan: dict[str, tuple[Direction, ...]] = {}
    for deck in decks:
        langs = set(deck.languages)
        if pairs:
            chosen = directions_for(parse_kinds(args.kinds or "meaning,term,translate"), pairs)
        elif args.kinds or args.all:
            kinds = parse_kinds(args.kinds) if args.kinds else None
            chosen = tuple(d for d in every_direction(langs) if kinds is None or d.kind in kinds)
        else:
            studied = (
                [Direction.from_pair(Pair.parse(code)) for code, _n in learner.directions]
                if learner
                else []
            )
            fits = [d for d in studied if d and {d.source, d.target} <= langs]
            chosen = tuple(fits[:DEFAULT_MAX_PER_CONCEPT]) or default_directions(langs)
        plan[deck.id] = chosen
    return plan, learner


def earlier_exports(
    args: argparse.Namespace,
) -> tuple[dict[str, set[Direction]], dict[str, set[str]] | None]:
    """``(keep, record)``: per deck the directions earlier exports gave cards for (their
    guards stay filled, see :func:`quizzer.anki.exporter.build_collection`), and the
    record to extend after this export (``None``: leave the file alone)."""
    record = read_exported(args.db)
    if record is None:
        print(
            f"warning: {shown(exports_record_path(args.db))} is not quizzer's record of "
            "exported cards; not used and not changed.",
            file=sys.stderr,
        )
        return {}, None
    if args.fresh:
        return {}, {}
    keep: dict[str, set[Direction]] = {}
    for deck_id, names in record.items():
        for name in names:
            try:
                keep.setdefault(deck_id, set()).add(parse_template_name(name))
            except ValueError:
                continue  # a direction this version doesn't know: nothing to keep
    return keep, record


def run_anki(args: argparse.Namespace) -> int:
    """Handle ``quizzer export anki``."""
    out = Path(args.out)
    if out.suffix.lower() != ".apkg":
        raise InputError(
            f"--out {args.out!r} does not end in .apkg", hint="Anki only imports .apkg packages"
        )
    if out.is_dir():
        raise InputError(f"--out {args.out!r} is a directory", hint="give a file name ending .apkg")
    folder = out.parent
    if not folder.is_dir():
        # Creating a whole path from a typo is worse than asking: refuse.
        problem = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(
            f"folder {folder} {problem}",
            hint="create the folder first, or give --out a path in an existing folder",
            path=out,
        )
    decks = select_decks(args.deck, args.decks_dir)
    plan, learner = plan_directions(decks, args)
    if not any(plan.values()):
        raise InputError(
            "no card direction to export",
            hint="translate needs two different languages: add a --pair like en:bn",
        )

    progress_states: dict[str, CardState] = {}
    reviews: list[Review] = []
    tz = None
    if args.with_progress:
        progress_states, reviews, tz = read_store(args.db)

    keep, record = earlier_exports(args)
    exported_before = read_exported(args.db) or {}
    timestamp = args.timestamp if args.timestamp is not None else time.time()
    if not 0 < timestamp <= time.time() + 86400:
        # Anki refuses packages whose note and card ids (milliseconds) lie in the future.
        raise InputError(
            f"--timestamp {args.timestamp} is not a time up to now",
            hint="give seconds since 1970, e.g. from `date +%s`",
        )
    # Anki updates a note it has only from a package whose note is newer (in whole
    # seconds): an export in the same second as the last would leave the old note's
    # guard fields and its new cards blank. Each export's notes are a second newer.
    last = last_export_time(args.db)
    if record is not None and int(timestamp) <= int(last):
        timestamp = int(last) + 1
    recordings = None
    if args.audio:
        started = time.monotonic()
        # only the languages a card speaks: a prompt or an answer that is a term
        wanted = {d for chosen in plan.values() for d in chosen}
        spoken = {d.source for d in wanted if d.sides[0] == "term"}
        spoken |= {d.target for d in wanted if d.sides[1] == "term"}
        audio = record_terms(decks, languages=spoken)
        recordings = audio.files
        print(
            f"Audio: {len(audio.files)} term recordings ({audio.made} new, {audio.reused} "
            f"reused from {audio.folder}) in {time.monotonic() - started:.1f} s."
        )
        if notice := audio.unvoiced_notice():
            print(notice)
    try:
        with progress_bar(sum(len(deck) for deck in decks)) as on_progress:
            result = export_apkg(
                decks,
                out,
                directions=plan,
                settings=learner.settings if learner else None,
                studied=learner.card_ids if learner else (),
                keep=keep,
                timestamp=timestamp,
                progress=progress_states,
                reviews=reviews,
                tz=tz,
                on_progress=on_progress,
                recordings=recordings,
            )
    except OSError as exc:
        raise InputError(
            f"can't write the package: {exc.strerror or exc}",
            hint="choose a writable location for --out",
            path=out,
        ) from exc
    print(
        f"Wrote {shown(result.path)}: {result.notes} notes, {result.cards} cards "
        f"in {len(result.decks)} deck(s), {len(result.directions)} directions "
        f"(at most {result.max_cards_per_note} cards per concept)."
    )
    if args.audio:
        with zipfile.ZipFile(result.path) as package:
            sounds = len(json.loads(package.read("media")))
        size = result.path.stat().st_size / 1e6
        print(f"Package: {size:.1f} MB with {sounds} sound files.")
    if record is not None:
        for deck_id, directions in plan.items():
            record.setdefault(deck_id, set()).update(d.name for d in directions)
        if not record_exported(record, args.db, timestamp=timestamp):
            print(
                f"warning: couldn't write {shown(exports_record_path(args.db))}, the record "
                "of exported cards; a later export may leave some of these cards blank "
                "in Anki.",
                file=sys.stderr,
            )
    if result.skipped_concepts:
        print(
            f"{result.skipped_concepts} concepts skipped: no text in the requested languages.",
            file=sys.stderr,
        )
    if args.with_progress:
        print(
            f"Progress: {result.scheduled_cards} studied cards scheduled, "
            f"{result.revlog_rows} reviews. In Anki, tick 'Import any learning progress'."
        )
        if result.unexported_cards:
            print(
                f"{result.unexported_cards} studied cards are not in this export "
                "(their deck, language pair or card kind wasn't exported).",
                file=sys.stderr,
            )
        for line in existing_cards_note(
            already_exported(progress_states, plan, exported_before), result.scheduled_cards
        ):
            print(line)
    return 0


def already_exported(
    states: dict[str, CardState],
    plan: dict[str, tuple[Direction, ...]],
    exported_before: dict[str, set[str]],
) -> int:
    """How many studied cards of this export an earlier export (by the record) gave Anki."""
    count = 0
    for card_id in states:
        try:
            key = CardKey.parse(card_id)
        except ValueError:
            continue
        direction = Direction.from_pair(key.pair)
        if direction is None or direction not in plan.get(key.deck, ()):
            continue
        if direction.name in exported_before.get(key.deck, set()):
            count += 1
    return count


def existing_cards_note(already: int, scheduled: int) -> list[str]:
    """What ``--with-progress`` tells about cards Anki already has: Anki keeps its own
    schedule for them (its import says "updated" and adds no reviews), and what to do."""
    if not scheduled:
        return []
    remedy = (
        f"to give them quizzer's progress, delete those notes in Anki first (Browse, deck "
        f"'{PARENT_DECK}', select them, Notes > Delete), then import this file; to bring "
        "Anki's answers here instead, export from Anki with scheduling and `quizzer merge` it."
    )
    if already:
        return [
            f"Note: {already} of the {scheduled} studied cards were in an earlier export. "
            "If Anki already has them, it keeps its own schedule for them and adds none of "
            f"their reviews (its import log says 'updated'): {remedy}"
        ]
    return [f"Note: cards Anki already has keep Anki's schedule on import; {remedy}"]
