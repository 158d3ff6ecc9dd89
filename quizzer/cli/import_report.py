"""The alignment report of `quizzer import`, readable at any size.

A small import (up to :data:`FULL_TABLE_MAX` concepts) prints the whole table, one row
per concept. A big one prints counts, a confidence summary and only the unsure rows
(the ones to check): Rich took ~45 s to lay out a 50,000-row table, and nobody reads
it on a terminal. The full table goes to ``--report FILE`` (plain text) or, with
``--verbose``, to standard output; both are written as plain padded columns, since
every cell is ASCII (slugs, statuses, numbers, language codes and method names).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from operator import attrgetter
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from quizzer.errors import InputError, shown
from quizzer.fsutil import atomic_write_text
from quizzer.glossary.alignment_report import UNSURE_BELOW, AlignmentReport, ConceptReport

#: Reports with at most this many concepts are printed whole by default.
FULL_TABLE_MAX = 40
#: At most this many unsure rows are printed by default; the rest are in the full table.
UNSURE_SHOWN = 50
#: The first line of a report file: only a file starting with it is overwritten.
REPORT_HEADER = "# quizzer import: alignment report"
COLUMNS = ("concept", "status", "confidence", "entries (lang:line via method)")


def _cells(c: ConceptReport) -> tuple[str, str, str, str]:
    parts = [f"{m.entry.lang}:{m.entry.term_line} {m.method}" for m in c.matches]
    confidence = f"{c.confidence:.2f}" + ("  UNSURE" if c.unsure else "")
    if c.likely:
        confidence += f" (likely {' or '.join(c.likely)})"
    return c.concept_id, c.status, confidence, ", ".join(parts)


def rich_table(concepts: tuple[ConceptReport, ...]) -> Table:
    """A Rich table of these concepts' rows (for the few printed on the terminal)."""
    table = Table(box=None, pad_edge=False)
    for column in COLUMNS:
        table.add_column(column)
    for c in concepts:
        concept, status, confidence, entries = _cells(c)
        table.add_row(
            Text(concept),
            Text(status),
            Text(confidence, style="bold yellow" if c.unsure else ""),
            Text(entries),
        )
    return table


def plain_lines(report: AlignmentReport) -> Iterator[str]:
    """The full table as padded plain-text lines (header first), fast at any size."""
    rows = [COLUMNS, *(_cells(c) for c in report.concepts)]
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    for row in rows:
        head = "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
        yield f"{head}  {row[3]}".rstrip()


def confidence_summary(report: AlignmentReport) -> list[str]:
    """Counts of concepts by status, by confidence band and by method of their entries."""
    total = len(report.concepts)
    statuses = Counter(map(attrgetter("status"), report.concepts))
    if round(report.weakest(), 2) >= 1.0:  # every concept sure (a first import of one file)
        sure, unsure = total, 0
    else:
        confidences = [c.confidence for c in report.concepts]
        sure = sum(1 for x in confidences if round(x, 2) >= 1.0)
        unsure = sum(1 for x in confidences if x < UNSURE_BELOW)  # what report.unsure holds
    likely = total - sure - unsure
    methods = Counter(map(attrgetter("method"), report.matches()))
    by_method = ", ".join(f"{method} {n:,}" for method, n in methods.most_common())
    return [
        f"alignment: {total:,} concepts ({statuses['new']:,} new, "
        f"{statuses['updated']:,} updated, {statuses['unchanged']:,} unchanged)",
        f"confidence: {sure:,} at 1.00, {likely:,} from {UNSURE_BELOW} to 0.99, "
        f"{unsure:,} UNSURE (below {UNSURE_BELOW})",
        f"entries matched by: {by_method or 'nothing'}",
    ]


def print_report(
    console: Console, report: AlignmentReport, *, verbose: bool, report_file: Path | None
) -> None:
    """The report as `quizzer import` prints it (see the module docstring)."""
    if verbose:
        sys.stdout.write("".join(f"{line}\n" for line in plain_lines(report)))
        sys.stdout.flush()
    elif len(report.concepts) <= FULL_TABLE_MAX:
        console.print(rich_table(report.concepts))
    else:
        for line in confidence_summary(report):
            console.print(Text(line))
        unsure = report.unsure
        if unsure:
            console.print(Text("unsure concepts (check these):", style="yellow"))
            console.print(rich_table(unsure[:UNSURE_SHOWN]))
            if len(unsure) > UNSURE_SHOWN:
                console.print(Text(f"… and {len(unsure) - UNSURE_SHOWN:,} more unsure"))
        if report_file is None:
            console.print(
                Text("the full table, one row per concept: --report FILE or --verbose", style="dim")
            )
    if report_file is not None:
        write_report(report, report_file)
        console.print(Text(f"full alignment report: {shown(report_file)}"))


def check_report_path(path: Path) -> None:
    """Refuse a ``--report`` path that can't be written or holds something else.

    Called before importing, so a bad path costs nothing and writes nothing.
    """
    if path.is_dir():
        raise InputError("is a folder", hint="give --report a file name", path=path)
    if not path.parent.is_dir():
        raise InputError(
            f"folder {path.parent} does not exist",
            hint="create it first, or give --report a file in an existing folder",
            path=path,
        )
    if path.exists() and not _is_report(path):
        raise InputError(
            "exists and is not a quizzer import report: not overwritten",
            hint="give --report a new file name",
            path=path,
        )


def _is_report(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(REPORT_HEADER)) == REPORT_HEADER.encode()
    except OSError:
        return False


def write_report(report: AlignmentReport, path: Path) -> None:
    """Write the full table (and the summary and notes) to ``path``, atomically."""
    lines = [REPORT_HEADER, *(f"# {line}" for line in confidence_summary(report))]
    lines += [f"# note: {note}" for note in report.notes]
    lines += plain_lines(report)
    try:
        atomic_write_text(path, "\n".join(lines) + "\n")
    except OSError as exc:
        raise InputError(
            f"can't write the report: {exc.strerror or exc}",
            hint="give --report a file in a writable folder",
            path=path,
        ) from exc
