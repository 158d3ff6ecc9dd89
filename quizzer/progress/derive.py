"""Card states are derived: the replay of the union of every device's events, in order.

:class:`Replay` takes events (any device, any delivery order, duplicates too) and keeps
every card's state as the one scheduler (:func:`quizzer.scheduling.scheduler.answer`)
gives it when the events are applied in ``(at, dev, seq)`` order. The fuzz of an answer
is drawn from a generator seeded with the event's id, so every device that replays the
same events gets the same due dates. An event later than everything a card has seen is
applied on top of its state; one that arrives out of order (a device that was offline),
and an undo, replay only the cards they touch, from those cards' histories.

What can't be replayed is reported (:attr:`Replay.problems`) and skipped: an undo aimed at
another device's event or at one that never came, settings that don't go together. Bad
values are refused earlier, where a line becomes an event (:func:`events.from_dict`).

Settings: last writer wins per setting, by ``(at, dev, seq)``. An answer names the
settings it was given under (``params``, their digest): replay uses those when it knows
them, so a settings change made elsewhere while this device was offline doesn't change
the answers it gave meanwhile; otherwise the settings in force at the answer's place.

Pure: no files, no clock; the learner's time zone is an argument.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from operator import attrgetter, itemgetter
from typing import cast

import quizzer.progress.events as ev
from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import CardPhase
from quizzer.scheduling.review import Review
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings

#: The events that change a card's state, in its history.
_CARD_OPS = (ev.Answer, ev.Bury, ev.Suspend, ev.Unsuspend, ev.Leech)
#: How far before the newest answer :attr:`Replay.recent` keeps answers (a study day is at
#: most 26 hours long: two days hold today's and yesterday's).
RECENT_MS = 2 * 86_400_000
#: An event's replay order, and an item's first part (its key).
_key, _first = attrgetter("key"), itemgetter(0)
#: What an undo may take back.
_UNDOABLE = (*_CARD_OPS, ev.Practice)


@dataclass(frozen=True, slots=True)
class Problem:
    """An event that was skipped: its id, its device and why."""

    event: str
    dev: str
    reason: str


class Replay:
    """Every card's state from the events added so far (see the module docstring).

    ``defaults`` are the settings before any ``settings`` event. ``states`` (a cache's
    snapshot, kept as given) are taken as the replay of the events later added with
    ``stepped=True``; ``last_keys`` says which event each of those cards saw last, so that
    :meth:`needs_history` can tell an event that must be replayed among older ones.
    :attr:`recent` lists the answers at most :data:`RECENT_MS` older than the newest one.
    """

    def __init__(
        self,
        tz: tzinfo,
        defaults: SchedulerSettings | None = None,
        states: MutableMapping[str, CardState] | None = None,
        last_keys: Mapping[str, ev.Key] | None = None,
    ) -> None:
        self.tz = tz
        self.defaults = defaults or SchedulerSettings()
        #: Card id → its state now.
        self.states: MutableMapping[str, CardState] = {} if states is None else states
        self._last_keys = last_keys or {}
        #: The time (ms) from which :attr:`recent` holds every answer replayed here.
        self.recent_floor = 0
        #: Review id → (card id, time, phase before) of the recent answers.
        self.recent: dict[str, tuple[str, int, str]] = {}
        #: Every event taken (undone ones too), by id.
        self.events: dict[str, ev.AnyEvent] = {}
        self._by_review: dict[str, str] = {}
        #: Undone event id → the undo's id.
        self.undone: dict[str, str] = {}
        self._pending: dict[str, ev.Undo] = {}
        self._history: dict[str, list[ev.CardEvent]] = {}
        #: Card id → its answers' keys and what :meth:`_review` makes their entries of.
        self._reviews: dict[str, list[_Replayed]] = {}
        self._stepped: set[str] = set()  # cards whose reviews come from a cache's states
        self._practice: dict[str, ev.Practice] = {}
        self._settings_events: list[ev.Settings] = []
        self._timeline: list[tuple[ev.Key, SchedulerSettings]] = []
        self._by_digest: dict[str, SchedulerSettings] = {}
        #: The digest of the settings in force: what a new answer names as its ``params``.
        self.digest = ""
        self._bad: list[Problem] = []
        self._log: list[Review] | None = None
        #: Cards replayed from their whole history here (all of them without a cache).
        self._rebuilt: set[str] = set()
        #: Answer ids that made their card a leech.
        self.leeched: set[str] = set()
        #: The greatest key of an answer replayed so far.
        self.last: ev.Key = (0, "", 0)
        #: The setting name → the settings event that set it last.
        self.setters: dict[str, ev.Settings] = {}
        #: The fuzz generator of the answer expected next (its id, and the generator seeded
        #: when its card was shown: seeding one takes as long as FSRS's step).
        self.ahead: tuple[str, random.Random] | None = None
        self._settings_changed()

    # What the replay holds.

    @property
    def settings(self) -> SchedulerSettings:
        """The settings in force now (every settings event applied)."""
        return self._timeline[-1][1]

    @property
    def problems(self) -> list[Problem]:
        """Every event skipped so far, with the reason (undos whose target never came too)."""
        waiting = [
            Problem(u.id, u.dev, f"undo of {t}, an event that isn't there")
            for t, u in self._pending.items()
        ]
        return [*self._bad, *waiting]

    def practice(self) -> list[ev.Practice]:
        """The practice answers (cram, match) not undone, in replay order."""
        return sorted(self._practice.values(), key=_key)

    def reviews(self, card: str | None = None) -> list[Review]:
        """The answers not undone as review log entries, in replay order (``card``'s only)."""
        self._unstep(self._stepped if card is None else {card})
        if card is not None:
            return [_review(item) for item in self._reviews.get(card, ())]
        if self._log is None:
            merged = sorted((i for items in self._reviews.values() for i in items), key=_first)
            self._log = [_review(item) for item in merged]
        return list(self._log)

    def review(self, event_id: str) -> Review | None:
        """The review entry of the answer ``event_id`` (``None`` if it isn't one, or undone)."""
        event = self.events.get(event_id)
        if not isinstance(event, ev.Answer) or event_id in self.undone:
            return None
        self._unstep({event.card})
        items = reversed(self._reviews.get(event.card, ()))
        return next((_review(item) for item in items if item[1] is event), None)

    def _unstep(self, cards: set[str]) -> None:
        """Replay those of ``cards`` whose state came from a cache's (and no other card)."""
        for card in self._stepped & cards:
            self._replay(card)
            self._log = None

    def last_key(self, card: str) -> ev.Key | None:
        """The key of the last event that made ``card``'s state, if any."""
        history = self._history.get(card)
        return history[-1].key if history else self._last_keys.get(card)

    def needs_history(self, events: Iterable[ev.AnyEvent]) -> bool:
        """Whether adding ``events`` needs the events of a cache's states (:meth:`add` with
        ``stepped=True`` first): an undo of an event not taken, settings older than an
        answer replayed, an event older than the last one of a card the cache holds."""
        for event in events:
            if event.id in self.events:
                continue
            if isinstance(event, ev.Undo):
                if event.target not in self.events:
                    return True
            elif isinstance(event, ev.Settings):
                if event.key < self.last:
                    return True
            elif not isinstance(event, ev.Practice) and event.card not in self._history:
                last = self._last_keys.get(event.card)
                if last is not None and event.key < last:
                    return True
        return False

    def rebuilt(self, card: str) -> bool:
        """Whether ``card``'s reviews were all made here (not taken from a cache's state)."""
        return card in self._rebuilt or (card not in self._last_keys and card in self._history)

    # Adding events.

    def add(self, events: Iterable[ev.AnyEvent], *, stepped: bool = False) -> set[str]:
        """Take ``events`` (duplicates of events already taken are ignored) and bring every
        card's state up to date; returns the ids of the cards whose state was recomputed.

        ``stepped``: the events are already in the states this replay started from (a
        cache's): they join the histories without being applied again.
        """
        dirty: set[str] = set()
        changed: set[str] = set()
        full = False
        for event in events:
            if event.id in self.events:
                continue
            self.events[event.id] = event
            if isinstance(event, ev.Undo):
                self._undo(event, dirty)
            elif isinstance(event, ev.Settings):
                bisect.insort(self._settings_events, event, key=_key)
                self._settings_changed()
                full = full or (not stepped and event.key < self.last)
            elif event.id in self._pending:
                # Its undo came first (a log read out of order): it stays undone.
                undo = self._pending.pop(event.id)
                self.undone[event.id] = undo.id
            elif isinstance(event, ev.Practice):
                self._practice[event.id] = event
            elif isinstance(event, ev.Answer) and event.review and self._twin(event, dirty):
                continue  # the same answer merged on two devices: the earliest copy counts
            else:
                card = event.card
                history = self._history.setdefault(card, [])
                if stepped:
                    history.append(event)
                    self._stepped.add(card)
                    if isinstance(event, ev.Answer) and event.key > self.last:
                        self.last = event.key
                elif card in dirty or (history and event.key < history[-1].key):
                    bisect.insort(history, event, key=_key)
                    dirty.add(card)
                else:
                    history.append(event)
                    self._apply(card, event)
                    changed.add(card)
        if stepped:
            for history in self._history.values():
                history.sort(key=_key)
        if full:
            dirty = set(self._history)
        for card in dirty:
            self._replay(card)
        if dirty or changed:
            self._log = None
        return dirty | changed

    def _twin(self, event: ev.Answer, dirty: set[str]) -> bool:
        """Whether ``event`` is a copy of an answer taken already under the same review id
        (an old store merged on two devices). The copy first in replay order counts, whatever
        order they come in."""
        assert event.review is not None
        other = self.events.get(self._by_review.get(event.review, ""))
        if not isinstance(other, ev.Answer):
            self._by_review[event.review] = event.id
            return False
        if other.key <= event.key:
            return True
        self._by_review[event.review] = event.id
        history = self._history.get(other.card, [])
        if other in history:
            history.remove(other)
            dirty.add(other.card)
        return False

    def _undo(self, undo: ev.Undo, dirty: set[str]) -> None:
        target = self.events.get(undo.target)
        wrong = ""
        if undo.target.rpartition("-")[0] != undo.dev:
            wrong = "another device's event"
        elif undo.target in self.undone:
            wrong = "undone already"
        elif target is None:
            self._pending[undo.target] = undo
        elif not isinstance(target, _UNDOABLE):
            wrong = "which can't be undone"
        if wrong:
            self._bad.append(Problem(undo.id, undo.dev, f"undo of {undo.target}, {wrong}"))
        elif isinstance(target, _UNDOABLE):
            self.undone[undo.target] = undo.id
            if isinstance(target, ev.Practice):
                self._practice.pop(target.id, None)
                return
            history = self._history.get(target.card, [])
            if target in history:
                history.remove(target)
            dirty.add(target.card)

    def _settings_changed(self) -> None:
        """Recompute the settings in force after each settings event (last writer wins)."""
        values = self.defaults.to_dict()
        current = self.defaults
        self._timeline = [((0, "", -1), current)]
        self.digest = ev.settings_digest(current)
        self._by_digest = {self.digest: current}
        self.setters = {}
        self._bad = [p for p in self._bad if not p.reason.startswith("settings ")]
        for event in self._settings_events:
            if event.id in self.undone:
                continue
            trial = values | event.values
            try:
                current = SchedulerSettings.from_dict(trial)
            except (ValueError, TypeError) as exc:
                self._bad.append(Problem(event.id, event.dev, f"settings that don't fit: {exc}"))
                continue
            values = trial
            for name in event.values:
                self.setters[name] = event
            self._timeline.append((event.key, current))
            self.digest = ev.settings_digest(current)
            self._by_digest.setdefault(self.digest, current)

    def _settings_for(self, answer_event: ev.Answer) -> SchedulerSettings:
        if answer_event.params is not None:
            named = self._by_digest.get(answer_event.params)
            if named is not None:
                return named
        index = bisect.bisect_right(self._timeline, answer_event.key, key=_first) - 1
        return self._timeline[max(index, 0)][1]

    # Applying events to a card.

    def _replay(self, card: str) -> None:
        """Recompute ``card`` from its whole history."""
        self.states.pop(card, None)
        self._reviews.pop(card, None)
        self._rebuilt.add(card)
        self.recent = {r: item for r, item in self.recent.items() if item[0] != card}
        self._stepped.discard(card)
        for event in self._history.get(card, ()):
            self.leeched.discard(event.id)
            self._apply(card, event)

    def _apply(self, card: str, event: ev.CardEvent) -> None:
        state = self.states.get(card)
        if state is None:
            state = CardState.new(CardKey.parse(card), event.when)
        if isinstance(event, ev.Answer):
            state = self._answer(state, event)
        else:
            state = state.copy()
            if isinstance(event, ev.Bury):
                state.buried_until = ev.from_ms(event.until)
            elif isinstance(event, ev.Suspend):
                state.suspended = True
            elif isinstance(event, ev.Unsuspend):
                state.suspended = False
                state.leech = False
            else:
                state.leech = True
        self.states[card] = state

    def _answer(self, state: CardState, event: ev.Answer) -> CardState:
        settings = self._settings_for(event)
        now = event.when
        ahead, self.ahead = self.ahead, None
        drawn = ahead[1] if ahead and ahead[0] == event.id else None
        rng = None if event.due is not None else drawn or random.Random(event.id)
        outcome = answer(state, event.grade, now, settings, rng, tz=self.tz)
        new = outcome.state
        if event.due is not None:
            new.card.due = ev.from_ms(event.due)  # the date the learner was given
        if outcome.became_leech:
            self.leeched.add(event.id)
        if event.key > self.last:
            self.last = event.key
        # The review entry is made only when asked for: a cold open replays every answer
        # and asks for none: making each at once cost 11% of a cold open (100,000 answers).
        last, due = outcome.last_interval_days, new.due
        replayed = (event.key, event, outcome.phase, last, due, new.stability, new.difficulty)
        self._reviews.setdefault(state.card_id, []).append(replayed)
        if event.at >= self.recent_floor:
            self.recent[event.review_id] = (state.card_id, event.at, outcome.phase)
            if event.at - RECENT_MS > self.recent_floor + 86_400_000:
                self.recent_floor = event.at - RECENT_MS
                self.recent = {r: v for r, v in self.recent.items() if v[1] >= self.recent_floor}
        return new


#: An answer replayed: its key, the event, the card's phase before it and the interval it
#: was answered on, and the due date, stability and difficulty it gave.
_Replayed = tuple[ev.Key, ev.Answer, str, float, datetime, float | None, float | None]


def _review(item: _Replayed) -> Review:
    """The review log entry of an answer replayed."""
    _, event, phase, last, due, stability, difficulty = item
    now = event.when
    return Review(
        id=event.review_id,
        card_id=event.card,
        reviewed_at=now,
        grade=event.grade,
        mode=event.mode,
        duration_ms=event.ms,
        phase=cast(CardPhase, phase),
        last_interval_days=round(last, 6),
        interval_days=round((due - now).total_seconds() / 86400, 6),
        due=due,
        stability=stability,
        difficulty=difficulty,
        typed=event.typed,
        correct=event.correct,
        overridden=event.over,
    )


def replay(
    events: Iterable[ev.AnyEvent], tz: tzinfo, defaults: SchedulerSettings | None = None
) -> Replay:
    """A :class:`Replay` of ``events`` (any order)."""
    done = Replay(tz, defaults)
    done.add(sorted(events, key=_key))
    return done
