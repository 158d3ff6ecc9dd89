"""The progress store of several devices: each device's events in its own folder, card states
derived from all of them.

A store is a folder (``docs/devices.md``): every device appends its answers, undos, buries,
suspensions and settings changes to its own log (:mod:`quizzer.progress.devicelog`, one
checksummed line each, flushed to disk before :meth:`Store.record` returns) and reads every
other device's. Card states are the replay of the union (:mod:`quizzer.progress.derive`);
the cache (:mod:`quizzer.progress.statecache`, outside the folder) keeps the states and how
far each log was read, so opening reads only what is new.

Opening with ``read_only=True`` takes no lock, claims no device and writes nothing in the
store folder (the cache outside it is still kept up to date).
"""

from __future__ import annotations

import hashlib
import os
import random
import threading
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import quizzer.progress.derive as derive
import quizzer.progress.device as device
import quizzer.progress.devicelog as devicelog
import quizzer.progress.events as ev
import quizzer.progress.layout as layout
import quizzer.progress.statecache as statecache
import quizzer.progress.storepath as storepath
import quizzer.progress.upgrade as upgrade
from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.errors import StoreError
from quizzer.progress.outcomes import Bury, RecordOutcome
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import LOG_MODES, Grade
from quizzer.scheduling.limits import TodayCounts, count_today
from quizzer.scheduling.queue import DueQueue, QueueFacts, bury_until, due_queue_of_facts, facts_of
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.scheduling.studyday import study_day

if TYPE_CHECKING:
    from tinydb import TinyDB

    from quizzer.concepts.deck import Deck
    from quizzer.stats.tally import Tally

#: Answer times the scheduler can work with: intervals up to a century must still be dates.
_EARLIEST, _LATEST = datetime(1970, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC)
#: What :meth:`Store.undo` takes back: this device's own answers, practice answers, buries.
_Undoable = ev.Answer | ev.Practice | ev.Bury
_key, _seq = attrgetter("key"), attrgetter("seq")
#: Called as ``on_progress(done, total)`` while a merge writes.
ProgressCallback = Callable[[int, int], None]


def card_key(card: CardKey | str) -> CardKey:
    """``card`` as a :class:`CardKey` (a card id string is parsed)."""
    return card if isinstance(card, CardKey) else CardKey.parse(card)


def system_zone() -> tzinfo:
    """The system's time zone (``$TZ``, else ``/etc/localtime``) as :mod:`tzlocal` finds it.

    A :class:`zoneinfo.ZoneInfo`, which follows daylight-saving changes. A ``$TZ`` that
    names no zone (a POSIX rule such as ``CET-1CEST,M3.5.0,M10.5.0/3``) has none: then the
    offset the C library gives now, fixed, so such a zone's clock changes are not followed.
    """
    # Imported here: tzlocal and zoneinfo cost a few milliseconds, paid when a store opens.
    # Read again for each store (not tzlocal's cached zone), as the C library reads $TZ.
    from zoneinfo import ZoneInfoNotFoundError

    import tzlocal

    try:
        return tzlocal.reload_localzone()
    except ZoneInfoNotFoundError:  # a POSIX rule, an unknown name, conflicting settings
        return datetime.now().astimezone().tzinfo or UTC


def zone_key(tz: tzinfo) -> str:
    """A stable name for the rules of ``tz``, to tell whether study days were counted in it:
    an IANA zone's name (``Europe/Paris``), else the zone's type and ``repr``."""
    key = getattr(tz, "key", None)
    if isinstance(key, str) and key:
        return key
    return f"{type(tz).__qualname__}:{tz!r}"


def _answer_time(now: datetime) -> datetime:
    """``now`` in UTC; ``ValueError`` for a naive time or one no schedule can follow."""
    if not isinstance(now, datetime):
        raise ValueError(f"now must be a datetime, got {type(now).__name__}")
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be a timezone-aware datetime (UTC)")
    if not _EARLIEST <= now < _LATEST:
        raise ValueError(f"now must lie between 1970 and 9000, got {now.isoformat()}")
    return now.astimezone(UTC)


def _check_grade(grade: object) -> None:
    if isinstance(grade, bool) or not isinstance(grade, int) or grade not in (1, 2, 3, 4):
        raise ValueError(f"grade must be the whole number 1, 2, 3 or 4, got {grade!r:.40}")


@dataclass(slots=True)
class _Folder:
    """What was read of one device folder."""

    mark: devicelog.Mark
    events: int = 0
    seq: int = 0
    #: The sequence numbers counted, as ``[first, last]`` runs: what the states include.
    runs: list[list[int]] = field(default_factory=list)

    def covers(self, seq: int) -> bool:
        """Whether the event numbered ``seq`` was counted (a repeat of it is no news)."""
        return any(first <= seq <= last for first, last in self.runs)

    def count(self, event: ev.AnyEvent) -> None:
        """Count ``event`` in (once)."""
        self.events += 1
        self.seq = max(self.seq, event.seq)
        if self.runs and self.runs[-1][1] + 1 == event.seq:
            self.runs[-1][1] = event.seq
        elif not self.covers(event.seq):
            self.runs.append([event.seq, event.seq])
            self.runs.sort()


class Store:
    """An open progress store. Use :func:`open_store`; close it (or use ``with``).

    ``tz`` is the learner's time zone for study days (default: the system's local zone,
    DST-aware). ``rng`` is accepted for callers that pass one: fuzz is drawn from each
    answer's id, so that every device replays the same dates.
    """

    def __init__(
        self,
        path: Path,
        *,
        read_only: bool = False,
        tz: tzinfo | None = None,
        rng: random.Random | None = None,
        now: datetime | None = None,
    ) -> None:
        self.path = path
        self.read_only = read_only
        self.tz: tzinfo = tz or system_zone()
        self._mutex = threading.RLock()
        self.notice: str | None = None
        self.last_outcome: RecordOutcome | None = None
        #: Damaged lines and files found (their events skipped).
        self.damage: list[devicelog.Problem] = []
        #: Events that were read before and are gone now (a log cut short, a month deleted).
        self.losses: list[str] = []
        self._closed = self._changed = False
        self._claimed: device.ClaimedDevice | None = None
        self._log: devicelog.DeviceLog | None = None
        now = datetime.now(UTC) if now is None else _answer_time(now)
        if read_only and path.is_file():
            self._open_old(now)  # an old store read as it is (a merge's source, say)
            return
        if not read_only and upgrade.needs_upgrade(path):
            self.notice = upgrade.upgrade(path, now).notice
        # A damaged marker beside device folders reads as damaged (and a writer writes it
        # again): the answers are in the device folders, not in the marker.
        marker = layout.read_marker(path) if read_only else layout.create_store(path)
        self.store_id = marker.store if marker else ""
        if read_only:
            self.device = device.local_identity(device.requested_name())[0].device
        else:
            self._claimed = device.claim_device(path, now)
            self.device = self._claimed.device
            self.notice = self._claimed.notice or self.notice
        self.cache_path = (
            statecache.cache_path(self.store_id, self.device) if self.store_id else None
        )
        try:
            self._open()
        except BaseException:
            self._release()
            raise

    # Opening: the cache, then each folder's events past its mark.

    def _open(self) -> None:
        cache = statecache.load(self.cache_path) if self.cache_path else None
        if cache is not None:
            self.losses = list(cache.losses)
            self._start(cache)
            new = self._read(cache.marks, self._replay.events)
            if self.losses == cache.losses:
                self._take(new)
                self._changed = bool(new)
                return
        # No cache, or events the cache holds are gone: every event replayed.
        self._start(None)
        self._add(self._read({}))
        self._changed = True

    def _open_old(self, now: datetime) -> None:
        """Read an old single-writer store's answers into memory (nothing written)."""
        self.device, self.store_id, self.cache_path = "", "", None
        self._start(None)
        try:
            old = upgrade.read_old_store(self.path.parent, self.path.name)
        except (OSError, ValueError) as exc:
            raise StoreError(
                f"can't read the old store: {layout.why(exc)}", path=self.path
            ) from exc
        lines, _ = upgrade.to_events(old, "old", now)
        found = [e for e in (self._event(line, "") for line in lines) if e is not None]
        self._replay.add(sorted(found, key=_key))

    def _start(self, cache: statecache.Cache | None) -> None:
        states = statecache.cached_states(cache.rows) if cache else None
        last_keys = cache.last_keys() if cache else None
        self._replay = derive.Replay(self.tz, states=states, last_keys=last_keys)
        self._folders: dict[str, _Folder] = {}
        self._bad: list[derive.Problem] = []
        #: Whether every event of every folder is in memory (else: the cache's states).
        self._whole = cache is None
        self._cache_recent = cache.recent if cache else []
        #: The statistics' tally (its zone key and hour; its data as the cache had it, or
        #: the tally) and the answers and practice answers since.
        self._tally: tuple[list[Any], Tally | dict[str, Any]] | None = (
            cache.tally if cache else None
        )
        self._tally_zone: tzinfo = self.tz
        self._fresh: list[str] = []
        if cache is not None:
            settings = [self._event(data, "") for data in cache.settings]
            self._replay.add([e for e in settings if e is not None], stepped=True)
            for event_id, dev, reason in cache.bad:
                self._report(derive.Problem(event_id, dev, reason))
            for name, mark in cache.marks.items():
                # A cache of before kept two more counts first: the last three are these.
                *_, events, seq, runs = cache.counts.get(name, (0, 0, []))
                self._folders[name] = _Folder(mark, events, seq, runs)

    def _read(
        self, marks: dict[str, devicelog.Mark], counted: Container[str] = ()
    ) -> list[ev.AnyEvent]:
        """The events of every device folder past ``marks``; the new marks kept, and the
        answers not ``counted`` yet counted."""
        found: list[ev.AnyEvent] = []
        for folder in layout.device_folders(self.path):
            name = folder.name
            result = devicelog.read_since(folder, marks.get(name))
            known = self._folders.setdefault(name, _Folder(devicelog.Mark()))
            known.mark = result.mark
            self.damage = list(dict.fromkeys([*self.damage, *result.damage]))
            self.losses = list(dict.fromkeys([*self.losses, *map(str, result.losses)]))
            for data in [*result.events, *result.copies]:
                event = self._event(data, name)
                if event is not None:
                    if event.id in counted:
                        found.append(event)
                    elif not (marks and known.covers(event.seq)):
                        # Past a mark, an event the states include already (a sealed month's
                        # log come back with a sync) is no news: not applied twice.
                        found.append(event)
                        known.count(event)
        return found

    def _event(self, data: dict[str, Any], folder: str) -> ev.AnyEvent | None:
        """The event of a line, or ``None`` (reported) when it can't be replayed."""
        try:
            event = ev.from_dict(data)
        except ev.BadEvent as exc:
            where = str(data.get("id"))[:80] if isinstance(data, dict) else "?"
            self._report(derive.Problem(where, folder, str(exc)))
            return None
        if folder and event.dev != folder:
            self._report(derive.Problem(event.id, folder, f"written in {folder}'s folder"))
            return None
        return event

    def _add(self, events: list[ev.AnyEvent]) -> None:
        """Replay ``events``; the answers among them not taken before are the tally's to add
        (this device's own, read again at the close, were counted when written)."""
        taken = self._replay.events
        kinds = ev.Answer | ev.Practice
        self._fresh.extend(e.id for e in events if isinstance(e, kinds) and e.id not in taken)
        self._replay.add(sorted(events, key=_key))

    def _report(self, problem: derive.Problem) -> None:
        if problem not in self._bad:
            self._bad.append(problem)

    def _load_history(self, new: Sequence[ev.AnyEvent]) -> None:
        """Read every folder whole: the events the cache's states include join the card
        histories (without being replayed again); ``new`` and whatever came after the marks
        are then replayed on top."""
        marks = self._marks()
        for known in self._folders.values():
            known.events, known.seq, known.runs = 0, 0, []
        everything = self._read({})
        later: set[str] = set()
        for folder in layout.device_folders(self.path):
            result = devicelog.read_since(folder, marks.get(folder.name))
            later.update(str(data.get("id")) for data in [*result.events, *result.copies])
        taken = self._replay.events
        later.update(event.id for event in new)
        old = [e for e in everything if e.id not in later]
        newer = [e for e in everything if e.id in later and e.id not in taken]
        self._replay.add(sorted(old, key=_key), stepped=True)
        self._add([*new, *newer])
        self._whole = True

    def _marks(self) -> dict[str, devicelog.Mark]:
        return {name: known.mark for name, known in self._folders.items()}

    def _take(self, new: list[ev.AnyEvent], *, history: bool = False) -> None:
        """Replay ``new`` on top of the states, reading the logs whole first when they need
        events of before (or ``history``: an undo of an answer the tally counted)."""
        if history or self._replay.needs_history(new):
            self._tally = None  # answers the tally counted may have changed
            self._load_history(new)
        else:
            self._add(new)

    def _log_for(self, folder: Path, name: str) -> devicelog.DeviceLog:
        """``name``'s log in ``folder``, numbering on from its highest sequence number seen."""
        seq = self._folders[name].seq if name in self._folders else 0
        return devicelog.DeviceLog(folder, name, datetime.now(UTC), min_seq=seq)

    # Writing.

    def _check_writable(self) -> devicelog.DeviceLog:
        if self._closed:
            raise StoreError("the progress store is closed", path=self.path)
        if self._claimed is None:
            raise StoreError(
                "the progress store was opened read-only",
                hint="open it without read_only to change it",
                path=self.path,
            )
        if self._log is None:
            # Opened at the first write: a session that changes nothing writes nothing.
            self._log = self._log_for(self._claimed.folder, self.device)
        return self._log

    def _write(
        self, rows: Iterable[dict[str, Any]], now: datetime, log: devicelog.DeviceLog | None = None
    ) -> list[ev.AnyEvent]:
        """Number, write (durably, in one flushed append) and replay new events of ``log``'s
        device (default: this device's own log); fields that are ``None`` are left out. Its
        own are made as they are (their values were checked where they came in; checking
        them again took a sixth of an answer); another log's (a merge's) are checked."""
        log = log or self._check_writable()
        name, at = log.owner, ev.to_ms(now)
        own = name == self.device
        made: list[ev.AnyEvent] = []
        for seq, fields in enumerate(rows, log.next_seq):
            values = {k: v for k, v in fields.items() if v is not None}
            if own:
                kind = ev.OPS[values.pop("op")]
                made.append(kind(ev.event_id(name, seq), name, seq, at, **values))  # type: ignore[arg-type]
            else:
                head = {"id": ev.event_id(name, seq), "dev": name, "seq": seq, "at": at}
                made.append(ev.from_dict(head | values))
        if made:
            taken = [e for e in made if isinstance(e, ev.Undo) and e.target not in self._fresh]
            if taken or self._replay.needs_history(made):
                self._take([], history=True)  # an answer the tally counted is taken back
            log.append([event.to_dict() for event in made], now)
            self._add(made)
            known = self._folders.setdefault(name, _Folder(devicelog.Mark()))
            for event in made:
                known.count(event)
            self._changed = True
        return made

    def record(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None = None
    ) -> Review:
        """Schedule ``card`` by the answer ``grade`` (1-4) and log it; durable when it returns.

        Returns the logged :class:`Review` (its time whole milliseconds, as the log keeps it);
        :attr:`last_outcome` also says whether the answer made the card a leech.
        """
        return self.record_outcome(card, grade, now, answer).review

    def record_outcome(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None = None
    ) -> RecordOutcome:
        """Like :meth:`record`, returning a :class:`RecordOutcome` (review, new state, leech)."""
        key = card_key(card)
        _check_grade(grade)
        now = _answer_time(now)
        if answer is not None and not isinstance(answer, Answer):
            raise ValueError(f"answer must be an Answer, got {type(answer).__name__}")
        answer = answer or Answer()
        ms = answer.duration_ms
        if answer.mode not in LOG_MODES or type(ms) is not int or ms < 0:
            # The review's own checks, with their messages (a mode, a duration that can't be).
            Review("-", key.id, now, grade, answer.mode, ms)
        # A typed text longer than a log line keeps (a page pasted) is kept to its start.
        typed = None if answer.typed is None else answer.typed[: ev.MAX_TEXT]
        fields: dict[str, Any] = {"op": "answer", "card": key.id, "grade": grade}
        fields |= {"mode": answer.mode}
        fields |= {"ms": ms, "typed": typed, "correct": answer.correct}
        fields |= {"over": answer.overridden, "params": self._replay.digest}
        with self._mutex:
            (event,) = self._write([fields], now)
            review = self._replay.review(event.id)
            assert review is not None
            state = self._replay.states[key.id]
            leech = event.id in self._replay.leeched
            outcome = RecordOutcome(review, state.copy(), leech, leech and state.suspended)
            self.last_outcome = outcome
            return outcome

    def record_practice(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None, mode: str
    ) -> None:
        """Log an answer given in a mode that changes no schedule (``cram``, ``match``)."""
        key = card_key(card)
        _check_grade(grade)
        now = _answer_time(now)
        ms = max(0, int(answer.duration_ms)) if answer is not None else 0
        fields = {"op": "practice", "card": key.id, "grade": grade, "mode": mode, "ms": ms}
        with self._mutex:
            self._write([fields], now)

    def undo(self) -> Review | Bury | ev.Practice | None:
        """Take back this device's last answer, practice answer or bury (never another
        device's, nor one migrated or merged); returns what was taken back (a practice answer
        as its event), ``None`` when there is nothing."""
        with self._mutex:
            self._check_writable()
            target = self._undoable()
            if target is None:
                return None
            if isinstance(target, ev.Answer):
                taken: Review | Bury | ev.Practice | None = self._replay.review(target.id)
            elif isinstance(target, ev.Bury):
                taken = Bury(target.id, target.card, target.when, ev.from_ms(target.until))
            else:
                taken = target
            self._write([{"op": "undo", "target": target.id}], datetime.now(UTC))
            return taken

    def _own_undoable(self) -> list[_Undoable]:
        undone, events = self._replay.undone, self._replay.events.values()
        own = [e for e in events if e.dev == self.device and isinstance(e, _Undoable)]
        return [
            e for e in own if e.id not in undone and not (isinstance(e, ev.Answer) and e.review)
        ]

    def _undoable(self) -> _Undoable | None:
        mine = self._own_undoable()
        if not mine and self._folders.get(self.device, _Folder(devicelog.Mark())).mark.count:
            self._load_history([])  # this device's earlier events, read whole
            mine = self._own_undoable()
        return max(mine, key=_seq) if mine else None

    @property
    def undo_depth(self) -> int:
        """How many answers, practice answers and buries :meth:`undo` can still take back."""
        return len(self._own_undoable())

    def bury(self, card: CardKey | str, now: datetime) -> Bury:
        """Hide ``card`` until the next study day starts (``day_start_hour`` in ``tz``).

        Durable like an answer and on the same undo stack; answering the card ends it."""
        key = card_key(card)
        now = _answer_time(now)
        until = bury_until(now, self.tz, self.settings)
        with self._mutex:
            fields = {"op": "bury", "card": key.id, "until": ev.to_ms(until)}
            (event,) = self._write([fields], now)
        return Bury(event.id, key.id, event.when, ev.from_ms(ev.to_ms(until)))

    def set_suspended(self, card: CardKey | str, suspended: bool, now: datetime) -> CardState:
        """Suspend a card (never due) or bring it back; clears its leech flag when resumed."""
        key = card_key(card)
        now = _answer_time(now)
        with self._mutex:
            self._write([{"op": "suspend" if suspended else "unsuspend", "card": key.id}], now)
            return self._replay.states[key.id].copy()

    def set_settings(self, settings: SchedulerSettings) -> None:
        """Change the scheduling settings (durably, like an answer). Answers already given
        keep the settings they were given under; later ones follow these."""
        with self._mutex:
            before = self.settings.to_dict()
            values = {k: v for k, v in settings.to_dict().items() if before.get(k) != v}
            if values:
                self._write([{"op": "settings", "values": values}], datetime.now(UTC))

    def merge_batch(
        self,
        reviews: Sequence[Review],
        states: Sequence[CardState],
        on_progress: ProgressCallback | None = None,
    ) -> None:
        """Add answers given elsewhere (their review ids and due dates kept: Anki's answers
        keep the intervals Anki gave) and the suspensions of ``states``, as events of this
        device's merged folder, written in one flushed append."""
        rows: list[dict[str, Any]] = []
        for review in reviews:
            fields: dict[str, Any] = {"op": "answer", "card": review.card_id}
            fields |= {"at": ev.to_ms(review.reviewed_at), "grade": review.grade}
            fields |= {"mode": review.mode, "ms": review.duration_ms, "review": review.id}
            fields |= {"typed": review.typed, "correct": review.correct, "over": review.overridden}
            fields |= {"due": ev.to_ms(review.due) if review.due is not None else None}
            anki = {"interval_days": review.interval_days} if review.mode == "anki" else None
            rows.append(fields | {"anki": anki})
        with self._mutex:
            self._check_writable()
            assert self._claimed is not None
            for state in states:
                have = self._replay.states.get(state.card_id)
                if state.suspended and not (have is not None and have.suspended):
                    rows.append({"op": "suspend", "card": state.card_id})
            log = self._log_for(self._claimed.merged_folder, self.device + layout.MERGED_SUFFIX)
            progress = on_progress or (lambda done, total: None)
            try:
                progress(0, len(rows))
                self._write(rows, datetime.now(UTC), log)
                progress(len(rows), len(rows))
            finally:
                log.close()

    # Reading.

    @property
    def settings(self) -> SchedulerSettings:
        """The scheduling settings in force (last writer wins per setting)."""
        return self._replay.settings

    def card(self, card: CardKey | str) -> CardState | None:
        """A card's state (a copy), ``None`` if it was never studied."""
        state = self._replay.states.get(card_key(card).id)
        return state.copy() if state else None

    def cards(self) -> Iterator[CardState]:
        """Every studied card's state (copies)."""
        states = self._replay.states
        for card_id in list(states):
            yield states[card_id].copy()

    def __len__(self) -> int:
        return len(self._replay.states)

    def _recent_entries(self) -> list[list[Any]]:
        """``[review id, card, at (ms), phase]`` of the answers of the last days."""
        replay = self._replay
        out: list[list[Any]] = [[rid, *item] for rid, item in replay.recent.items()]
        undone = {e.review_id for e in self._undone()}
        for entry in self._cache_recent:
            rid, card = entry[0], entry[1]
            fresh = entry[2] >= replay.recent_floor and not replay.rebuilt(card)
            if fresh and rid not in replay.recent and rid not in undone:
                out.append(entry)
        newest: int = max((int(entry[2]) for entry in out), default=0)
        return [entry for entry in out if entry[2] >= newest - derive.RECENT_MS]

    def today(self, deck: str, now: datetime) -> TodayCounts:
        """Answers given in ``deck`` during the study day of ``now``."""
        recent = ((card, ev.from_ms(at), phase) for _, card, at, phase in self._recent_entries())
        return count_today(recent, deck, now, self.tz, self.settings)

    def due_cards(
        self,
        deck: Deck,
        pairs: Iterable[Pair],
        now: datetime,
        candidates: Sequence[CardKey] | None = None,
    ) -> DueQueue:
        """What to study now in ``deck`` for the given directions, honouring limits and burying.

        Cards exist for every concept that has both texts of a pair, and they differ
        (:func:`quizzer.cards.card.has_card`); those never studied count as new.
        ``candidates`` are those cards in deck order when the caller knows them.
        """
        pairs = list(pairs)
        if candidates is None:
            candidates = [
                CardKey(concept.uid, pair)
                for concept in deck.concepts
                for pair in pairs
                if has_card(concept, pair)
            ]
        ids = [key.id for key in candidates]
        states = self._replay.states
        facts: dict[str, QueueFacts] = {}
        for card_id in (*ids, *(entry[1] for entry in self._recent_entries())):
            if card_id not in facts and card_id in states:
                facts[card_id] = facts_of(states[card_id])
        today = self.today(deck.id, now)
        return due_queue_of_facts(candidates, facts, now, self.tz, self.settings, today, ids)

    def preview(self, card: CardKey | str, now: datetime) -> dict[int, timedelta]:
        """The interval each grade 1-4 would give ``card`` at ``now`` (no fuzz)."""
        key = card_key(card)
        state = self._replay.states.get(key.id) or CardState.new(key, now)
        if self._log is not None:
            # What the answer that follows needs, made while the learner thinks (as Anki
            # computes a card's next states when it shows it): its fuzz generator here,
            # FSRS's four steps in the preview. Both take 12% off recording it.
            upcoming = ev.event_id(self.device, self._log.next_seq)
            self._replay.ahead = (upcoming, random.Random(upcoming))
        return scheduling.preview(state, now, self.settings, tz=self.tz)

    def reviews(self, card: CardKey | str | None = None) -> list[Review]:
        """The review log of every device, oldest first (undone answers left out); only
        ``card``'s if given."""
        with self._mutex:
            self._complete()
            return self._replay.reviews(None if card is None else card_key(card).id)

    def _complete(self) -> None:
        """Make sure every event is in memory (after an open from the cache)."""
        if not self._whole:
            self._load_history([])

    def practice(self) -> list[ev.Practice]:
        """The answers given in modes that change no schedule (cram, match), oldest first."""
        with self._mutex:
            self._complete()
            return self._replay.practice()

    def reviews_db(self) -> TinyDB:
        """The review log as a read-only TinyDB database (table ``reviews``), for queries."""
        from tinydb import TinyDB
        from tinydb.storages import Storage

        class LogStorage(Storage):
            """The review log's documents, read-only."""

            def __init__(self, reviews: list[dict[str, Any]]) -> None:
                self.data = {"reviews": {str(n): r for n, r in enumerate(reviews, 1)}}

            def read(self) -> dict[str, Any]:
                return self.data

            def write(self, data: dict[str, Any]) -> None:
                raise StoreError("the review log is read-only here", path=None)

        return TinyDB(storage=LogStorage, reviews=[r.to_dict() for r in self.reviews()])

    def undone_answers(self) -> list[ev.Answer]:
        """The answers undone in this store (a merge must not bring them back)."""
        with self._mutex:
            self._complete()
            return self._undone()

    def _undone(self) -> list[ev.Answer]:
        events = self._replay.events
        return [e for e in map(events.get, self._replay.undone) if isinstance(e, ev.Answer)]

    @property
    def problems(self) -> list[derive.Problem]:
        """Events skipped: bad values, undos that can't apply, settings that don't fit."""
        return [*self._bad, *self._replay.problems]

    def cards_fingerprint(self) -> str:
        """A name for the events the card states are made of: equal for equal events."""
        seen = sorted((n, k.events, k.seq) for n, k in self._folders.items() if k.events)
        text = repr((self.store_id, seen))
        return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()

    def stats_tally(self, tz: tzinfo | None = None) -> Tally:
        """The whole log summed for the statistics, practice answers apart, study days in
        ``tz`` (default: the store's zone): the cache's tally and the answers read or given
        since, when it was counted in that zone and nothing older changed since; else counted
        from the log. A copy: the store goes on counting in its own."""
        from quizzer.stats.tally import Tally, add_one, tally_of

        zone = tz or self.tz
        hour = self.settings.day_start_hour
        key = [zone_key(zone), hour]
        with self._mutex:
            kept = self._tally[1] if self._tally is not None and self._tally[0] == key else None
            try:
                tally = Tally.from_data(kept) if isinstance(kept, dict) else kept
            except (ValueError, TypeError, KeyError, AttributeError):
                tally = None  # a cache of an older format: counted again
            if tally is None:
                tally = tally_of(self.reviews(), zone, hour)
                for practice in self._replay.practice():
                    _add_practice(tally, practice, zone, hour)
                self._changed = True  # the cache keeps it
            else:
                replay = self._replay
                for event_id in self._fresh:
                    review = replay.review(event_id)
                    event = replay.events.get(event_id)
                    if review is not None:
                        add_one(tally, review, zone, hour)
                    elif isinstance(event, ev.Practice) and event_id not in replay.undone:
                        _add_practice(tally, event, zone, hour)
            self._tally, self._tally_zone, self._fresh = (key, tally), zone, []
            return Tally.from_data(tally.to_data())

    # Closing.

    def close(self) -> None:
        """Write the cache (when something changed) and let go of the device's files."""
        with self._mutex:
            if self._closed:
                return
            self._closed = True
            try:
                if self.cache_path is not None and self._changed:
                    self._catch_up()
                    statecache.save(self.cache_path, self._cache())
            finally:
                self._release()

    def touch(self) -> None:
        """Have :meth:`close` write the cache even if nothing changed (the doctor's rebuild)."""
        self._changed = True

    def _catch_up(self) -> None:
        """Read past the marks what was written since the open (this device's own events,
        other devices' too), so that the cache's marks cover exactly its states."""
        self._take(self._read(self._marks(), self._replay.events))
        if self._tally is not None and self._fresh:
            self.stats_tally(self._tally_zone)  # the answers since counted in

    def _cache(self) -> statecache.Cache:
        replay = self._replay
        states = replay.states
        rows = states.source if isinstance(states, statecache.Lazy) else {}
        made = states.made if isinstance(states, statecache.Lazy) else states
        for card_id, state in made.items():
            last = replay.last_key(card_id) or (0, "", 0)
            rows[card_id] = statecache.to_row(state, last)
        settings = [e.to_dict() for e in replay.events.values() if isinstance(e, ev.Settings)]
        counts = {name: [k.events, k.seq, k.runs] for name, k in self._folders.items()}
        bad = [[p.event, p.dev, p.reason] for p in self._bad]
        recent, losses = self._recent_entries(), list(self.losses)
        cache = statecache.Cache(self._marks(), rows, settings, recent, losses, counts, bad)
        if self._tally is not None:
            key, tally = self._tally
            cache.tally = (key, tally if isinstance(tally, dict) else tally.to_data())
        return cache

    def _release(self) -> None:
        # Both are safe to close twice.
        if self._log is not None:
            self._log.close()
        if self._claimed is not None:
            self._claimed.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _add_practice(tally: Tally, event: ev.Practice, tz: tzinfo, hour: int) -> None:
    tally.add_practice(event.card, event.mode, event.grade, study_day(event.when, tz, hour))


def open_store(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = False,
    tz: tzinfo | None = None,
    rng: random.Random | None = None,
    now: datetime | None = None,
) -> Store:
    """Open (creating if needed) the progress store folder.

    ``path`` defaults to ``$QUIZZER_DB`` or the platform's user data dir. A second process
    of the same device gets a :class:`StoreError`; ``read_only=True`` opens without
    claiming a device and never writes in the store folder.
    """
    from quizzer.paths import default_db_path

    where = storepath.check_store_path(default_db_path(path))
    return Store(where, read_only=read_only, tz=tz, rng=rng, now=now)
