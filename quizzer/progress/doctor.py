"""Check a progress store and repair it from the journal or the last good backup.

Nothing is ever deleted: a damaged snapshot is renamed to
``P.damaged-<time>`` and a damaged journal copied to
``P.journal.damaged-<time>`` before anything is rewritten. The journal holds
every answer since the last compaction with each card's state after it, and
``P.journal.prev`` the generation before, so card states are rebuilt from them
over the best snapshot available (the current one, else ``P.bak``; with none
usable, from the two journals alone), then from the review log. A damaged
month file of the review log (``P.log/YYYY-MM.json``) is renamed to
``….damaged-<time>`` and rebuilt from its mirror (``YYYY-MM.json.bak``) plus
that month's answers in every journal kept; a damaged or missing mirror is
rewritten from its month file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import quizzer.progress.aggregates as aggregates
import quizzer.progress.doctor_replay as doctor_replay
import quizzer.progress.generations as generations
import quizzer.progress.journal as journal
import quizzer.progress.migrate as migrate
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir, keep_link
from quizzer.progress.doctor_findings import (
    Findings,
    Report,
    examine,
    stamp,
)
from quizzer.progress.doctor_months import restore_month, rewrite_mirror, write_manifest
from quizzer.progress.files import (
    READ_ATTEMPTS,
    RERUN,
    backup_path,
    check_store_path,
    files_signature,
    journal_path,
    lock_path,
    months,
    previous_journal_path,
    repair_marker_path,
    stats_path,
    store_exists,
)
from quizzer.progress.journal import JournalDamage
from quizzer.progress.lock import StoreLock, active_holder
from quizzer.progress.schema import SCHEMA_VERSION, schema_of
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State
from quizzer.progress.store import open_store
from quizzer.progress.values import event_problem, reason_of


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
        examine(path, report)
        if files_signature(path) == before:
            break
        time.sleep(0.005 * (attempt + 1))
    report.writer = active_holder(lock_path(path))
    if report.healthy and store_exists(path):
        _count_with_journal(report)
        report.problems += replay_findings(path)  # card states against their log
    marker = repair_marker_path(path)
    if marker.exists():
        said = f"{marker.name}: a repair was interrupted before it finished; {RERUN}"
        report.problems.insert(0, said)
    return report


def replay_findings(path: Path) -> list[str]:
    """What ``doctor --check`` reports about card states against the log (read-only)."""
    try:
        with open_store(path, read_only=True, repairing=True) as store:
            cmp = doctor_replay.compare(
                store.reviews(), doctor_replay.kept_states(store), store.settings, store.tz
            )
    except StoreError as exc:
        return [f"can't replay the review log: {exc.message}"]
    return doctor_replay.describe(cmp)


def rebuild_states(report: Report) -> None:
    """``quizzer doctor``: rebuild the card states of ``report.path`` that differ from their
    log; what it did goes to ``report.actions``, what it could not do to ``report.problems``."""
    try:
        with open_store(report.path, repairing=True) as store:
            cmp = doctor_replay.recompute(store)
            report.cards = len(store.state.raw)  # what the store holds after the rebuild
    except StoreError as exc:
        report.problems.append(f"can't rebuild card states from the review log: {exc.message}")
        return
    if cmp.fixed:
        report.actions.append(
            f"rebuilt {len(cmp.fixed)} of {cmp.checked} card states from their review log"
        )


def rebuild_stats_cache(path: Path, actions: list[str]) -> None:
    """``quizzer doctor``: count the cache again from the log if it isn't up to date."""
    try:
        with open_store(path, repairing=True) as store:
            if not aggregates.cache_notes(store):
                return
            aggregates.tally_for(store)
    except StoreError:
        return  # the log itself is damaged: the doctor has said so
    actions.append(f"rebuilt the statistics cache {stats_path(path).name} from the review log")


def _count_with_journal(report: Report) -> None:
    """Card states as a read-only open sees them: the snapshot plus the journal replayed."""
    try:
        store = open_store(report.path, read_only=True, repairing=True)
    except StoreError as exc:
        report.problems.append(f"{exc.path or report.path}: {exc.message}")
        return
    with store:
        report.cards = len(store.state.raw)
        report.pending = store.replayed
        report.notes += aggregates.cache_notes(store)


def repair(path: Path) -> Report:
    """Check the store and fix what is wrong; returns the report with the actions taken.

    Takes the store's lock, so it refuses while quizzer has the store open. Last, card
    states that differ from their review log are rebuilt from it (:mod:`.doctor_replay`).
    A file the repair can't write (a folder it may not write in, a full disk) is a
    :class:`StoreError`: trouble with the store, said with what to do.
    """
    try:
        report = _repair(path)
        if report.healthy:
            rebuild_states(report)
        if report.healthy:
            rebuild_stats_cache(report.path, report.actions)
        # Done (what is left, if anything, is said as a problem): the store is usable again.
        marker = repair_marker_path(report.path)
        if marker.exists():
            marker.unlink()
            fsync_dir(marker.parent)
    except OSError as exc:
        where = Path(exc.filename) if exc.filename is not None else Path(path)
        raise StoreError(
            f"can't repair the store: {exc.strerror or exc}",
            hint=f"the doctor writes beside the store: make sure you can write in "
            f"{where.parent} and that the disk has space; {RERUN}",
            path=where,
        ) from exc
    return report


def _repair(path: Path) -> Report:
    path = check_store_path(Path(path))
    report = Report(path)
    lock = StoreLock(lock_path(path), path, journal_path(path))
    try:
        f = examine(path, report)
        if not report.problems:
            return report
        jpath = journal_path(path)
        rebuild = bool(f.snapshot_error) or f.inconsistent
        if f.snapshot_error and _nothing_beside(path, f):
            raise StoreError(
                f"can't repair the store: {f.snapshot_error}, and no backup, journal or review "
                "log beside it to rebuild from",
                hint="restore it from a backup of your own, or move it aside to start afresh",
                path=path,
            )
        # Before the first change: until the repair is done, opens are refused and the next
        # doctor says that this one was interrupted (a kill can leave the files in between).
        _put_marker(repair_marker_path(path))
        when = stamp()
        if f.backup_damaged:
            keep = backup_path(path).with_name(f"{backup_path(path).name}.damaged-{when}")
            backup_path(path).rename(keep)
            report.actions.append(f"kept the damaged backup as {keep.name}")
        if f.bad_lines:
            rebuild = True
            _salvage_journal(path, f, report, when)
        elif f.journal_short or f.torn:
            rebuild = rebuild or bool(f.journal_short)
            _cut_journal(jpath, report)
        elif f.journal_problem and journal.header(jpath) is None:
            rebuild = True
            journal.start_new(jpath, _journal_gen(f))
            report.actions.append("started a new journal")
            report.losses.append(f"{jpath.name}: {f.journal_problem}")
        if f.journal_short:
            report.losses.append(
                f"{jpath.name}: {f.journal_short} bytes of saved journal lines are gone; the "
                "answers on them are lost"
            )
        for month in f.bad_months:
            restore_month(path, month, f.months, when, report.actions, report.losses)
        for month in f.bad_mirrors:
            rewrite_mirror(path, month, when, report.actions)
        if rebuild:
            _rebuild(path, f, report)
        elif f.old_schema is not None and f.doc is not None:
            # What a writable open does first; done here under the same lock.
            lost = f.v2_journal_lost
            try:
                doc = migrate.migrate(path, f.doc, f.old_schema, journal_lost=bool(lost))
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                # An old layout that isn't what that version wrote: the file is left as it is
                # (the migration writes the new snapshot last, after its backup).
                raise StoreError(
                    f"can't migrate the store from schema {f.old_schema}: unexpected content "
                    f"({reason_of(exc)})",
                    hint="restore it from a backup, or move it aside to start afresh",
                    path=path,
                ) from exc
            report.actions.append(
                f"migrated from schema {f.old_schema} to {SCHEMA_VERSION} (the old file "
                f"is kept as {migrate.version_backup_path(path, f.old_schema).name})"
            )
            if lost:  # the snapshot as it was, and a journal of its new generation
                journal.start_new(jpath, int(doc["meta"]["1"]["gen"]))
                report.actions.append("started a new journal")
                report.losses.append(f"{jpath.name}: {lost}")
        if f.bad_months or f.bad_mirrors or rebuild:
            write_manifest(path)
        _mark(path, lock)  # the journal as repaired is what the next writer must find
        fresh = Report(path)
        examine(path, fresh)
        if fresh.healthy:
            _count_with_journal(fresh)  # what the store holds now, the journal's tail included
        report.problems = fresh.problems
        report.cards = fresh.cards
        report.reviews = f.events
        return report
    finally:
        _mark(path, lock)
        lock.release()


def _put_marker(marker: Path) -> None:
    """Make the repair's marker, durably (its bytes, the repair's start, are only for people)."""
    with open(marker, "wb") as fh:
        fh.write(f"repair started {stamp()}\n".encode())
        fh.flush()
        os.fsync(fh.fileno())
    fsync_dir(marker.parent)


def _rebuild(path: Path, f: Findings, report: Report) -> None:
    """New snapshot: the best available base, then every journal event replayed over it."""
    base_file = path  # where the base was read (its old bytes, if of an old schema)
    if (f.snapshot_error or f.inconsistent) and path.exists():
        # Kept aside, never copied over P.bak: the backup may be the last good snapshot.
        keep = path.with_name(f"{path.name}.damaged-{stamp()}")
        path.rename(keep)
        base_file = keep
        fsync_dir(path.parent)
        what = "damaged" if f.snapshot_error else "inconsistent"
        report.actions.append(f"kept the {what} store as {keep.name}")
    base = f.doc if not f.snapshot_error else None
    source = "the store"
    if base is None and f.backup is not None:
        base, source = f.backup, f"the backup {backup_path(path).name}"
        base_file = backup_path(path)
    if base is not None and schema_of(base) < SCHEMA_VERSION:
        base = _old_base(base, source, base_file, report)
    if base is None and f.salvage is not None:
        base = f.salvage
        source = "the damaged store's valid card states (dropped: {})".format(
            ", ".join(f.salvage_dropped[:5])
        )
    st = State.from_document(base) if base else State()
    st.undo, st.recent = [], []
    jpath, prev = journal_path(path), previous_journal_path(path)
    jgen = journal.generation(jpath)
    # With no base the states come from the journals alone: the generation before the
    # journal's (P.journal.prev, whatever base it followed), then the journal.
    base_gen = st.gen if base is not None else jgen - 1
    read: list[str] = []
    replayed = 0
    try:
        # The base is older than the journal (the backup): the generation in between is
        # the previous journal, if kept (without a base, only one whose header says so).
        headed = base is not None or journal.header(prev) is not None
        if jgen > base_gen and headed and journal.generation(prev) == base_gen and prev.exists():
            read.append(prev.name)
            for _, event in journal.scan(prev, 0):
                if event_problem(event):
                    report.losses.append(f"{prev.name}: {event_problem(event)} (skipped)")
                    continue
                st.apply(event)
                replayed += 1
            if jgen > base_gen + 1:
                report.actions.append(
                    f"journal generations {base_gen + 1}..{jgen - 1} are gone: card states "
                    "answered then may be older (their answers are in the review log)"
                )
        if jgen >= base_gen:
            read.append(jpath.name)
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
            keep_link(path, backup_path(path))  # atomically: P.bak may be the last good copy
    AtomicJSONStorage(path).write(st.to_document(end))
    report.cards = len(st.raw)
    if base is None:
        report.actions.append(
            f"rebuilt {len(st.raw)} card states from the journals alone (no snapshot could be "
            f"used): {replayed} events of {' and '.join(read) or 'no journal'}"
        )
    else:
        report.actions.append(
            f"rebuilt {len(st.raw)} card states from {source} and {replayed} journal events"
        )


def _old_base(
    base: dict[str, Any], source: str, file: Path, report: Report
) -> dict[str, Any] | None:
    """An old schema's base (from ``file``) in the current layout, or ``None`` if it can't be.

    Not :func:`migrate.migrate`: it would replay the base's own generation of the journal,
    gone by; the journals are replayed over the base here and the memory states rebuilt
    from the log last (:func:`repair`). The old bytes are kept: a compaction replaces P.bak.
    """
    version = schema_of(base)
    kept = migrate.version_backup_path(file, version)
    if file.exists() and not kept.exists():
        keep_link(file, kept)
        fsync_dir(file.parent)
    if version < migrate.LAYOUT_SINCE:
        report.losses.append(
            f"{file.name}: of schema {version}, older than the review log's month files: not "
            f"taken as the base (its bytes are kept as {kept.name}); the settings, suspensions "
            "and flags it held are not restored, card states come from the journals and the "
            "review log"
        )
        return None
    report.actions.append(
        f"brought {source} from schema {version} to {SCHEMA_VERSION} for the rebuild "
        f"(its old bytes are kept as {kept.name}); card states come from the review log"
    )
    return migrate.in_current_layout(base, version)


def _cut_journal(jpath: Path, report: Report) -> None:
    """End the journal after its last line that verifies; the bytes after it kept aside."""
    result = journal.read(jpath, 0)
    if result.torn:
        torn = jpath.with_name(jpath.name + ".torn")
        with open(torn, "ab") as fh:
            fh.write(result.torn + b"\n")
        with open(jpath, "rb+") as fh:
            fh.truncate(result.end)
        report.actions.append(f"dropped the cut-short last journal line (kept in {torn.name})")


def _mark(path: Path, lock: StoreLock) -> None:
    """Leave the journal's end, as it is now, in the lock file (see :meth:`StoreLock.mark`)."""
    jpath = journal_path(path)
    with contextlib.suppress(OSError):
        if jpath.is_file():
            lock.mark(journal.generation(jpath), jpath.stat().st_size)


def _nothing_beside(path: Path, f: Findings) -> bool:
    """No file but the snapshot holds anything to rebuild from (so it is left as it is)."""
    return (
        f.backup is None
        and f.salvage is None
        and not journal_path(path).exists()
        and not previous_journal_path(path).exists()
        and not months(path)
    )


def _journal_gen(f: Findings) -> int:
    """The generation a journal whose header is lost belongs to: the snapshot's, else next."""
    for doc, ahead in ((None if f.snapshot_error else f.doc, 0), (f.backup, 1)):
        if doc is not None:
            return int(doc.get("meta", {}).get("1", {}).get("gen", 0)) + ahead
    return 1


#: A header line is about this long; a damaged first line much longer held answers too.
_HEADER_BYTES = len(journal.encode(journal.header_event(10**6)))


def _salvage_journal(path: Path, f: Findings, report: Report, when: str) -> None:
    """Keep the damaged journal aside; keep every line that verifies, under a good header."""
    jpath = journal_path(path)
    keep = jpath.with_name(f"{jpath.name}.damaged-{when}")
    shutil.copyfile(jpath, keep)
    lines = list(journal.iter_lines(jpath))
    good = [
        line if line.endswith(b"\n") else line + b"\n"
        for _, line, event in lines
        if event is not None and not event_problem(event)
    ]
    head = lines[0][2] if lines else None
    header_ok = head is not None and head.get("op") == "header" and not event_problem(head)
    if not header_ok and not generations.is_v2_journal(path):
        good.insert(0, journal.encode(journal.header_event(_journal_gen(f))))
    atomic_write_bytes(jpath, b"".join(good))
    report.actions.append(
        f"kept the damaged journal as {keep.name}; removed {len(f.bad_lines)} bad line(s), "
        f"kept {len(good)} that verify"
    )
    first = lines[0][1] if lines else b""
    # A damaged header alone holds no answer; anything else on line 1 may have held some.
    header_like = len(first) <= _HEADER_BYTES + 1 and (b"header" in first or b'"op"' in first)
    held = [i for i in f.bad_lines if i > 1 or not header_like]
    if held:
        report.losses.append(
            f"{jpath.name}: line(s) {', '.join(map(str, held[:10]))} failed their checksum or "
            "can't be replayed; "
            f"the answers on them are lost (their bytes are kept in {keep.name})"
        )
