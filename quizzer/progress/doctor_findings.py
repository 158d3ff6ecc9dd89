"""What the doctor finds: the report, and the examination of the snapshot, journals and log.

:func:`examine` reads a store without changing it; :mod:`quizzer.progress.doctor`
decides from its findings what to repair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quizzer.errors import StoreError
from quizzer.progress import journal, migrate, reviewlog
from quizzer.progress.files import (
    backup_path,
    journal_path,
)
from quizzer.progress.lock import Holder
from quizzer.progress.snapshot import parse
from quizzer.progress.state import document_problem, invalid_cards


@dataclass
class Report:
    """What the doctor found and did."""

    path: Path
    problems: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    cards: int = 0
    reviews: int = 0
    #: Journal events since the last compaction (answers, buries, undos, settings), when healthy.
    pending: int = 0
    #: The process writing the store while it was checked (``None``: nobody).
    writer: Holder | None = None

    @property
    def healthy(self) -> bool:
        """No problem found (or all repaired, when returned by :func:`repair`)."""
        return not self.problems


@dataclass
class Findings:
    """What :func:`examine` read: the snapshot or why it failed, the backup, journal damage."""

    doc: dict[str, Any] | None = None
    snapshot_error: str | None = None
    backup: dict[str, Any] | None = None
    #: The damaged snapshot minus its invalid card states (when only those were wrong).
    salvage: dict[str, Any] | None = None
    salvage_dropped: list[str] = field(default_factory=list)
    #: The snapshot reads fine but doesn't agree with the journal.
    inconsistent: bool = False
    #: The snapshot's schema version, when older than the current one.
    old_schema: int | None = None
    bad_lines: list[int] = field(default_factory=list)
    torn: bool = False
    journal_size: int = 0
    events: int = 0
    bad_months: list[str] = field(default_factory=list)
    bad_mirrors: list[str] = field(default_factory=list)


def stamp() -> str:
    """The UTC time in names of kept damaged files (``P.damaged-20260301T090000Z``)."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def _read_doc(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    if not path.exists():
        return None, None
    try:
        return parse(path.read_bytes(), path), None
    except StoreError as exc:
        return None, exc.message
    except OSError as exc:
        return None, f"can't read: {exc.strerror}"


def _doc_problem(doc: dict[str, Any]) -> str | None:
    """Why a parsed snapshot document can't be used as it is (``None``: it can)."""
    try:
        version = migrate.schema_of(doc)
    except ValueError as exc:
        return f"progress store is damaged (unexpected content: {exc})"
    if version != migrate.SCHEMA_VERSION:
        return None  # older ones are migrated, newer ones reported separately
    problem = document_problem(doc)
    if problem:
        return f"progress store is damaged (unexpected content: {problem})"
    bad = invalid_cards(doc)
    if bad:
        more = f" and {len(bad) - 1} more" if len(bad) > 1 else ""
        return f"{bad[0][1]}{more}"
    return None


def _salvage(doc: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """``doc`` without its invalid card states, if those are all that is wrong with it."""
    try:
        if migrate.schema_of(doc) != migrate.SCHEMA_VERSION or document_problem(doc):
            return None
    except ValueError:
        return None
    bad = dict(invalid_cards(doc))
    cards = {k: v for k, v in doc.get("cards", {}).items() if k not in bad}
    dropped = [str(doc["cards"][k].get("card_id")) for k in bad]
    return {**doc, "cards": cards}, dropped


def examine(path: Path, report: Report) -> Findings:
    """Read every file of the store at ``path``; note each problem in ``report``, change nothing."""
    f = Findings()
    f.doc, f.snapshot_error = _read_doc(path)
    if f.doc is not None:
        f.snapshot_error = _doc_problem(f.doc)
        if f.snapshot_error:
            salvaged = _salvage(f.doc)
            if salvaged:
                f.salvage, f.salvage_dropped = salvaged
    if f.snapshot_error:
        report.problems.append(f"{path}: {f.snapshot_error}")
    elif f.doc is None and not journal_path(path).exists():
        report.problems.append(f"{path}: no progress store here")
    elif f.doc is None and (
        journal.generation(journal_path(path)) > 0
        or backup_path(path).exists()
        or reviewlog.months(path)
    ):
        f.snapshot_error = "the snapshot is missing"
        report.problems.append(f"{path}: the snapshot is missing")
    f.backup, _ = _read_doc(backup_path(path))
    if f.backup is not None and _doc_problem(f.backup):
        f.backup = None  # a damaged backup is no base to rebuild from
    jpath = journal_path(path)
    if jpath.exists():
        last_good = 0
        for index, (_offset, line, event) in enumerate(journal.iter_lines(jpath), start=1):
            f.journal_size += len(line)
            if event is None:
                f.bad_lines.append(index)
            else:
                last_good = index
                f.events += 1
        # A single bad line at the very end is an answer cut short, not damage.
        if f.bad_lines and f.bad_lines == [f.bad_lines[0]] and f.bad_lines[0] > last_good:
            f.torn = True
            f.bad_lines = []
            report.problems.append(f"{jpath}: last line was cut short (an unacknowledged answer)")
        if f.bad_lines:
            shown = ", ".join(map(str, f.bad_lines[:10]))
            report.problems.append(f"{jpath}: damaged line(s) {shown}")
    for month in reviewlog.months(path):
        file = reviewlog.month_path(path, month)
        try:
            reviews = reviewlog.read_month(file)
        except StoreError as exc:
            f.bad_months.append(month)
            report.problems.append(f"{file}: {exc.message}")
            continue
        mirror = reviewlog.mirror_path(file)
        try:
            mirrored = reviewlog.read_month(mirror) if mirror.exists() else None
        except StoreError:
            mirrored = None
        if mirrored is None or {d["id"] for d in mirrored} - {d["id"] for d in reviews}:
            # Missing, damaged, or holding answers the month file lacks (the mirror may only
            # lag behind it, after a crash between the two writes).
            f.bad_mirrors.append(month)
            report.problems.append(f"{mirror}: backup of {file.name} is missing or damaged")
    if f.doc is not None and not f.snapshot_error:
        version = migrate.schema_of(f.doc)
        if version == migrate.SCHEMA_VERSION:
            offset = int(f.doc["meta"]["1"].get("journal_offset", 0))
            gen = int(f.doc["meta"]["1"].get("gen", 0))
            jgen = journal.generation(jpath)
            if jgen > gen:
                f.inconsistent = True
                report.problems.append(
                    f"{jpath}: generation {jgen} is newer than the snapshot's ({gen})"
                )
            elif jgen == gen and offset > f.journal_size:
                f.inconsistent = True
                report.problems.append(
                    f"{path}: refers to {offset} bytes of journal, the journal has {f.journal_size}"
                )
            report.cards = len(f.doc.get("cards", {}))
        elif version > migrate.SCHEMA_VERSION:
            report.problems.append(f"{path}: made by a newer quizzer (schema {version})")
        else:
            f.old_schema = version
            report.problems.append(
                f"{path}: has the old schema version {version} (current: "
                f"{migrate.SCHEMA_VERSION}); repairing migrates it, keeping "
                f"{migrate.version_backup_path(path, version).name}"
            )
    return f
