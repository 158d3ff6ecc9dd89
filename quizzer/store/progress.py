"""The progress store: card states, the full review log and settings, safe against crashes.

Files next to the store path ``P`` (default ``progress.json``):

``P``
    the snapshot, a TinyDB document (tables ``meta``, ``settings``, ``cards``)
    written only atomically (see :mod:`quizzer.store.snapshot`).
``P.journal``
    the append-only journal (see :mod:`quizzer.store.journal`): every answer,
    undo and settings change since the store was created, one fsynced line
    each. It *is* the review log; the snapshot records up to which byte it
    is already folded in, so opening replays only the tail.
``P.bak``
    the previous snapshot, kept at each compaction (a hard link, no copy).
``P.lock``
    held while a process writes the store; names that process.

Recording an answer appends one line and fsyncs it — no rewrite of anything,
so its cost doesn't grow with the collection. Compaction (on close, or on
open when the tail is long) rewrites the snapshot atomically.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import threading
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from types import TracebackType
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from quizzer.core import scheduling
from quizzer.core.cards import CardKey, Pair
from quizzer.core.deck import Deck
from quizzer.core.errors import StoreError
from quizzer.core.review import CardPhase, Grade, Mode, Review
from quizzer.core.scheduling import CardState, DueQueue, SchedulerSettings, TodayCounts
from quizzer.paths import default_db_path
from quizzer.store import journal, migrate
from quizzer.store.journal import JournalDamage, JournalWriter
from quizzer.store.localtz import LocalTimezone
from quizzer.store.lock import StoreLock
from quizzer.store.snapshot import AtomicJSONStorage

#: The snapshot layout this code writes (see :mod:`quizzer.store.migrate` for older ones).
SCHEMA_VERSION = migrate.SCHEMA_VERSION
#: How many answers back :meth:`Store.undo` can go.
UNDO_DEPTH = 50
#: Replaying more journal events than this on open triggers a compaction.
COMPACT_AFTER = 2000
#: Answers kept in the snapshot for today's counts (older ones can't be "today").
_RECENT_DAYS = 3


def journal_path(path: Path) -> Path:
    """The journal file of the store at ``path``."""
    return path.with_name(path.name + ".journal")


def backup_path(path: Path) -> Path:
    """The previous snapshot of the store at ``path``."""
    return path.with_name(path.name + ".bak")


def lock_path(path: Path) -> Path:
    """The lock file of the store at ``path``."""
    return path.with_name(path.name + ".lock")


#: State fields a record event doesn't repeat: the review holds them (or they are derived).
_FROM_REVIEW = ("card_id", "due", "stability", "difficulty", "last_review", "first_review")
#: Flags written only when set, to keep journal lines short.
_FLAGS = ("leech", "flagged", "suspended", "buried_until")


def slim_state(state: dict[str, Any]) -> dict[str, Any]:
    """The part of a card state after an answer that its review doesn't already say."""
    return {
        k: v
        for k, v in state.items()
        if k not in _FROM_REVIEW and not (k in _FLAGS and v in (False, None))
    }


def full_state(
    slim: dict[str, Any], review: dict[str, Any], before: dict[str, Any] | None
) -> dict[str, Any]:
    """Inverse of :func:`slim_state`, given the review and the card's previous state."""
    return {
        "card_id": review["card_id"],
        "state": slim["state"],
        "step": slim.get("step"),
        "stability": review["stability"],
        "difficulty": review["difficulty"],
        "due": review["due"],
        "last_review": review["reviewed_at"],
        "reps": slim.get("reps", 1),
        "lapses": slim.get("lapses", 0),
        "leech": slim.get("leech", False),
        "flagged": slim.get("flagged", False),
        "suspended": slim.get("suspended", False),
        "buried_until": slim.get("buried_until"),
        "first_review": (before or {}).get("first_review") or review["reviewed_at"],
    }


def _key(card: CardKey | str) -> CardKey:
    return card if isinstance(card, CardKey) else CardKey.parse(card)


class State:
    """The in-memory image of a store: what the snapshot plus the journal tail say.

    Shared by :class:`Store` (open) and the doctor (rebuild from the whole journal).
    Card states are kept as dicts and turned into :class:`CardState` on first use,
    so opening 100k cards costs one JSON parse, not 100k object constructions.
    """

    def __init__(self) -> None:
        self.raw: dict[str, dict[str, Any]] = {}
        self.objs: dict[str, CardState] = {}
        self.settings = SchedulerSettings()
        self.undo: list[dict[str, Any]] = []
        self.recent: list[list[Any]] = []
        self.seq = 0
        self.created: str | None = None

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> State:
        """Load a current-schema snapshot document."""
        st = cls()
        meta = doc.get("meta", {}).get("1", {})
        st.undo = list(meta.get("undo", []))
        st.recent = [list(r) for r in meta.get("recent", [])]
        st.seq = int(meta.get("seq", 0))
        st.created = meta.get("created")
        settings = doc.get("settings", {}).get("1")
        if settings:
            st.settings = SchedulerSettings.from_dict(settings)
        st.raw = {d["card_id"]: d for d in doc.get("cards", {}).values()}
        return st

    def to_document(self, journal_offset: int) -> dict[str, Any]:
        """The snapshot document for this state, folded up to ``journal_offset``."""
        if self.recent:
            latest = max(datetime.fromisoformat(r[2]) for r in self.recent)
            horizon = (latest - timedelta(days=_RECENT_DAYS)).isoformat()
            self.recent = [r for r in self.recent if r[2] >= horizon]
        meta = {
            "schema": SCHEMA_VERSION,
            "journal_offset": journal_offset,
            "seq": self.seq,
            "created": self.created,
            "undo": self.undo,
            "recent": self.recent,
        }
        cards = {str(CardKey.parse(cid).int_id): d for cid, d in self.raw.items()}
        return {"meta": {"1": meta}, "settings": {"1": self.settings.to_dict()}, "cards": cards}

    def get(self, card_id: str) -> CardState | None:
        """The state of one card, ``None`` if never studied."""
        obj = self.objs.get(card_id)
        if obj is None:
            data = self.raw.get(card_id)
            if data is None:
                return None
            obj = self.objs[card_id] = CardState.from_dict(data)
        return obj

    def put(self, card_id: str, data: dict[str, Any] | None, obj: CardState | None = None) -> None:
        """Set (or, with ``None``, forget) a card's state."""
        self.objs.pop(card_id, None)
        if data is None:
            self.raw.pop(card_id, None)
            return
        self.raw[card_id] = data
        if obj is not None:
            self.objs[card_id] = obj

    def apply(self, event: dict[str, Any]) -> None:
        """Fold one journal event in (the same code runs live and on replay)."""
        op = event.get("op")
        self.seq = max(self.seq, int(event.get("seq", 0)))
        if op == "record":
            review = event["review"]
            card_id = review["card_id"]
            before = self.raw.get(card_id)
            self.put(card_id, full_state(event["card"], review, before))
            self.undo.append(
                {"review_id": review["id"], "card_id": card_id, "before": before, "review": review}
            )
            del self.undo[:-UNDO_DEPTH]
            self.recent.append([review["id"], card_id, review["reviewed_at"], review["phase"]])
        elif op == "undo":
            self.put(event["card_id"], event.get("restore"))
            if self.undo and self.undo[-1]["review_id"] == event["review_id"]:
                self.undo.pop()
            self.recent = [r for r in self.recent if r[0] != event["review_id"]]
        elif op == "settings":
            self.settings = SchedulerSettings.from_dict(event["settings"])
        elif op == "state":
            self.put(event["card_id"], event["state"])
        elif op in ("review", "header"):
            pass  # imported history / file header: no state to change
        else:
            raise ValueError(f"unknown journal event {op!r}")


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
                    hint="open it once without read-only so it is migrated (a backup is kept)",
                    path=self.path,
                )
            doc = migrate.migrate(self.path, doc, version)
        self.state = State.from_document(doc) if doc else State()
        offset = int(doc["meta"]["1"].get("journal_offset", 0)) if doc else 0
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
            raise StoreError(
                f"the journal is damaged at line {exc.line}",
                hint=f"run `quizzer doctor --db {self.path}` to repair it (a copy is kept)",
                path=self.journal_path,
                line=exc.line,
            ) from exc
        for event in result.events:
            self.state.apply(event)
        self.torn_bytes = len(result.torn)
        self.replayed = len(result.events)
        self._snapshot_offset = offset
        self._end = result.end
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
        self._writer = JournalWriter(self.journal_path, result.end)
        if doc is None or self.replayed > COMPACT_AFTER:
            self.compact()

    def _remove_stale_temp_files(self) -> None:
        """Temp files of a compaction cut short by a crash (we hold the lock: none is in use)."""
        patterns = (f".{self.path.name}.*.tmp", f"{self.backup_path.name}.*.tmp")
        for pattern in patterns:
            for leftover in self.path.parent.glob(pattern):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def compact(self) -> None:
        """Fold the journal tail into a new snapshot (atomic; the old one becomes ``P.bak``)."""
        with self._mutex:
            self._compact()

    def _compact(self) -> None:
        self._check_writable()
        assert self._writer is not None
        end = self._writer.end
        doc = self.state.to_document(end)
        try:
            if self.path.exists():
                self._keep_backup()
            self._storage.write(doc)
        except OSError as exc:
            raise StoreError(
                f"can't write the progress snapshot: {exc.strerror or exc}",
                hint="check free disk space; every answer is safe in the journal meanwhile",
                path=self.path,
            ) from exc
        self._snapshot_offset = end

    def _keep_backup(self) -> None:
        """Make the current snapshot ``P.bak``: a hard link (no copy), else a copy; atomically."""
        tmp = self.backup_path.with_name(self.backup_path.name + f".{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        try:
            os.link(self.path, tmp)
        except OSError:  # a file system without hard links
            shutil.copyfile(self.path, tmp)
        os.replace(tmp, self.backup_path)

    def close(self) -> None:
        """Compact if anything was recorded, then release the lock. Safe to call twice."""
        if self._closed:
            return
        try:
            if self._writer is not None and self._writer.end != self._snapshot_offset:
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

        Cards exist for every concept that has both texts of a pair; those never
        studied count as new.
        """
        pairs = list(pairs)
        candidates = [
            CardKey(concept.uid, pair)
            for concept in deck.concepts
            for pair in pairs
            if concept.text(pair.prompt_lang, pair.prompt_side)
            and concept.text(pair.answer_lang, pair.answer_side)
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

        The first call reads the whole journal (about 2 s per million answers);
        later calls are served from memory.
        """
        with self._mutex:
            if self._reviews is None:
                self._reviews = read_reviews(self.journal_path)
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
        """How many answers :meth:`undo` can still take back."""
        return len(self.state.undo)

    # -- writing -----------------------------------------------------------------------

    def record(
        self,
        card: CardKey | str,
        grade: Grade,
        now: datetime,
        *,
        mode: Mode = "flip",
        duration_ms: int = 0,
        typed: str | None = None,
        correct: bool | None = None,
        overridden: bool = False,
    ) -> Review:
        """Schedule ``card`` by the answer ``grade`` (1-4) and log it; durable when it returns."""
        key = _key(card)
        if now.tzinfo is None:
            raise ValueError("now must be a timezone-aware datetime (UTC)")
        now = now.astimezone(UTC)
        with self._mutex:
            return self._record(key, grade, now, mode, duration_ms, typed, correct, overridden)

    def _record(
        self,
        key: CardKey,
        grade: Grade,
        now: datetime,
        mode: Mode,
        duration_ms: int,
        typed: str | None,
        correct: bool | None,
        overridden: bool,
    ) -> Review:
        before = self.state.get(key.id)
        outcome = scheduling.answer(
            before or CardState.new(key, now), grade, now, self.settings, self.rng
        )
        new = outcome.state
        review = Review(
            id=f"{int(now.timestamp() * 1000):013d}-{secrets.token_hex(4)}",
            card_id=key.id,
            reviewed_at=now,
            grade=grade,
            mode=mode,
            duration_ms=int(duration_ms),
            phase=outcome.phase,
            last_interval_days=round(outcome.last_interval_days, 6),
            interval_days=round(outcome.interval_days, 6),
            due=new.due,
            stability=new.stability,
            difficulty=new.difficulty,
            typed=typed,
            correct=correct,
            overridden=overridden,
        )
        review_dict = review.to_dict()
        self._append({"op": "record", "review": review_dict, "card": slim_state(new.to_dict())})
        self.state.objs[key.id] = new
        if self._reviews is not None:
            self._reviews[review.id] = review
        return review

    def undo(self) -> Review | None:
        """Take back the last answer: restore the card's state, remove the log entry.

        Returns the removed review (``None`` when there is nothing to undo).
        """
        with self._mutex:
            return self._undo()

    def _undo(self) -> Review | None:
        self._check_writable()
        if not self.state.undo:
            return None
        top = self.state.undo[-1]
        reviews = self._reviews
        removed = Review.from_dict(top["review"])
        self._append(
            {
                "op": "undo",
                "review_id": top["review_id"],
                "card_id": top["card_id"],
                "restore": top["before"],
            }
        )
        if reviews is not None:
            reviews.pop(top["review_id"], None)
        return removed

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


class ReviewLogStorage(Storage):
    """A read-only TinyDB storage presenting review dicts as the table ``reviews``."""

    def __init__(self, reviews: list[dict[str, Any]]) -> None:
        self._doc = {"reviews": {str(i): r for i, r in enumerate(reviews, start=1)}}

    def read(self) -> dict[str, Any]:
        """The table, as TinyDB expects it."""
        return self._doc

    def write(self, data: dict[str, Any]) -> None:
        """The log changes only through :meth:`Store.record` and :meth:`Store.undo`."""
        raise StoreError("the review log view is read-only; use Store.record/undo")


def read_reviews(path: Path) -> dict[str, Review]:
    """Fold a journal into the review log (answers minus undone ones), keyed by review id."""
    out: dict[str, Review] = {}
    try:
        for _, event in journal.scan(path, 0):
            op = event.get("op")
            if op in ("record", "review"):
                review = Review.from_dict(event["review"])
                out[review.id] = review
            elif op == "undo":
                out.pop(event["review_id"], None)
    except JournalDamage as exc:
        raise StoreError(
            f"the journal is damaged at line {exc.line}",
            hint=f"run `quizzer doctor --db {_store_of(path)}` to repair it (a copy is kept)",
            path=path,
            line=exc.line,
        ) from exc
    return out


def _store_of(journal_file: Path) -> Path:
    return journal_file.with_name(journal_file.name.removesuffix(".journal"))


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


__all__ = [
    "SCHEMA_VERSION",
    "CardPhase",
    "Store",
    "backup_path",
    "journal_path",
    "lock_path",
    "open_store",
]
