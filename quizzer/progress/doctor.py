"""Check a progress store and repair it from the journal or the last good backup.

Nothing is ever deleted: a damaged snapshot is renamed to
``P.damaged-<time>`` and a damaged journal copied to
``P.journal.damaged-<time>`` before anything is rewritten. The journal holds
every answer since the last compaction with each card's state after it, and
``P.journal.prev`` the generation before, so card states are rebuilt from them
over the best snapshot available (the current one, else ``P.bak``, else
nothing). A damaged month file of the review log (``P.log/YYYY-MM.json``) is
renamed to ``….damaged-<time>`` and rebuilt from its mirror
(``YYYY-MM.json.bak``) plus that month's answers in every journal kept; a
damaged or missing mirror is rewritten from its month file.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress import journal, migrate, reviewlog
from quizzer.progress.events import Event, ReviewData
from quizzer.progress.files import (
    READ_ATTEMPTS,
    backup_path,
    check_store_path,
    files_signature,
    journal_path,
    lock_path,
    previous_journal_path,
    store_exists,
)
from quizzer.progress.journal import JournalDamage
from quizzer.progress.lock import Holder, StoreLock, active_holder
from quizzer.progress.opening import OpenedStore
from quizzer.progress.snapshot import AtomicJSONStorage, parse
from quizzer.progress.state import State, document_problem, invalid_cards


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
class _Findings:
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


def _stamp() -> str:
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


def _examine(path: Path, report: Report) -> _Findings:
    f = _Findings()
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


def check(path: Path) -> Report:
    """Look at the store without changing anything (what a read-only open sees, journal included).

    :class:`StoreError` if ``path`` is a folder or a file that is not a quizzer store. A
    writer may be at work meanwhile (its holder is in :attr:`Report.writer`): as a read-only
    open does, the files are read again when a compaction replaced them during the read.
    """
    path = check_store_path(Path(path))
    report = Report(path)
    for attempt in range(READ_ATTEMPTS):
        before = files_signature(path)
        report = Report(path)
        _examine(path, report)
        if files_signature(path) == before:
            break
        time.sleep(0.005 * (attempt + 1))
    report.writer = active_holder(lock_path(path))
    if report.healthy and store_exists(path):
        _count_with_journal(report)
    return report


def _count_with_journal(report: Report) -> None:
    """Card states as a read-only open sees them: the snapshot plus the journal replayed."""
    try:
        store = OpenedStore(report.path, read_only=True)
    except StoreError as exc:
        report.problems.append(f"{exc.path or report.path}: {exc.message}")
        return
    with store:
        report.cards = len(store.state.raw)
        report.pending = store.replayed


def repair(path: Path) -> Report:
    """Check the store and fix what is wrong; returns the report with the actions taken.

    Takes the store's lock, so it refuses while quizzer has the store open.
    """
    path = check_store_path(Path(path))
    report = Report(path)
    lock = StoreLock(lock_path(path), path)
    try:
        f = _examine(path, report)
        if not report.problems:
            return report
        jpath = journal_path(path)
        rebuild = bool(f.snapshot_error) or f.inconsistent
        if f.bad_lines:
            keep = jpath.with_name(f"{jpath.name}.damaged-{_stamp()}")
            shutil.copyfile(jpath, keep)
            good = b"".join(line for _, line, event in journal.iter_lines(jpath) if event)
            atomic_write_bytes(jpath, good)
            report.actions.append(
                f"kept the damaged journal as {keep.name}; removed {len(f.bad_lines)} bad line(s)"
            )
            rebuild = True
        elif f.torn:
            result = journal.read(jpath, 0)
            with open(jpath, "rb+") as fh:
                fh.truncate(result.end)
            report.actions.append("dropped the cut-short last journal line")
        for month in f.bad_months:
            _restore_month(path, month, report)
        for month in f.bad_mirrors:
            file = reviewlog.month_path(path, month)
            mirror = reviewlog.mirror_path(file)
            if mirror.exists():
                keep = mirror.with_name(f"{mirror.name}.damaged-{_stamp()}")
                mirror.rename(keep)
                report.actions.append(f"kept the damaged {mirror.name} as {keep.name}")
            reviewlog.write_month(file, reviewlog.read_month(file), mirror_only=True)
            report.actions.append(f"rewrote {mirror.name} from {file.name}")
        if rebuild:
            _rebuild(path, f, report)
        elif f.old_schema is not None and f.doc is not None:
            # What a writable open does first; done here under the same lock.
            try:
                migrate.migrate(path, f.doc, f.old_schema)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                # An old layout that isn't what that version wrote: the file is left as it is
                # (the migration writes the new snapshot last, after its backup).
                raise StoreError(
                    f"can't migrate the store from schema {f.old_schema}: unexpected content "
                    f"({exc!r:.120})",
                    hint="restore it from a backup, or move it aside to start afresh",
                    path=path,
                ) from exc
            report.actions.append(
                f"migrated from schema {f.old_schema} to {migrate.SCHEMA_VERSION} (the old file "
                f"is kept as {migrate.version_backup_path(path, f.old_schema).name})"
            )
        fresh = Report(path)
        _examine(path, fresh)
        report.problems = fresh.problems
        report.reviews = f.events
        return report
    finally:
        lock.release()


def _rebuild(path: Path, f: _Findings, report: Report) -> None:
    """New snapshot: the best available base, then every journal event replayed over it."""
    if (f.snapshot_error or f.inconsistent) and path.exists():
        # Kept aside, never copied over P.bak: the backup may be the last good snapshot.
        keep = path.with_name(f"{path.name}.damaged-{_stamp()}")
        path.rename(keep)
        fsync_dir(path.parent)
        what = "damaged" if f.snapshot_error else "inconsistent"
        report.actions.append(f"kept the {what} store as {keep.name}")
    base = f.doc if not f.snapshot_error else None
    source = "the store"
    if base is None and f.backup is not None:
        base, source = f.backup, f"the backup {backup_path(path).name}"
    if base is None and f.salvage is not None:
        base = f.salvage
        source = "the damaged store's valid card states (dropped: {})".format(
            ", ".join(repr(c) for c in f.salvage_dropped[:5])
        )
    if base is None:
        source = "nothing (states rebuilt from the journal alone)"
    elif migrate.schema_of(base) < migrate.SCHEMA_VERSION:
        base = migrate.migrate(path, base, migrate.schema_of(base))
    st = State.from_document(base) if base else State()
    st.undo, st.recent = [], []
    jpath = journal_path(path)
    base_gen, jgen = st.gen, journal.generation(jpath)
    replayed = 0
    try:
        if jgen > base_gen and base is not None:
            # The base is older than the journal (the backup): the generation in between
            # is the previous journal, if kept.
            prev = previous_journal_path(path)
            if journal.generation(prev) == base_gen and prev.exists():
                for _, event in journal.scan(prev, 0):
                    st.apply(event)
                    replayed += 1
                if jgen > base_gen + 1:
                    report.actions.append(
                        f"journal generations {base_gen + 1}..{jgen - 1} are gone: card states "
                        "answered then may be older (their answers are in the review log)"
                    )
        if jgen >= base_gen:
            result = journal.read(jpath, 0)
            for event in result.events:
                st.apply(event)
            replayed += len(result.events)
            st.gen, end = jgen, result.end
        else:
            end = 0  # the journal is already absorbed; the next open starts a new one
    except JournalDamage as exc:  # pragma: no cover - bad lines were removed above
        raise StoreError(str(exc), path=exc.path) from exc
    if st.created is None:
        st.created = datetime.now(UTC).isoformat()
    if path.exists() and not f.snapshot_error and not f.inconsistent:
        # Atomically: P.bak may be the last good copy.
        with contextlib.suppress(OSError):
            reviewlog.keep_link(
                path, backup_path(path)
            )  # atomically: P.bak may be the last good copy
    AtomicJSONStorage(path).write(st.to_document(end))
    report.cards = len(st.raw)
    report.actions.append(
        f"rebuilt {len(st.raw)} card states from {source} and {replayed} journal events"
    )


def _journal_events(file: Path) -> list[Event]:
    """The good events of a journal file (damaged lines skipped), ``[]`` if missing."""
    if not file.exists():
        return []
    return [event for _, _, event in journal.iter_lines(file) if event is not None]


def _restore_month(path: Path, month: str, report: Report) -> None:
    """Keep a damaged month file aside; rebuild it from its backup and the journals kept."""
    file = reviewlog.month_path(path, month)
    keep = file.with_name(f"{file.name}.damaged-{_stamp()}")
    file.rename(keep)
    fsync_dir(file.parent)
    base: list[ReviewData] = []
    source = "no backup"
    bak = reviewlog.mirror_path(file)
    with contextlib.suppress(StoreError, OSError):
        base = reviewlog.read_month(bak)
        source = f"its backup {bak.name}" if bak.exists() else "no backup"
    jpath = journal_path(path)
    fold = reviewlog.Fold()
    for jfile in (jpath.with_name(jpath.name + ".v2.bak"), previous_journal_path(path), jpath):
        fold.add_events(_journal_events(jfile))
    adds = fold.adds.get(month, {})
    gone = fold.removes.get(month, set())
    merged = reviewlog.merge(base, adds, gone)
    reviewlog.sort_by_time(merged)
    if source == "no backup":
        if bak.exists():  # damaged too: keep it aside, then write both
            bak.rename(bak.with_name(f"{bak.name}.damaged-{_stamp()}"))
        reviewlog.write_month(file, merged)
    else:  # a good mirror is left as it is
        AtomicJSONStorage(file).write({"reviews": {str(i): r for i, r in enumerate(merged, 1)}})
    report.actions.append(
        f"kept the damaged {file.name} as {keep.name}; restored {len(merged)} reviews of "
        f"{month} from {source} and the journals kept (answers in neither are lost)"
    )
