"""`quizzer stats`, `quizzer optimize` and `quizzer log export`: progress, FSRS fitting, the log.

Deck texts are printed as ``rich.text.Text`` (never markup).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import sys
from dataclasses import replace
from datetime import UTC
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from quizzer.cards.card import CardKey
from quizzer.cli.csv_cells import csv_cell
from quizzer.cli.output import print_json
from quizzer.cli.subcommands import Subcommands
from quizzer.errors import InputError, shown
from quizzer.fsutil import atomic_write_text
from quizzer.library.decks import DeckFile, find_deck, load_library
from quizzer.library.summary import read_summary
from quizzer.paths import default_db_path
from quizzer.progress import open_store
from quizzer.progress.storepath import require_store
from quizzer.scheduling.grades import GRADE_NAMES
from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.services.stats import stats_from_store
from quizzer.ui.drawn_cells import DrawnWidths
from quizzer.ui.stats_render import full_report

DB_HELP = "progress store file (default: $QUIZZER_DB, else the platform's user data dir)"

#: Columns of ``quizzer log export --csv``, in order.
CSV_COLUMNS: tuple[str, ...] = (
    "review_id",
    "reviewed_at_utc",
    "reviewed_at_local",
    "study_day",
    "card_id",
    "deck",
    "concept",
    "prompt_lang",
    "prompt_side",
    "answer_lang",
    "answer_side",
    "grade",
    "grade_name",
    "mode",
    "duration_ms",
    "phase",
    "correct",
    "overridden",
    "typed",
    "last_interval_days",
    "interval_days",
    "stability",
    "difficulty",
    "due_utc",
)


def register(subparsers: Subcommands) -> None:
    """Add ``stats``, ``optimize`` and ``log export`` to the CLI."""
    p = subparsers.add_parser(
        "stats",
        help="show learning statistics",
        description="Statistics of your progress: today (cards, correct %, time), the streak "
        "of study days, cards by state, true retention over 7/30/365 days (young and mature), "
        "answers per day for the last year (heatmap), cards due in the next 30 days, recall "
        "probability per concept and language, the hardest concepts, a summary per "
        "language and language pair, and where answers came from (each quiz mode, and Anki "
        "for answers brought back by 'quizzer merge', counted in every figure). A study day "
        "starts at the store's day-start hour (4 AM by default).",
    )
    p.add_argument("--deck", metavar="NAME", help="only this deck (id or name)")
    p.add_argument("--db", metavar="PATH", help=DB_HELP)
    p.add_argument("--json", action="store_true", help="print every figure as JSON")
    p.set_defaults(func=cmd_stats)

    p = subparsers.add_parser(
        "optimize",
        help="fit FSRS parameters to your review log",
        description="Fit the FSRS-6 memory model to your own answers (fsrs-rs) on about 80% "
        "of your cards, show how well the parameters in use and the fitted ones predict the "
        "answers of the other cards (log loss and RMSE, lower is better), and store the "
        "fitted parameters so the scheduler uses them. With too few answers, or when the fit "
        "doesn't beat the parameters in use, nothing is changed.",
    )
    p.add_argument("--db", metavar="PATH", help=DB_HELP)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_optimize)

    log = subparsers.add_parser(
        "log", help="the review log", description="Work with the review log."
    )
    sub = log.add_subparsers(dest="log_command", metavar="COMMAND", required=True)
    p = sub.add_parser(
        "export",
        help="export the review log as CSV",
        description="Write the review log as CSV (UTF-8, one row per answer, oldest first): "
        "UTC and local time, study day, the card's deck, concept, languages and sides, the "
        "grade, quiz mode, answer duration, phase, typed text and the scheduling result. "
        "A cell starting with =, +, -, @, a tab or a carriage return gets a leading ' so a "
        "spreadsheet shows it as text instead of running it (--raw writes it as it is); "
        "printed on a terminal, control characters are shown as escapes.",
    )
    p.add_argument("--csv", metavar="FILE", required=True, help="output file ('-' for stdout)")
    p.add_argument(
        "--raw",
        action="store_true",
        help="write every cell exactly as stored (no ' before formula-like cells)",
    )
    p.add_argument("--deck", metavar="NAME", help="only this deck (id or name)")
    p.add_argument("--db", metavar="PATH", help=DB_HELP)
    p.set_defaults(func=cmd_log_export)


def existing_store(db: str | None) -> Path:
    """The store path for ``db``, refusing when no store is there (a mistyped ``--db``)."""
    return require_store(default_db_path(db))


def _open_read_only(db: str | None) -> Any:
    """Open the store read-only. An explicit ``--db`` must name an existing store;
    without one, a missing default store reads as empty (a learner who hasn't studied yet)."""
    if db:
        existing_store(db)
    return open_store(db, read_only=True)


# --------------------------------------------------------------------------- stats


def cmd_stats(args: argparse.Namespace) -> int:
    """``quizzer stats``."""
    files = [find_deck(args.deck)] if args.deck else load_library()
    decks = [item.deck for item in files]
    deck_ids = [decks[0].id] if args.deck else None
    with _open_read_only(args.db) as store:
        stats = stats_from_store(store, decks, deck_ids=deck_ids)
    if args.json:
        data = stats.to_dict()
        data["db"] = str(default_db_path(args.db))
        print_json(data)
        return 0
    _known_names(files)
    # Through DrawnWidths: a table naming Hindi or Bengali keeps its columns on a terminal.
    Console(highlight=False).print(DrawnWidths(full_report(stats)))
    return 0


def _known_names(files: list[DeckFile]) -> None:
    """Learn the names of the decks' languages from their cached summaries (the home
    screen's), so the report's tables name them without loading CLDR's name tables: that
    load was 5 to 8% of `quizzer stats`'s CPU over a million answers, 15% with the store's
    states read uncopied (benchmarks/README.md, figure `stats`). A summary that can't be
    had costs only the load."""
    for item in files:
        with contextlib.suppress(InputError):
            read_summary(item.path, item.bundled)


# --------------------------------------------------------------------------- optimize


def cmd_optimize(args: argparse.Namespace) -> int:
    """``quizzer optimize``: fit, compare, store (or say plainly why not)."""
    from quizzer.scheduling.optimizer import HELD_OUT_PERCENT, optimize

    # Never create a store just to find it has no answers: a mistyped --db is an error.
    with open_store(existing_store(args.db)) as store:
        settings = store.settings
        result = optimize(
            store.reviews(), store.tz, settings.day_start_hour, current=settings.parameters
        )
        if result.changed:
            store.set_settings(replace(settings, parameters=result.parameters))
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
        return 0
    console = Console(highlight=False)
    # Too few answers: the result's message says how many are needed, once.
    needed = "" if result.status == "not_enough_reviews" else f"; {result.min_reviews} needed"
    console.print(
        Text(
            f"{result.reviews} answers in the log; {result.usable_reviews} answered on a later "
            f"day than the card's previous answer (FSRS learns from these{needed})."
        )
    )
    if result.before and result.after:
        console.print(
            Text(
                f"Fitted on {result.train_reviews} of them; both parameter sets are then judged "
                f"on the other {result.held_out_reviews}, from {result.held_out_cards} cards "
                f"(about {HELD_OUT_PERCENT}% of your cards) the fit never saw."
            )
        )
        table = Table(
            title="How well each predicts your held-out answers (lower is better)",
            title_justify="left",
        )
        table.add_column(Text("Parameters"))
        table.add_column(Text("Log loss"), justify="right")
        table.add_column(Text("RMSE"), justify="right")
        current = "In use now (FSRS defaults)" if result.current_is_default else "In use now"
        table.add_row(
            Text(current),
            Text(f"{result.before.log_loss:.4f}"),
            Text(f"{result.before.rmse:.4f}"),
        )
        table.add_row(
            Text("Fitted to your log"),
            Text(f"{result.after.log_loss:.4f}"),
            Text(f"{result.after.rmse:.4f}"),
        )
        console.print(table)
    console.print(Text(result.message(), style="bold" if result.changed else ""))
    if result.changed:
        console.print(Text("Parameters: " + ", ".join(f"{p:.4f}" for p in result.parameters)))
    return 0


# --------------------------------------------------------------------------- log export


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def _bool(value: bool | None) -> str:
    return "" if value is None else ("true" if value else "false")


def review_row(review: Review, tz: Any, day_start_hour: int) -> dict[str, str]:
    """One CSV row for ``review``; ``tz=None`` is the system's local zone at that moment."""
    local = review.reviewed_at.astimezone(tz)
    try:
        key: CardKey | None = CardKey.parse(review.card_id)
    except ValueError:
        key = None
    return {
        "review_id": review.id,
        "reviewed_at_utc": review.reviewed_at.astimezone(UTC).isoformat(),
        "reviewed_at_local": local.isoformat(),
        "study_day": study_day(review.reviewed_at, tz, day_start_hour).isoformat(),
        "card_id": review.card_id,
        "deck": key.deck if key else "",
        "concept": key.concept_id if key else "",
        "prompt_lang": key.pair.prompt_lang if key else "",
        "prompt_side": key.pair.prompt_side if key else "",
        "answer_lang": key.pair.answer_lang if key else "",
        "answer_side": key.pair.answer_side if key else "",
        "grade": str(review.grade),
        "grade_name": GRADE_NAMES[review.grade],
        "mode": review.mode,
        "duration_ms": str(review.duration_ms),
        "phase": review.phase,
        "correct": _bool(review.correct),
        "overridden": _bool(review.overridden),
        "typed": review.typed or "",
        "last_interval_days": _num(review.last_interval_days),
        "interval_days": _num(review.interval_days),
        "stability": _num(review.stability),
        "difficulty": _num(review.difficulty),
        "due_utc": review.due.astimezone(UTC).isoformat() if review.due else "",
    }


def cmd_log_export(args: argparse.Namespace) -> int:
    """``quizzer log export --csv FILE``."""
    out = None if args.csv == "-" else Path(args.csv)
    if out is not None and out.is_dir():
        raise InputError(f"{out} is a directory", hint="give a file name, e.g. reviews.csv")
    if out is not None and not out.parent.is_dir():
        raise InputError(
            f"folder {out.parent} does not exist",
            hint="create it first, or give a file in an existing folder",
        )
    deck_id = find_deck(args.deck).deck.id if args.deck else None
    with _open_read_only(args.db) as store:
        reviews = store.reviews()
        tz = store.tz
        hour = store.settings.day_start_hour
    if deck_id is not None:
        reviews = [r for r in reviews if r.card_id.split("/", 1)[0] == deck_id]
    reviews.sort(key=lambda r: (r.reviewed_at, r.id))
    terminal = out is None and sys.stdout.isatty()
    buffer = io.StringIO()
    # The csv module's own line ending (CRLF) and minimal quoting: every field holding CR
    # or LF is quoted, so a typed answer's bare CR can't end a row.
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    for review in reviews:
        row = review_row(review, tz, hour)
        writer.writerow({k: csv_cell(v, raw=args.raw, terminal=terminal) for k, v in row.items()})
    if out is None:
        sys.stdout.write(buffer.getvalue())
        return 0
    try:
        atomic_write_text(out, buffer.getvalue())
    except OSError as exc:
        raise InputError(
            f"can't write the CSV file: {exc.strerror}",
            hint="choose a file in a folder you can write to",
            path=out,
        ) from exc
    print(f"wrote {len(reviews)} answers to {shown(out)}", file=sys.stderr)
    return 0
