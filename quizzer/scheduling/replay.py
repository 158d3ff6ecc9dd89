"""A card's state is what replaying its history gives: the review log is the source of truth.

:func:`replay` folds one card's events in time order — its answers
(:class:`~quizzer.scheduling.review.Review`), burials (:class:`Burial`) and
suspensions (:class:`Suspension`) — through the one scheduler step
(:func:`quizzer.scheduling.scheduler.answer`, study days and all) and gives the state
the store's snapshot must hold; the snapshot is only a cache of it.
:func:`replay_all` does it for a whole log, :func:`replay_trace` also gives the state
after each answer (what an export writes per review row), and :func:`differences`
says in words how a kept state differs from its replay.

What replaying reproduces exactly: FSRS's memory state (stability, difficulty),
phase and learning step, reps, lapses, leech marks, first and last review. What it
takes from the log instead of recomputing: each answer's ``due``, when the log has
it — the fuzz drawn at the time is not reproducible, and the learner was told that
date (as Anki keeps due dates when it recomputes memory states). The settings are
the store's at the time of each answer: a fixed :class:`SchedulerSettings`, or
a :data:`SettingsAt` giving them for a moment.

Pure: no clock, no storage; the learner's time zone is an argument.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo

from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.scheduling.studyday import to_utc


@dataclass(frozen=True, slots=True)
class Burial:
    """``card_id`` buried at ``at`` until ``until`` (hidden from the queue; an answer ends it)."""

    card_id: str
    at: datetime
    until: datetime

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", to_utc(self.at, "at"))
        object.__setattr__(self, "until", to_utc(self.until, "until"))


@dataclass(frozen=True, slots=True)
class Suspension:
    """``card_id`` suspended (``suspended`` true) or brought back (false) at ``at``.

    Bringing a card back clears its leech mark, as ``Store.set_suspended`` does.
    """

    card_id: str
    at: datetime
    suspended: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", to_utc(self.at, "at"))


#: One thing that happened to a card.
CardEvent = Review | Burial | Suspension

#: The store's settings in force at a moment.
SettingsAt = Callable[[datetime], SchedulerSettings]

#: Stability and difficulty agree when this close (relative): what the journal's floats keep.
TOLERANCE = 1e-6


def _moment(event: CardEvent) -> datetime:
    return event.reviewed_at if isinstance(event, Review) else event.at


def _order(event: CardEvent) -> tuple[datetime, int, str]:
    # Same instant: the answer first (an answer clears a bury; a bury then hides the card).
    if isinstance(event, Review):
        return (event.reviewed_at, 0, event.id)
    return (event.at, 1 if isinstance(event, Burial) else 2, "")


def _settings_at(settings: SchedulerSettings | SettingsAt) -> SettingsAt:
    if isinstance(settings, SchedulerSettings):
        fixed = settings
        return lambda _at: fixed
    return settings


def replay_trace(
    card_id: str,
    events: Iterable[CardEvent],
    settings: SchedulerSettings | SettingsAt,
    tz: tzinfo,
) -> tuple[CardState | None, list[tuple[Review, CardState]]]:
    """Replay ``card_id``'s ``events`` (any order; other cards' are ignored).

    Returns the final state (``None`` when nothing happened to the card) and, for each
    answer in time order, the answer with the state it left (copies). ``ValueError``
    when ``card_id`` is not a card key (a damaged log; nothing can be scheduled).
    """
    return _replay(card_id, events, settings, tz, trace=True)


def _replay(
    card_id: str,
    events: Iterable[CardEvent],
    settings: SchedulerSettings | SettingsAt,
    tz: tzinfo,
    *,
    trace: bool,
) -> tuple[CardState | None, list[tuple[Review, CardState]]]:
    mine = sorted((e for e in events if e.card_id == card_id), key=_order)
    if not mine:
        return None, []
    key = CardKey.parse(card_id)
    settings_at = _settings_at(settings)
    state = CardState.new(key, _moment(mine[0]))
    steps: list[tuple[Review, CardState]] = []
    for event in mine:
        if isinstance(event, Review):
            state = step(state, event, settings_at, tz)
            if trace:  # answer() returns a new state each time; only the trace needs copies
                steps.append((event, state.copy()))
        elif isinstance(event, Burial):
            state = state.copy()
            state.buried_until = event.until
        else:
            state = state.copy()
            state.suspended = event.suspended
            if not event.suspended:
                state.leech = False
    return state, steps


def step(state: CardState, review: Review, settings_at: SettingsAt, tz: tzinfo) -> CardState:
    """The state one logged answer leaves (a new object; ``state`` is not changed)."""
    at = review.reviewed_at
    state = answer(state, review.grade, at, settings_at(at), None, tz=tz).state
    if review.due is not None:
        state.card.due = review.due  # the fuzzed date the learner was given
    return state


def replay(
    card_id: str,
    events: Iterable[CardEvent],
    settings: SchedulerSettings | SettingsAt,
    tz: tzinfo,
) -> CardState | None:
    """The state of ``card_id`` after its ``events``; see :func:`replay_trace`."""
    return _replay(card_id, events, settings, tz, trace=False)[0]


def replay_all(
    events: Iterable[CardEvent],
    settings: SchedulerSettings | SettingsAt,
    tz: tzinfo,
) -> dict[str, CardState]:
    """Every card's replayed state (card id → state), from a whole log.

    ``ValueError`` names the first card id that is not a card key.
    """
    by_card: dict[str, list[CardEvent]] = defaultdict(list)
    for event in events:
        by_card[event.card_id].append(event)
    out: dict[str, CardState] = {}
    for card_id, items in by_card.items():
        state = replay(card_id, items, settings, tz)
        if state is not None:
            out[card_id] = state
    return out


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def _same_moment(a: datetime | None, b: datetime | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs((a - b).total_seconds()) < 0.001


def differences(kept: CardState, replayed: CardState, *, flags: bool = True) -> list[str]:
    """How ``kept`` (a snapshot's state) differs from ``replayed``, one phrase each.

    Empty when they agree. ``flags`` also compares suspension, burial and the leech
    marks (leave it off when the events that set them are no longer in the log).
    """
    out: list[str] = []

    def note(name: str, have: object, want: object) -> None:
        out.append(f"{name} is {have}, its log gives {want}")

    if kept.phase != replayed.phase:
        note("phase", kept.phase, replayed.phase)
    if kept.card.step != replayed.card.step:
        note("learning step", kept.card.step, replayed.card.step)
    for name in ("reps", "lapses"):
        if getattr(kept, name) != getattr(replayed, name):
            note(name, getattr(kept, name), getattr(replayed, name))
    for name in ("stability", "difficulty"):
        have, want = getattr(kept, name), getattr(replayed, name)
        if not _close(have, want):
            note(name, _fmt(have), _fmt(want))
    for name in ("due", "last_review", "first_review"):
        have, want = getattr(kept, name), getattr(replayed, name)
        if not _same_moment(have, want):
            note(name, _fmt(have), _fmt(want))
    if flags:
        for name in ("suspended", "leech", "flagged"):
            if getattr(kept, name) != getattr(replayed, name):
                note(name, getattr(kept, name), getattr(replayed, name))
        if not _same_moment(kept.buried_until, replayed.buried_until):
            note("buried_until", _fmt(kept.buried_until), _fmt(replayed.buried_until))
    return out


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return str(value)
