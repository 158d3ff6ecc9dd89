"""`quizzer merge FILE`: bring back answers given in Anki or on another machine (see ``--help``)."""

from __future__ import annotations

import argparse
import os
import shlex
import stat
import sys
from pathlib import Path

from quizzer.cli.subcommands import Subcommands
from quizzer.errors import InputError, shown
from quizzer.library.importer import reads_as_glossary
from quizzer.library.source_kind import ANKI_SUFFIXES, source_kind
from quizzer.services.merge import MergeReport, ProgressCallback, added_rows, merge_file


def register(subparsers: Subcommands) -> None:
    """Add ``merge`` to the CLI."""
    merge = subparsers.add_parser(
        "merge",
        help="bring back answers from an Anki package or another progress store",
        description="Add the answers given elsewhere to your progress: from an Anki package "
        "with scheduling (.apkg, or a .colpkg collection package) the review history of the "
        "cards quizzer exported, or every answer of a progress store copied from another "
        "machine. Answers already here are never added twice; the cards they touch are "
        "recomputed from their whole history. Nothing is written until all of it is.",
    )
    merge.add_argument("file", metavar="FILE", help="an .apkg, a .colpkg or a progress store")
    merge.add_argument(
        "--dry-run", action="store_true", help="say what would be added; write nothing"
    )
    merge.add_argument("--db", metavar="PATH", help="the progress store (default: the user's)")
    merge.set_defaults(func=run_merge)


def _progress_bar() -> ProgressCallback | None:
    """A one-line bar on stderr, only when it is a terminal (never in pipes or logs)."""
    if not sys.stderr.isatty():
        return None
    width = 30

    def show(stage: str, done: int, total: int) -> None:
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done >= total and stage == "write" else ""
        sys.stderr.write(f"\r{stage:>7} [{bar}] {done}/{total}{end}")
        sys.stderr.flush()

    return show


def render(report: MergeReport) -> list[str]:
    """The command's summary lines."""
    verb = "would add" if report.dry_run else "added"
    source = "Anki package" if report.kind == "anki" else "progress store"
    # The file name and the package's deck ids may hold control characters: escaped.
    lines = [f"{shown(report.source)} ({source}): {verb} {report.total} answers"]

    for deck, code, count in added_rows(report):
        lines.append(f"  {shown(deck)}  {shown(code)}  {count}")
    if report.known:
        lines.append(f"{report.known} answers already here (left as they are)")
    if report.undone:
        lines.append(f"{report.undone} answers undone here: left out (they stay undone)")
    if report.recomputed:
        lines.append(
            f"{report.recomputed} cards {'to recompute' if report.dry_run else 'recomputed'}"
            " from their history"
        )
    if report.suspended:
        done = "to suspend" if report.dry_run else "suspended"
        lines.append(f"{report.suspended} cards suspended there, {done} here")
    if report.imported_notes:
        lines.append(
            f"{report.imported_notes} notes found in your decks by their GUID "
            "(imported with quizzer import): their answers are on those concepts' cards"
        )
    if report.foreign_notes or report.foreign_answers:
        lines.append(
            f"{report.foreign_notes} notes quizzer didn't export, {report.foreign_answers} "
            "answers on other cards: left alone"
        )
        if report.foreign_notes and not report.imported_notes:
            # Most likely the learner's own Anki deck, not imported yet: say how to bring it.
            lines.append(
                f"  to study those notes here with their answers: quizzer import "
                f"{shlex.quote(shown(report.source))}, then merge it again"
            )
    if report.manual_rows:
        lines.append(f"{report.manual_rows} rescheduled-by-hand entries skipped (no answer)")
    if report.dry_run:
        lines.append("dry run: nothing was written")
    return lines


def _is_json(path: Path) -> bool:
    """Whether the file starts as JSON does (``{`` or ``[`` before any other character)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(JSON_HEAD)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")


#: Bytes read to tell a JSON file.
JSON_HEAD = 4096


def refuse_a_deck(path: Path) -> None:
    """Raise :class:`InputError` when ``path`` is a regular file that reads as a deck to
    import (a Quizlet export, a CSV/TSV table, a glossary): merging brings answers, not
    decks, and the learner most likely meant ``quizzer import``."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return
    except OSError:
        return  # merge says what is wrong with it
    if path.suffix.lower() in ANKI_SUFFIXES or _is_json(path):
        return  # (an old progress store's file is JSON: merge says what to give instead)
    kind = source_kind(path)
    if kind == "table":
        what = "a deck (a Quizlet export or a table of terms and definitions)"
    elif kind == "glossary" and reads_as_glossary(path):
        what = "a deck (a glossary: title, subtitle, term and definition lines)"
    else:
        return
    command = f"quizzer import {shlex.quote(str(path))}"
    raise InputError(
        f"this looks like {what}, not an Anki package or a progress store",
        hint=f"import it as a deck: {command}; merge brings answers, from an .apkg or "
        ".colpkg Anki exported with scheduling, or another store's folder (nothing was "
        "written)",
        path=path,
    )


def run_merge(args: argparse.Namespace) -> int:
    """Run ``quizzer merge``."""
    refuse_a_deck(Path(args.file))
    report = merge_file(args.file, args.db, dry_run=args.dry_run, on_progress=_progress_bar())
    for line in render(report):
        print(line)
    return 0
