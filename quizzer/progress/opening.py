"""Opening and closing a progress store: the lock, loading the snapshot and replaying the journal.

:class:`OpenedStore` holds what every open store has: its files, the in-memory
:class:`~quizzer.progress.state.State`, the journal writer and the lock. It reads the
snapshot (migrating an old one), replays the journal tail, finishes a compaction a crash
cut short, appends events durably (:meth:`OpenedStore._append`) and closes. The steps of
a compaction are in :mod:`quizzer.progress.compaction`; reading and writing methods are
added by :mod:`quizzer.progress.reading` and :mod:`quizzer.progress.writing`.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import quizzer.progress.cardindex as cardindex
import quizzer.progress.compaction as compaction
import quizzer.progress.generations as generations
import quizzer.progress.journal as journal
from quizzer.errors import StoreError
from quizzer.fsutil import keep_link
from quizzer.progress.files import (
    READ_ATTEMPTS,
    backup_path,
    busy_error,
    check_store_path,
    files_signature,
    interrupted_repair_error,
    journal_damage_error,
    journal_path,
    lock_path,
    log_months,
    own_temp_files,
    previous_journal_path,
    repair_marker_path,
    size_of,
)
from quizzer.progress.journal import JournalDamage, JournalWriter
from quizzer.progress.journal_events import Change
from quizzer.progress.localtz import LocalTimezone
from quizzer.progress.lock import StoreLock, read_mark
from quizzer.progress.schema import SCHEMA_VERSION, schema_of
from quizzer.progress.snapshot import AtomicJSONStorage, Snapshot
from quizzer.progress.state import State
from quizzer.progress.values import event_problem, reason_of

if TYPE_CHECKING:
    from quizzer.progress.aggregates import Live
    from quizzer.progress.history import LoadedLog
    from quizzer.progress.outcomes import RecordOutcome

#: Replaying more journal events than this on open triggers a compaction.
COMPACT_AFTER = 2000


class OpenedStore:
    """The files, lock, journal writer and in-memory state of an open store.

    The base of :class:`~quizzer.progress.store.Store`; use
    :func:`~quizzer.progress.store.open_store`. ``tz`` is the learner's time zone for
    study days (default: the system's local zone, DST-aware); ``rng`` draws interval fuzz.
    """

    def __init__(
        self,
        path: Path,
        *,
        read_only: bool = False,
        tz: tzinfo | None = None,
        rng: random.Random | None = None,
        repairing: bool = False,
    ) -> None:
        self.path = Path(path)
        self.read_only = read_only
        #: The learner's time zone for study days (default: the system's, DST-aware).
        self.tz: tzinfo = tz or LocalTimezone()
        self.rng = rng or random.Random()
        self.journal_path = journal_path(self.path)
        self.backup_path = backup_path(self.path)
        self._storage = AtomicJSONStorage(self.path, read_only=read_only)
        self._lock: StoreLock | None = None
        self._writer: JournalWriter | None = None
        self._reviews: LoadedLog | None = None
        self._reviews_last: datetime | None = None
        #: The statistics' tally, once asked for, kept up to date (:mod:`.aggregates`).
        self._live_tally: Live | None = None
        self._header_end = 0
        #: What the latest :meth:`record` / :meth:`record_outcome` did (``None`` before any).
        self.last_outcome: RecordOutcome | None = None
        self._stopped: str | None = None  # why it stopped writing (None: it writes)
        self._closed = False
        self._mutex = threading.RLock()
        # A folder or someone else's file is refused before anything (the lock file) is made.
        check_store_path(self.path)
        # Mid-repair the files may be in between (the snapshot moved aside, a month not yet
        # restored): only the doctor's own opens read them until it is done.
        if not repairing and repair_marker_path(self.path).exists():
            raise interrupted_repair_error(self.path)
        try:
            if not read_only:
                self._lock = StoreLock(lock_path(self.path), self.path, self.journal_path)
            self._open()
        except OSError as exc:
            self._release()
            raise StoreError(
                f"can't open the progress store: {exc.strerror or exc}",
                hint="check the path and its permissions (--db or $QUIZZER_DB choose another)",
                path=exc.filename or self.path,
            ) from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # Well-formed JSON with an unexpected layout (hand-edited, or another program's).
            self._release()
            raise StoreError(
                f"progress store is damaged (unexpected content: {reason_of(exc)})",
                hint=f"run `quizzer doctor --db {self.path}`",
                path=self.path,
            ) from exc
        except BaseException:
            self._release()
            raise

    # -- opening, compaction, closing ---------------------------------------------------

    def _open(self) -> None:
        if not self.read_only:
            self._load()  # we hold the lock: nothing else changes the files meanwhile
            return
        # A reader has no lock: another process may compact between our reads of the snapshot
        # and the journal (a newer journal next to the older snapshot we read). Read again until
        # both files stayed put during one read; only then is an error real damage.
        for attempt in range(READ_ATTEMPTS):
            before = files_signature(self.path)
            try:
                self._load()
            except StoreError:
                if files_signature(self.path) == before:
                    raise
            else:
                if files_signature(self.path) == before:
                    return
            time.sleep(0.005 * (attempt + 1))
        raise busy_error(self.path)

    def _load(self) -> None:
        snapshot = self._storage.read_lazily()
        doc = snapshot.doc
        if doc is None and not self.read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        version = schema_of(doc) if doc is not None else SCHEMA_VERSION
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"progress store has schema version {version}, newer than this quizzer "
                f"understands ({SCHEMA_VERSION})",
                hint="upgrade quizzer",
                path=self.path,
            )
        if doc is not None and version < SCHEMA_VERSION:
            # Handed over, with nothing else holding it: the old states go as new ones come.
            held, doc, snapshot = [doc], None, Snapshot(None, None, None)
            doc = self._upgrade(held, version)
        self.state = State.from_document(doc, self.path, snapshot.lazy) if doc else State()
        self.state.source = self.path
        offset = int(doc["meta"]["1"].get("journal_offset", 0)) if doc else 0
        if doc is None:
            if (
                journal.generation(self.journal_path) > 0
                or self.backup_path.exists()
                or log_months(self.path)
            ):
                # Compacted before: the journal holds only the last session, and a snapshot
                # rebuilt from it alone would forget every other card's state.
                raise StoreError(
                    "the progress snapshot is missing (its journal and review log are here)",
                    hint=f"run `quizzer doctor --db {self.path}` to rebuild it from the backup",
                    path=self.path,
                )
            if not self.read_only and not size_of(self.journal_path):
                # A new store: its journal starts with a header (generation 0), so that a
                # crash before the first compaction's journal leaves one that is provably old.
                journal.start_new(self.journal_path, 0)
            self.state.gen = journal.generation(self.journal_path)  # a v2 journal: replay it all
        standing = generations.standing(self.path, self.state.gen)
        jgen = standing.jgen
        #: The journal is of an older generation: already absorbed by the snapshot.
        self.stale_journal = standing.stale
        result = journal.ReadResult([], 0, b"")
        if not self.stale_journal:
            size = self.journal_path.stat().st_size if self.journal_path.exists() else 0
            if size < offset:
                raise StoreError(
                    f"the journal is shorter ({size} bytes) than the snapshot says ({offset})",
                    hint=f"run `quizzer doctor --db {self.path}`",
                    path=self.journal_path,
                )
            # The mark first: a writer appends, then marks, so a reader never sees it ahead.
            mark = self._lock.previous_mark if self._lock else read_mark(lock_path(self.path))
            try:
                result = journal.read(self.journal_path, offset)
            except JournalDamage as exc:
                raise journal_damage_error(self.path, exc.line) from exc
            if mark is not None and mark[0] == jgen and result.end < mark[1] - 1:  # 1: a newline
                raise StoreError(
                    f"the journal ends at byte {result.end}, but its writer had saved answers "
                    f"up to byte {mark[1]}: answers are missing",
                    hint=f"run `quizzer doctor --db {self.path}`",
                    path=self.journal_path,
                )
        for event in result.events:
            problem = event_problem(event)
            if problem:  # its checksum verifies, its values don't: damage, not a crash
                raise StoreError(
                    f"the journal is damaged ({problem})",
                    hint=f"run `quizzer doctor --db {self.path}` (a copy is kept)",
                    path=self.journal_path,
                )
            self.state.apply(event)
        self.torn_bytes = len(result.torn)
        self.replayed = sum(1 for e in result.events if e.get("op") != "header")
        has_header = journal.header(self.journal_path) is not None
        self._header_end = len(journal.encode(journal.header_event(jgen))) if has_header else 0
        if self.read_only:
            return
        if result.torn:
            # Keep the cut-short line for forensics before the writer truncates it.
            torn = self.journal_path.with_name(self.journal_path.name + ".torn")
            with open(torn, "ab") as fh:
                fh.write(result.torn + b"\n")
        if self.state.created is None:
            self.state.created = datetime.now(UTC).isoformat()
        self._remove_stale_temp_files()
        if self.stale_journal:
            # A compaction was cut short after its snapshot: finish it (new journal).
            self._start_journal()
        else:
            self._writer = JournalWriter(self.journal_path, result.end)
            self._mark()
        if doc is None or self.replayed > COMPACT_AFTER:
            self.compact()
        elif snapshot.lazy is None and snapshot.raw is not None and version == SCHEMA_VERSION:
            cardindex.write_for(self.path, snapshot.raw, doc)  # none fitted: read it fast next time

    def _upgrade(self, held: list[dict[str, Any]], version: int) -> dict[str, Any]:
        """The snapshot of an older schema ``version`` (the one item of ``held``, handed
        over) brought up to this one. An open store's own class knows how
        (:class:`~quizzer.progress.store.Store` migrates); this one refuses."""
        raise StoreError(
            f"progress store has the old schema version {version}",
            hint=f"run `quizzer doctor --db {self.path}` (or start `quizzer` once) to "
            "migrate it; the old file is kept as a backup",
            path=self.path,
        )

    def _before_compaction(self) -> bool:
        """Called before a compaction rewrites the files; ``True`` asks for
        :meth:`_after_compaction` once it is done. The store's class keeps the caches tied to
        those files here (:class:`~quizzer.progress.store.Store`); this one has none."""
        return False

    def _after_compaction(self) -> None:
        """Called after a compaction when :meth:`_before_compaction` asked for it."""

    def _start_journal(self) -> None:
        """Begin a journal of the state's generation, keeping the old one as ``.journal.prev``."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self.journal_path.exists():
            keep_link(self.journal_path, previous_journal_path(self.path))
        self._header_end = journal.start_new(self.journal_path, self.state.gen)
        self._writer = JournalWriter(self.journal_path, self._header_end)
        self._mark()

    def _mark(self) -> None:
        """Leave the journal's acknowledged end in the lock file (see :meth:`StoreLock.mark`)."""
        if self._lock is not None and self._writer is not None:
            self._lock.mark(journal.generation(self.journal_path), self._writer.end)

    def _remove_stale_temp_files(self) -> None:
        """Temp files of a write cut short by a crash (we hold the lock: none is in use)."""
        for leftover in own_temp_files(self.path):
            with contextlib.suppress(OSError):
                leftover.unlink()

    def compact(self) -> None:
        """Fold the journal into the month files and a new snapshot, then start a new journal.

        Each file is written atomically; the old snapshot becomes ``P.bak`` and the old
        journal ``P.journal.prev``.
        """
        with self._mutex:
            self._compact()

    def _compact(self) -> None:
        self._check_writable()
        assert self._writer is not None
        if self._lock is not None:
            self._lock.verify()
        caches = self._before_compaction()
        # 1. The journal's answers into their month files (idempotent: keyed by review id).
        compaction.fold_journal(self.path, self.state)
        # 2. The snapshot of the next generation: from here on the journal counts as absorbed.
        compaction.write_snapshot(self.path, self.state, self._storage)
        # 3. A new journal. Until it exists nothing may be appended to the old one (the next
        # open would skip it), so a failure here ends writing through this Store.
        try:
            self._start_journal()
        except OSError as exc:
            if self._writer is not None:
                self._writer.close()
            self._writer = None
            self._stopped = "a failed compaction"
            raise StoreError(
                f"can't start a new journal: {exc.strerror or exc}",
                hint="close and reopen the store (every answer so far is saved)",
                path=self.journal_path,
            ) from exc
        if caches:
            self._after_compaction()

    def close(self) -> None:
        """Compact if anything was recorded, then release the lock. Safe to call twice."""
        if self._closed:
            return
        try:
            if self._writer is not None and self._writer.end > self._header_end:
                self.compact()
        finally:
            self._release()
            self._closed = True

    def _release(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        _exc_type: type[BaseException] | None,
        _exc: BaseException | None,
        _tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_writable(self) -> None:
        if self._closed:
            raise StoreError("the progress store is closed", path=self.path)
        if self._stopped:
            raise StoreError(
                f"the progress store stopped writing after {self._stopped}",
                hint="close and reopen it (every answer so far is saved)",
                path=self.path,
            )
        if self.read_only or self._writer is None:
            raise StoreError("the progress store is open read-only", path=self.path)

    def _append(self, event: Change, fold: Callable[[], object] = lambda: None) -> None:
        """Write an event, fold it into memory (then ``fold``), flush it: durable on return.

        A failed write changes nothing. Folding before the flush does an answer's work in one
        stretch before the wait for the disk (woken from it, a process runs several times
        slower for a while). A failed flush stops writing: the file decides the event's fate.
        """
        self._check_writable()
        writer = self._writer
        assert writer is not None
        if self._lock is not None:
            self._lock.verify()
        event["seq"] = self.state.seq + 1
        try:
            writer.append_nosync(event)
        except OSError as exc:
            raise StoreError(
                f"can't write the journal: {exc.strerror}",
                hint="check free disk space and permissions",
                path=self.journal_path,
            ) from exc
        try:
            self.state.apply(event)
            fold()
        finally:
            try:
                writer.sync()
            except OSError as exc:
                writer.close()
                self._writer, self._stopped = None, "a failed flush of its journal"
                raise StoreError(
                    f"can't save the journal to disk: {exc.strerror or exc}",
                    hint="close and reopen the store (every answer before this one is saved)",
                    path=self.journal_path,
                ) from exc
        if self._lock is not None:
            self._lock.mark(self.state.gen, writer.end)
