"""The progress store: card states, the full review log and settings, safe against crashes.

Files next to the store path ``P`` (default ``progress.json``):

``P``
    the snapshot, a TinyDB document (tables ``meta``, ``settings``, ``cards``)
    written only atomically (see :mod:`quizzer.progress.snapshot`). ``meta.gen``
    is the journal generation whose events it has absorbed up to
    ``meta.journal_offset``.
``P.log/YYYY-MM.json``
    the full review log, one TinyDB database per calendar month (UTC), table
    ``reviews`` (see :mod:`quizzer.progress.reviewlog`); written only by compaction.
``P.journal``
    the append-only journal (see :mod:`quizzer.progress.journal`): a header line
    naming its generation, then every answer, bury, undo and settings change since
    the last compaction, one fsynced line each.
``P.bak``, ``P.journal.prev``
    the previous snapshot and the previous journal generation (hard links).
``P.lock``
    held while a process writes the store; names that process.

Recording an answer appends one line and fsyncs it — no rewrite of anything,
so its cost doesn't grow with the collection. Compaction (on close, or on
open when the tail is long) runs in this order, each file written atomically:

1. fold the journal's answers (minus undone ones) into the month files they
   belong to, keyed by review id — idempotent, so redoing it changes nothing;
2. write the snapshot with the next generation (it now absorbs the journal);
3. start a new journal holding only the header of that generation.

A kill between 1 and 2 leaves the old snapshot and journal (the answers are in
both the months and the journal; reading the log dedupes by id). A kill
between 2 and 3 leaves a journal of an older generation than the snapshot:
opening recognises it as absorbed and skips it.

The code is split by what it holds: :mod:`quizzer.progress.files` (file names),
:mod:`quizzer.progress.state` (the in-memory :class:`~quizzer.progress.state.State` and
how journal events change it), :mod:`quizzer.progress.outcomes` (:class:`Bury`,
:class:`RecordOutcome`), :mod:`quizzer.progress.history` (reading the review log);
this module holds :class:`Store` and :func:`open_store`.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import threading
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from types import TracebackType
from typing import Any

from tinydb import TinyDB

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.deck import Deck
from quizzer.errors import StoreError
from quizzer.paths import default_db_path
from quizzer.progress import journal, migrate, reviewlog
from quizzer.progress.files import (
    READ_ATTEMPTS,
    backup_path,
    busy_error,
    files_signature,
    journal_damage_error,
    journal_path,
    lock_path,
    log_dir,
    previous_journal_path,
)
from quizzer.progress.history import ReviewLogStorage, read_log
from quizzer.progress.journal import JournalDamage, JournalWriter
from quizzer.progress.localtz import LocalTimezone
from quizzer.progress.lock import StoreLock
from quizzer.progress.outcomes import Bury, RecordOutcome
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State, full_state, slim_state
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.answer import Answer, answered_review, review_id
from quizzer.scheduling.review import Grade, Review
from quizzer.scheduling.scheduler import CardState, DueQueue, SchedulerSettings, TodayCounts

#: The snapshot layout this code writes (see :mod:`quizzer.progress.migrate` for older ones).
SCHEMA_VERSION = migrate.SCHEMA_VERSION
#: Replaying more journal events than this on open triggers a compaction.
COMPACT_AFTER = 2000


def _key(card: CardKey | str) -> CardKey:
    return card if isinstance(card, CardKey) else CardKey.parse(card)


class Store:
    """An open progress store. Use :func:`open_store`; close it (or use ``with``).

    ``tz`` is the learner's time zone for study days (default: the system's
    local zone, DST-aware); ``rng`` draws interval fuzz.
    """

    def __init__(
        self,
        path: Path,
        *,
        read_only: bool = False,
        tz: tzinfo | None = None,
        rng: random.Random | None = None,
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
        self._reviews: dict[str, Review] | None = None
        self._reviews_last: datetime | None = None
        self._header_end = 0
        #: What the latest :meth:`record` / :meth:`record_outcome` did (``None`` before any).
        self.last_outcome: RecordOutcome | None = None
        self._stopped = False
        self._closed = False
        self._mutex = threading.RLock()
        try:
            if not read_only:
                self._lock = StoreLock(lock_path(self.path), self.path)
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
                f"progress store is damaged (unexpected content: {exc!r:.120})",
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
        doc = self._storage.read()
        if doc is None and not self.read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        version = migrate.schema_of(doc) if doc is not None else SCHEMA_VERSION
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"progress store has schema version {version}, newer than this quizzer "
                f"understands ({SCHEMA_VERSION})",
                hint="upgrade quizzer",
                path=self.path,
            )
        if doc is not None and version < SCHEMA_VERSION:
            if self.read_only:
                raise StoreError(
                    f"progress store has the old schema version {version}",
                    hint=f"run `quizzer doctor --db {self.path}` (or start `quizzer` once) to "
                    "migrate it; the old file is kept as a backup",
                    path=self.path,
                )
            doc = migrate.migrate(self.path, doc, version)
        self.state = State.from_document(doc, self.path) if doc else State()
        self.state.source = self.path
        offset = int(doc["meta"]["1"].get("journal_offset", 0)) if doc else 0
        jgen = journal.generation(self.journal_path)
        if doc is None:
            if jgen > 0 or self.backup_path.exists() or reviewlog.months(self.path):
                # Compacted before: the journal holds only the last session, and a snapshot
                # rebuilt from it alone would forget every other card's state.
                raise StoreError(
                    "the progress snapshot is missing (its journal and review log are here)",
                    hint=f"run `quizzer doctor --db {self.path}` to rebuild it from the backup",
                    path=self.path,
                )
            self.state.gen = jgen  # a version-2 journal without its snapshot: replay it all
        if jgen > self.state.gen:
            raise StoreError(
                f"the journal (generation {jgen}) is newer than the snapshot "
                f"(generation {self.state.gen})",
                hint=f"run `quizzer doctor --db {self.path}`",
                path=self.journal_path,
            )
        #: The journal is of an older generation: already absorbed by the snapshot.
        self.stale_journal = jgen < self.state.gen
        result = journal.ReadResult([], 0, b"")
        if not self.stale_journal:
            size = self.journal_path.stat().st_size if self.journal_path.exists() else 0
            if size < offset:
                raise StoreError(
                    f"the journal is shorter ({size} bytes) than the snapshot says ({offset})",
                    hint=f"run `quizzer doctor --db {self.path}`",
                    path=self.journal_path,
                )
            try:
                result = journal.read(self.journal_path, offset)
            except JournalDamage as exc:
                raise journal_damage_error(self.path, exc.line) from exc
        for event in result.events:
            self.state.apply(event)
        self.torn_bytes = len(result.torn)
        self.replayed = sum(1 for e in result.events if e.get("op") != "header")
        self._header_end = len(journal.encode(journal.header_event(jgen))) if jgen else 0
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
        if doc is None or self.replayed > COMPACT_AFTER:
            self.compact()

    def _start_journal(self) -> None:
        """Begin a journal of the state's generation, keeping the old one as ``.journal.prev``."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self.journal_path.exists():
            reviewlog.keep_link(self.journal_path, previous_journal_path(self.path))
        self._header_end = journal.start_new(self.journal_path, self.state.gen)
        self._writer = JournalWriter(self.journal_path, self._header_end)

    def _remove_stale_temp_files(self) -> None:
        """Temp files of a compaction cut short by a crash (we hold the lock: none is in use)."""
        prev = previous_journal_path(self.path)
        patterns = (
            f".{self.path.name}.*.tmp",
            f"{self.backup_path.name}.*.tmp",
            f"{prev.name}.*.tmp",
        )
        leftovers = [p for pattern in patterns for p in self.path.parent.glob(pattern)]
        directory = log_dir(self.path)
        if directory.is_dir():
            leftovers += directory.glob(".*.tmp")
            leftovers += directory.glob("*.bak.*.tmp")
        for leftover in leftovers:
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
        try:
            # 1. The journal's answers into their month files (idempotent: keyed by review id).
            events = (event for _, event in journal.scan(self.journal_path, 0))
            reviewlog.Fold().add_events(events).write(self.path)
        except JournalDamage as exc:
            raise journal_damage_error(self.path, exc.line) from exc
        except OSError as exc:
            raise StoreError(
                f"can't write the review log: {exc.strerror or exc}",
                hint="check free disk space; every answer is safe in the journal meanwhile",
                path=exc.filename or log_dir(self.path),
            ) from exc
        # 2. The snapshot of the next generation: from here on the journal counts as absorbed.
        self.state.gen += 1
        doc = self.state.to_document(0)
        try:
            if self.path.exists():
                self._keep_backup()
            self._storage.write(doc)
        except OSError as exc:
            self.state.gen -= 1
            raise StoreError(
                f"can't write the progress snapshot: {exc.strerror or exc}",
                hint="check free disk space; every answer is safe in the journal meanwhile",
                path=self.path,
            ) from exc
        # 3. A new journal. Until it exists nothing may be appended to the old one (the next
        # open would skip it), so a failure here ends writing through this Store.
        try:
            self._start_journal()
        except OSError as exc:
            if self._writer is not None:
                self._writer.close()
            self._writer = None
            self._stopped = True
            raise StoreError(
                f"can't start a new journal: {exc.strerror or exc}",
                hint="close and reopen the store (every answer so far is saved)",
                path=self.journal_path,
            ) from exc

    def _keep_backup(self) -> None:
        """Make the current snapshot ``P.bak``: a hard link (no copy), else a copy; atomically."""
        reviewlog.keep_link(self.path, self.backup_path)

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

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_writable(self) -> None:
        if self._closed:
            raise StoreError("the progress store is closed", path=self.path)
        if self._stopped:
            raise StoreError(
                "the progress store stopped writing after a failed compaction",
                hint="close and reopen it (every answer so far is saved)",
                path=self.path,
            )
        if self.read_only or self._writer is None:
            raise StoreError("the progress store is open read-only", path=self.path)

    def _append(self, event: dict[str, Any]) -> None:
        """Write an event durably, then fold it into memory (so a failed write changes nothing)."""
        self._check_writable()
        assert self._writer is not None
        event["seq"] = self.state.seq + 1
        try:
            self._writer.append(event)
        except OSError as exc:
            raise StoreError(
                f"can't write the journal: {exc.strerror}",
                hint="check free disk space and permissions",
                path=self.journal_path,
            ) from exc
        self.state.apply(event)

    # -- reading -----------------------------------------------------------------------

    @property
    def settings(self) -> SchedulerSettings:
        """The scheduling settings stored with this progress."""
        return self.state.settings

    def set_settings(self, settings: SchedulerSettings) -> None:
        """Change the scheduling settings (durably, like an answer)."""
        with self._mutex:
            self._append({"op": "settings", "settings": settings.to_dict()})

    def tz_at(self, now: datetime) -> tzinfo:
        """The time zone study days are counted in (kept for callers that pass a moment)."""
        return self.tz

    def card(self, card: CardKey | str) -> CardState | None:
        """A card's state (a copy), ``None`` if it was never studied."""
        st = self.state.get(_key(card).id)
        return st.copy() if st else None

    def cards(self) -> Iterator[CardState]:
        """Every studied card's state (copies)."""
        for card_id in list(self.state.raw):
            st = self.state.get(card_id)
            if st is not None:
                yield st.copy()

    def __len__(self) -> int:
        return len(self.state.raw)

    def today(self, deck: str, now: datetime) -> TodayCounts:
        """Answers given in ``deck`` during the study day of ``now``."""
        answers = ((r[1], datetime.fromisoformat(r[2]), r[3]) for r in self.state.recent)
        return scheduling.count_today(answers, deck, now, self.tz_at(now), self.settings)

    def due_cards(self, deck: Deck, pairs: Iterable[Pair], now: datetime) -> DueQueue:
        """What to study now in ``deck`` for the given directions, honouring limits and burying.

        Cards exist for every concept that has both texts of a pair, and they differ
        (:func:`quizzer.cards.card.has_card`); those never studied count as new.
        """
        pairs = list(pairs)
        candidates = [
            CardKey(concept.uid, pair)
            for concept in deck.concepts
            for pair in pairs
            if has_card(concept, pair)
        ]
        states: dict[str, CardState] = {}
        for key in candidates:
            st = self.state.get(key.id)
            if st is not None:
                states[key.id] = st
        # Cards answered lately in any pair: today's ones bury their siblings.
        for entry in self.state.recent:
            if entry[1] not in states:
                st = self.state.get(entry[1])
                if st is not None:
                    states[entry[1]] = st
        return scheduling.due_queue(
            candidates, states, now, self.tz_at(now), self.settings, self.today(deck.id, now)
        )

    def preview(self, card: CardKey | str, now: datetime) -> dict[int, timedelta]:
        """The interval each grade 1-4 would give ``card`` at ``now`` (no fuzz)."""
        key = _key(card)
        st = self.state.get(key.id) or CardState.new(key, now)
        return scheduling.preview(st, now, self.settings)

    def reviews(self, card: CardKey | str | None = None) -> list[Review]:
        """The review log, oldest first (undone answers removed); only ``card``'s if given.

        The first call reads the month files of the log and the journal since the
        last compaction; later calls are served from memory.
        """
        with self._mutex:
            if self._reviews is None:
                self._reviews = read_log(self.path, self.state.gen)
                self._reviews_last = max(
                    (r.reviewed_at for r in self._reviews.values()), default=None
                )
            elif self._reviews_last is None:
                # An answer recorded out of time order: sort again.
                ordered = sorted(self._reviews.values(), key=lambda r: r.reviewed_at)
                self._reviews = {r.id: r for r in ordered}
                self._reviews_last = ordered[-1].reviewed_at if ordered else None
            if card is None:
                return list(self._reviews.values())
            card_id = _key(card).id
            return [r for r in self._reviews.values() if r.card_id == card_id]

    def reviews_db(self) -> TinyDB:
        """The review log as a read-only TinyDB database (table ``reviews``), for queries::

        from tinydb import Query
        store.reviews_db().table("reviews").search(Query().grade == 1)
        """
        log = self.reviews()
        return TinyDB(storage=ReviewLogStorage, reviews=[r.to_dict() for r in log])

    @property
    def undo_depth(self) -> int:
        """How many answers and buries :meth:`undo` can still take back."""
        return len(self.state.undo)

    # -- writing -----------------------------------------------------------------------

    def record(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None = None
    ) -> Review:
        """Schedule ``card`` by the answer ``grade`` (1-4) and log it; durable when it returns.

        Returns the logged :class:`Review`; :attr:`last_outcome` (or
        :meth:`record_outcome`) also says whether the answer made the card a leech.
        """
        return self.record_outcome(card, grade, now, answer).review

    def record_outcome(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None = None
    ) -> RecordOutcome:
        """Like :meth:`record`, returning a :class:`RecordOutcome` (review, new state, leech)."""
        key = _key(card)
        if now.tzinfo is None:
            raise ValueError("now must be a timezone-aware datetime (UTC)")
        now = now.astimezone(UTC)
        with self._mutex:
            outcome = self._record(key, grade, now, answer or Answer())
            self.last_outcome = outcome
            return outcome

    def _record(self, key: CardKey, grade: Grade, now: datetime, answer: Answer) -> RecordOutcome:
        before = self.state.get(key.id)
        outcome = scheduling.answer(
            before or CardState.new(key, now), grade, now, self.settings, self.rng
        )
        new = outcome.state
        # A random salt: two processes may answer the same card in the same millisecond.
        rid = review_id(key.id, now, secrets.token_hex(4))
        review = answered_review(rid, key.id, grade, now, answer, outcome)
        review_dict = review.to_dict()
        self._append({"op": "record", "review": review_dict, "card": slim_state(new.to_dict())})
        self.state.objs[key.id] = new
        if self._reviews is not None:
            self._reviews[review.id] = review
            if self._reviews_last is not None and review.reviewed_at < self._reviews_last:
                self._reviews_last = None  # out of order: sort on the next read
            else:
                self._reviews_last = review.reviewed_at
        return RecordOutcome(
            review=review,
            state=new.copy(),
            leech=outcome.became_leech,
            suspended=outcome.became_leech and new.suspended,
        )

    def undo(self) -> Review | Bury | None:
        """Take back the last answer or bury: restore the card's state (and remove the log entry).

        Returns the removed review, or the :class:`Bury` taken back (``None`` when
        there is nothing to undo).
        """
        with self._mutex:
            return self._undo()

    def _undo(self) -> Review | Bury | None:
        self._check_writable()
        if not self.state.undo:
            return None
        top = self.state.undo[-1]
        if "bury_id" in top:
            self._append(
                {
                    "op": "unbury",
                    "bury_id": top["bury_id"],
                    "card_id": top["card_id"],
                    "restore": top["before"],
                }
            )
            return Bury.from_dict(top["bury"])
        reviews = self._reviews
        removed = Review.from_dict(top["review"])
        self._append(
            {
                "op": "undo",
                "review_id": top["review_id"],
                "card_id": top["card_id"],
                "restore": top["before"],
                # Which month file holds it, if it was already folded into the log.
                "at": top["review"]["reviewed_at"],
            }
        )
        if reviews is not None:
            reviews.pop(top["review_id"], None)
        return removed

    def bury(self, card: CardKey | str, now: datetime) -> Bury:
        """Hide ``card`` until the next study day starts (``day_start_hour`` in ``tz``).

        Durable like an answer (one fsynced journal line) and on the same undo
        stack: :meth:`undo` brings the card back. Answering the card clears the
        bury; a card never studied gets a new-card state that carries it.
        """
        key = _key(card)
        if now.tzinfo is None:
            raise ValueError("now must be a timezone-aware datetime (UTC)")
        now = now.astimezone(UTC)
        until = scheduling.bury_until(now, self.tz_at(now), self.settings)
        bury = Bury(
            id=review_id(key.id, now, secrets.token_hex(4)),
            card_id=key.id,
            buried_at=now,
            until=until,
        )
        with self._mutex:
            self._append({"op": "bury", "bury": bury.to_dict()})
        return bury

    def set_suspended(self, card: CardKey | str, suspended: bool, now: datetime) -> CardState:
        """Suspend a card (never due) or bring it back; clears its leech flag when resumed."""
        key = _key(card)
        st = (self.state.get(key.id) or CardState.new(key, now)).copy()
        st.suspended = suspended
        if not suspended:
            st.leech = False
        with self._mutex:
            self._append({"op": "state", "card_id": key.id, "state": st.to_dict()})
        return st


def open_store(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = False,
    tz: tzinfo | None = None,
    rng: random.Random | None = None,
) -> Store:
    """Open (creating if needed) the progress store.

    ``path`` defaults to ``$QUIZZER_DB`` or the platform's user data dir. A
    second writer gets a :class:`StoreError` naming the process holding the
    store; ``read_only=True`` opens without the lock and never writes.
    """
    return Store(default_db_path(path), read_only=read_only, tz=tz, rng=rng)


# State, full_state, journal_path, log_dir and slim_state live in quizzer.progress.state and
# quizzer.progress.files; quizzer.cli.stats_cmd and benchmarks/answer_latency.py import them
# from here.
__all__ = [
    "SCHEMA_VERSION",
    "State",
    "Store",
    "full_state",
    "journal_path",
    "log_dir",
    "open_store",
    "slim_state",
]
