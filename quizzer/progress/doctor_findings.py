"""What the doctor finds: the report, and the examination of the snapshot, journals and log.

:func:`examine` reads a store without changing it; :mod:`quizzer.progress.doctor`
decides from its findings what to repair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import quizzer.progress.journal as journal
import quizzer.progress.migrate as migrate
from quizzer.errors import StoreError
from quizzer.progress.doctor_months import MonthFindings, examine_months, manifest_of
from quizzer.progress.files import backup_path, journal_path, lock_path, lost_v2_journal, months
from quizzer.progress.generations import journal_problem
from quizzer.progress.lock import Holder, read_mark
from quizzer.progress.schema import SCHEMA_VERSION, schema_of
from quizzer.progress.snapshot import parse
from quizzer.progress.state import document_problem, invalid_cards
from quizzer.progress.values import event_problem


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
    #: What a repair could not bring back (answers lost with the damaged bytes).
    losses: list[str] = field(default_factory=list)
    #: What is worth knowing but is no damage (a statistics cache to be counted again).
    notes: list[str] = field(default_factory=list)

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
    months: MonthFindings = field(default_factory=MonthFindings)
    #: Why the journal can't stand next to the snapshot (missing, empty, its header damaged).
    journal_problem: str | None = None
    #: Bytes of acknowledged journal lines missing (the lock file's mark is further).
    journal_short: int = 0
    #: The backup ``P.bak`` is there but damaged (kept aside by the repair).
    backup_damaged: bool = False
    #: What is lost with the journal of a schema-2 snapshot (it held that store's whole log).
    v2_journal_lost: str | None = None


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


def _doc_problem(doc: dict[str, Any], path: Path) -> str | None:
    """Why a parsed snapshot document can't be used as it is (``None``: it can)."""
    try:
        version = schema_of(doc)
    except ValueError as exc:
        return f"progress store is damaged (unexpected content: {exc})"
    problem = migrate.signature_problem(path, version)
    if problem:
        return f"progress store is damaged ({problem})"
    if version > SCHEMA_VERSION or version < migrate.LAYOUT_SINCE:
        return None  # newer ones are reported separately, the oldest checked as migrated
    # An old schema of the current layout keeps its meta record and card states as this
    # one does: a bad value is damage to repair from the other copies, not a migration
    # to fail on.
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
        if schema_of(doc) != SCHEMA_VERSION or document_problem(doc):
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
        f.snapshot_error = _doc_problem(f.doc, path)
        if f.snapshot_error:
            salvaged = _salvage(f.doc)
            if salvaged:
                f.salvage, f.salvage_dropped = salvaged
    if f.snapshot_error:
        report.problems.append(f"{path}: {f.snapshot_error}")
    elif f.doc is None and not journal_path(path).exists():
        report.problems.append(f"{path}: no progress store here")
    elif f.doc is None and (
        journal.generation(journal_path(path)) > 0 or backup_path(path).exists() or months(path)
    ):
        f.snapshot_error = "the snapshot is missing"
        report.problems.append(f"{path}: the snapshot is missing")
    f.backup, backup_error = _read_doc(backup_path(path))
    if f.backup is not None:
        backup_error = _doc_problem(f.backup, backup_path(path))
    if backup_error:
        f.backup = None  # a damaged backup is no base to rebuild from
        f.backup_damaged = True
        report.problems.append(f"{backup_path(path)}: {backup_error} (a copy, nothing is lost)")
    jpath = journal_path(path)
    mark = read_mark(lock_path(path))  # before the journal: its writer marks after appending
    if jpath.exists():
        last_good = good_end = 0
        for index, (_offset, line, event) in enumerate(journal.iter_lines(jpath), start=1):
            f.journal_size += len(line)
            if event is None or event_problem(event):
                f.bad_lines.append(index)  # a checksummed line that can't be replayed: damage
            else:
                last_good, good_end = index, f.journal_size
                f.events += 1
        if mark is not None and mark[0] == journal.header(jpath) and good_end < mark[1] - 1:
            f.journal_short = mark[1] - good_end
            report.problems.append(
                f"{jpath}: its writer saved answers up to byte {mark[1]}, the lines that verify "
                f"end at byte {good_end}: answers are missing"
            )
        # A single bad line at the very end is an answer cut short, not damage (the header,
        # line 1, is written whole by a rename: never cut short).
        if len(f.bad_lines) == 1 and f.bad_lines[0] > max(last_good, 1):
            f.torn = True
            f.bad_lines = []
            report.problems.append(f"{jpath}: last line was cut short (an unacknowledged answer)")
        if f.bad_lines:
            shown = ", ".join(map(str, f.bad_lines[:10]))
            report.problems.append(f"{jpath}: damaged line(s) {shown}")
    manifest, gen = manifest_of(f.doc if not f.snapshot_error else f.backup)
    f.months = examine_months(path, manifest, gen, report.problems)
    if not f.snapshot_error and f.backup is not None:
        f.months.backup_manifest = manifest_of(f.backup)[0]
    f.bad_months, f.bad_mirrors = f.months.bad_months, f.months.bad_mirrors
    if f.doc is not None and not f.snapshot_error:
        version = schema_of(f.doc)
        if version == SCHEMA_VERSION:
            f.journal_problem = journal_problem(path, int(f.doc["meta"]["1"].get("gen", 0)))
            if f.journal_problem and not f.bad_lines and journal.header(jpath) is None:
                report.problems.append(f"{jpath}: {f.journal_problem}")
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
        elif version > SCHEMA_VERSION:
            report.problems.append(f"{path}: made by a newer quizzer (schema {version})")
        else:
            f.old_schema = version
            report.problems.append(
                f"{path}: has the old schema version {version} (current: "
                f"{SCHEMA_VERSION}); repairing migrates it, keeping "
                f"{migrate.version_backup_path(path, version).name}"
            )
            f.v2_journal_lost = lost_v2_journal(path, f.doc) if version == 2 else None
            if f.v2_journal_lost:
                report.problems.append(f"{jpath}: {f.v2_journal_lost}")
    return f
