"""Spaced repetition: FSRS-6 (the ``fsrs`` package) plus study-day rules around it.

What FSRS decides: stability, difficulty and the next due time of one card.
What this module adds, like Anki does: daily limits per deck, the order new
cards come in, sibling burying (one card of a concept per study day), leeches,
interval previews for the four grades, and the due queue for a deck.

Everything is pure: ``now`` (UTC), the learner's time zone and a
``random.Random`` for fuzz are arguments. Fuzz is applied here with that
generator (FSRS's own fuzz uses the global one), so tests are reproducible.
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any, Literal

import fsrs

from quizzer.cards.card import CardKey
from quizzer.scheduling.review import CardPhase, Grade
from quizzer.scheduling.studyday import day_bounds, next_day_start, to_utc

NewOrder = Literal["deck", "random"]
LeechAction = Literal["suspend", "flag"]

#: fsrs.State → the phase names used in the review log.
_PHASES: dict[fsrs.State, CardPhase] = {
    fsrs.State.Learning: "learning",
    fsrs.State.Review: "review",
    fsrs.State.Relearning: "relearning",
}

#: FSRS's fuzz ranges (same numbers as fsrs.scheduler.FUZZ_RANGES).
_FUZZ_RANGES: tuple[tuple[float, float, float], ...] = (
    (2.5, 7.0, 0.15),
    (7.0, 20.0, 0.1),
    (20.0, math.inf, 0.05),
)


@dataclass(frozen=True, slots=True)
class SchedulerSettings:
    """Everything the learner can tune about scheduling. Persisted in the progress store."""

    desired_retention: float = 0.9
    learning_steps_s: tuple[int, ...] = (60, 600)
    relearning_steps_s: tuple[int, ...] = (600,)
    maximum_interval_days: int = 36500
    fuzz: bool = True
    day_start_hour: int = 4
    new_per_day: int = 20
    reviews_per_day: int = 200
    new_order: NewOrder = "deck"
    bury_siblings: bool = True
    leech_threshold: int = 8
    leech_every: int = 4
    leech_action: LeechAction = "suspend"
    parameters: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)

    def __post_init__(self) -> None:
        # Every way in (Python, the settings command, a stored document) passes here, so
        # invalid settings are never stored. ValueError names the setting.
        for name in ("fuzz", "bury_siblings"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        retention = self.desired_retention
        if isinstance(retention, bool) or not isinstance(retention, int | float):
            raise ValueError(f"desired_retention must be a number, got {retention!r}")
        if not 0.5 <= retention < 1.0:
            raise ValueError(f"desired_retention must be at least 0.5 and below 1, got {retention}")
        for name, low in (
            ("day_start_hour", 0),
            ("new_per_day", 0),
            ("reviews_per_day", 0),
            ("maximum_interval_days", 1),
            ("leech_threshold", 1),
            ("leech_every", 1),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if self.day_start_hour > 23:
            raise ValueError(f"day_start_hour must be 0-23, got {self.day_start_hour}")
        if self.new_order not in ("deck", "random"):
            raise ValueError(f"new_order must be 'deck' or 'random', got {self.new_order!r}")
        if self.leech_action not in ("suspend", "flag"):
            raise ValueError(f"leech_action must be 'suspend' or 'flag', got {self.leech_action!r}")
        for name in ("learning_steps_s", "relearning_steps_s", "parameters"):
            value = getattr(self, name)
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise ValueError(f"{name} must be a list, got {value!r}")
            object.__setattr__(self, name, tuple(value))
        for name in ("learning_steps_s", "relearning_steps_s"):
            for step in getattr(self, name):
                if isinstance(step, bool) or not isinstance(step, int) or step <= 0:
                    raise ValueError(f"{name} must be positive whole seconds, got {step!r}")
        params = self.parameters
        if len(params) != len(fsrs.scheduler.DEFAULT_PARAMETERS):
            raise ValueError(
                f"parameters must be {len(fsrs.scheduler.DEFAULT_PARAMETERS)} numbers "
                f"(FSRS-6), got {len(params)}"
            )
        try:
            if any(isinstance(p, bool | str | bytes) for p in params):
                raise TypeError
            floats = tuple(float(p) for p in params)  # numpy floats from an optimiser too
        except (TypeError, ValueError):
            raise ValueError(f"parameters must be numbers, got {params!r:.80}") from None
        if not all(math.isfinite(p) for p in floats):
            raise ValueError("parameters must be finite numbers")
        object.__setattr__(self, "parameters", floats)
        try:
            self.fsrs_scheduler()  # fsrs checks each parameter against its bounds
        except (ValueError, TypeError) as exc:
            raise ValueError(f"parameters are outside FSRS's bounds ({exc})") from None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SchedulerSettings:
        """Inverse of :meth:`to_dict`; unknown keys are ignored, missing ones take defaults."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def fsrs_scheduler(self) -> fsrs.Scheduler:
        """The ``fsrs.Scheduler`` for these settings (fuzz off: we fuzz with our own rng)."""
        return _scheduler(
            self.parameters,
            self.desired_retention,
            self.learning_steps_s,
            self.relearning_steps_s,
            self.maximum_interval_days,
        )


@lru_cache(maxsize=16)
def _scheduler(
    parameters: tuple[float, ...],
    retention: float,
    learning: tuple[int, ...],
    relearning: tuple[int, ...],
    maximum: int,
) -> fsrs.Scheduler:
    return fsrs.Scheduler(
        parameters=parameters,
        desired_retention=retention,
        learning_steps=tuple(timedelta(seconds=s) for s in learning),
        relearning_steps=tuple(timedelta(seconds=s) for s in relearning),
        maximum_interval=maximum,
        enable_fuzzing=False,
    )


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


@dataclass(slots=True)
class CardState:
    """A card's scheduling state: the ``fsrs.Card`` plus what FSRS doesn't track.

    ``reps`` counts answers, ``lapses`` Again answers on a card in review;
    ``leech`` is set after ``leech_threshold`` lapses; a ``suspended`` card is
    never due; ``buried_until`` hides it until that instant. ``first_review``
    is when the card was first studied (``None`` while new).
    """

    card_id: str
    card: fsrs.Card
    reps: int = 0
    lapses: int = 0
    leech: bool = False
    flagged: bool = False
    suspended: bool = False
    buried_until: datetime | None = None
    first_review: datetime | None = None

    @classmethod
    def new(cls, key: CardKey, now: datetime) -> CardState:
        """A card never studied, due at ``now``."""
        return cls(card_id=key.id, card=fsrs.Card(card_id=key.int_id, due=to_utc(now)))

    @property
    def key(self) -> CardKey:
        """The parsed card key."""
        return CardKey.parse(self.card_id)

    @property
    def is_new(self) -> bool:
        """Never answered."""
        return self.reps == 0

    @property
    def phase(self) -> CardPhase:
        """``new``, ``learning``, ``review`` or ``relearning``."""
        return "new" if self.reps == 0 else _PHASES[self.card.state]

    @property
    def due(self) -> datetime:
        """When FSRS wants the card back (UTC)."""
        return self.card.due

    @property
    def last_review(self) -> datetime | None:
        """When the card was last answered (UTC)."""
        return self.card.last_review

    @property
    def stability(self) -> float | None:
        """FSRS stability in days."""
        return self.card.stability

    @property
    def difficulty(self) -> float | None:
        """FSRS difficulty, 1-10."""
        return self.card.difficulty

    @property
    def scheduled_days(self) -> float:
        """The interval the card is currently scheduled on (0 while new or learning)."""
        if self.card.last_review is None or self.phase != "review":
            return 0.0
        return (self.card.due - self.card.last_review).total_seconds() / 86400

    def copy(self) -> CardState:
        """An independent copy (the fsrs card is mutable; its fields are immutable values)."""
        return replace(self, card=copy.copy(self.card))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (ISO 8601 UTC times)."""
        c = self.card
        return {
            "card_id": self.card_id,
            "state": int(c.state.value),
            "step": c.step,
            "stability": c.stability,
            "difficulty": c.difficulty,
            "due": c.due.isoformat(),
            "last_review": _iso(c.last_review),
            "reps": self.reps,
            "lapses": self.lapses,
            "leech": self.leech,
            "flagged": self.flagged,
            "suspended": self.suspended,
            "buried_until": _iso(self.buried_until),
            "first_review": _iso(self.first_review),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardState:
        """Inverse of :meth:`to_dict`; the fsrs card id is rederived from the card id."""
        card_id = data["card_id"]
        key = CardKey.parse(card_id)
        stability = data.get("stability")
        difficulty = data.get("difficulty")
        card = fsrs.Card(
            card_id=key.int_id,
            state=fsrs.State(int(data.get("state", 1))),
            step=data.get("step"),
            stability=float(stability) if stability is not None else None,
            difficulty=float(difficulty) if difficulty is not None else None,
            due=datetime.fromisoformat(data["due"]),
            last_review=_dt(data.get("last_review")),
        )
        return cls(
            card_id=card_id,
            card=card,
            reps=int(data.get("reps", 0)),
            lapses=int(data.get("lapses", 0)),
            leech=bool(data.get("leech", False)),
            flagged=bool(data.get("flagged", False)),
            suspended=bool(data.get("suspended", False)),
            buried_until=_dt(data.get("buried_until")),
            first_review=_dt(data.get("first_review")),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one answer did: the new state and the numbers the review log keeps."""

    state: CardState
    phase: CardPhase
    last_interval_days: float
    interval_days: float
    became_leech: bool


def _fuzz_days(days: int, maximum: int, rng: random.Random) -> int:
    """FSRS's fuzz (a few % around the interval), drawn from ``rng``."""
    if days < 2.5:
        return days
    delta = 1.0
    for start, end, factor in _FUZZ_RANGES:
        delta += factor * max(min(float(days), end) - start, 0.0)
    lo = max(2, round(days - delta))
    hi = min(round(days + delta), maximum)
    lo = min(lo, hi)
    return min(round(rng.random() * (hi - lo + 1) + lo), maximum)


def answer(
    state: CardState,
    grade: Grade,
    now: datetime,
    settings: SchedulerSettings,
    rng: random.Random | None = None,
) -> Outcome:
    """Apply one answer (1 Again, 2 Hard, 3 Good, 4 Easy) at ``now``; ``state`` is not changed.

    Counts lapses (Again on a card in review) and marks leeches: at
    ``leech_threshold`` lapses and again every ``leech_every`` more, the card is
    suspended or flagged as configured. ``rng`` draws the fuzz; without one (or
    with fuzz off) intervals are exact.
    """
    if grade not in (1, 2, 3, 4):
        raise ValueError(f"grade must be 1-4, got {grade!r}")
    now = to_utc(now)
    phase = state.phase
    last_interval = state.scheduled_days
    card, _ = settings.fsrs_scheduler().review_card(state.card, fsrs.Rating(grade), now)
    if settings.fuzz and rng is not None and card.state == fsrs.State.Review:
        days = round((card.due - now).total_seconds() / 86400)
        card.due = now + timedelta(days=_fuzz_days(days, settings.maximum_interval_days, rng))
    new = replace(
        state,
        card=card,
        reps=state.reps + 1,
        buried_until=None,
        first_review=state.first_review or now,
    )
    became_leech = False
    if grade == 1 and phase == "review":
        new.lapses += 1
        over = new.lapses - settings.leech_threshold
        if over >= 0 and over % settings.leech_every == 0:
            became_leech = True
            new.leech = True
            if settings.leech_action == "suspend":
                new.suspended = True
            else:
                new.flagged = True
    interval = (card.due - now).total_seconds() / 86400
    return Outcome(new, phase, last_interval, interval, became_leech)


def preview(state: CardState, now: datetime, settings: SchedulerSettings) -> dict[int, timedelta]:
    """The interval each grade (1-4) would give at ``now``, without fuzz (for button labels)."""
    now = to_utc(now)
    out: dict[int, timedelta] = {}
    for grade in (1, 2, 3, 4):
        card, _ = settings.fsrs_scheduler().review_card(state.card, fsrs.Rating(grade), now)
        out[grade] = card.due - now
    return out


def next_due(states: Iterable[CardState], now: datetime) -> datetime | None:
    """When the earliest studied, unsuspended card not yet due at ``now`` comes back.

    A buried card comes back at the later of its due time and its bury's end.
    ``None`` when no such card is scheduled.
    """
    upcoming = [
        max(s.due, s.buried_until) if s.buried_until else s.due
        for s in states
        if not s.suspended and not s.is_new
    ]
    later = [d for d in upcoming if d > now]
    return min(later) if later else None


def format_interval(delta: timedelta) -> str:
    """A short button label for an interval: ``"1m"``, ``"3h"``, ``"4d"``, ``"2.5mo"``."""
    seconds = max(0.0, delta.total_seconds())
    if seconds < 3600:
        return f"{max(1, round(seconds / 60))}m"
    if seconds < 86400:
        return f"{round(seconds / 3600)}h"
    days = seconds / 86400
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo".replace(".0mo", "mo")
    return f"{days / 365:.1f}y".replace(".0y", "y")


@dataclass(frozen=True, slots=True)
class DueQueue:
    """The cards to study now for one deck, in the order to show them.

    ``learning``: learning/relearning cards whose step is due; ``review``: review
    cards due today (limited); ``new``: cards to introduce (limited).
    ``next_learning_due`` is when the next learning card not yet due comes back.
    ``new_left``/``reviews_left`` are what today's limits still allow.
    """

    learning: tuple[CardKey, ...] = ()
    review: tuple[CardKey, ...] = ()
    new: tuple[CardKey, ...] = ()
    next_learning_due: datetime | None = None
    new_left: int = 0
    reviews_left: int = 0
    buried: tuple[CardKey, ...] = field(default=())

    @property
    def cards(self) -> tuple[CardKey, ...]:
        """All cards: learning first, then reviews, then new."""
        return self.learning + self.review + self.new

    def __len__(self) -> int:
        return len(self.learning) + len(self.review) + len(self.new)


@dataclass(frozen=True, slots=True)
class TodayCounts:
    """Answers given in one deck during the current study day, by the phase the card was in."""

    new: int = 0
    review: int = 0
    learning: int = 0


def count_today(
    answers: Iterable[tuple[str, datetime, CardPhase]],
    deck: str,
    now: datetime,
    tz: tzinfo,
    settings: SchedulerSettings,
) -> TodayCounts:
    """Count ``(card_id, reviewed_at, phase)`` answers of ``deck`` in the study day of ``now``."""
    start, end = day_bounds(to_utc(now), tz, settings.day_start_hour)
    prefix = deck + "/"
    new = review = learning = 0
    for card_id, at, phase in answers:
        if not card_id.startswith(prefix) or not start <= at < end:
            continue
        if phase == "new":
            new += 1
        elif phase == "review":
            review += 1
        else:
            learning += 1
    return TodayCounts(new=new, review=review, learning=learning)


def _new_rank(key: CardKey, day: str) -> bytes:
    # A per-day shuffle that needs no rng and stays put between calls on one day.
    return hashlib.blake2b(f"{day}|{key.id}".encode(), digest_size=8).digest()


def due_queue(
    candidates: Sequence[CardKey],
    states: Mapping[str, CardState],
    now: datetime,
    tz: tzinfo,
    settings: SchedulerSettings,
    today: TodayCounts | None = None,
) -> DueQueue:
    """Choose what to study now among ``candidates`` (a deck's cards in deck order).

    ``states`` may hold more cards than the candidates (other language pairs of
    the same concepts): they count for sibling burying.
    A card without a state is new. Suspended cards and cards buried until after
    ``now`` are skipped. Review cards are due when their due time falls before
    the end of the current study day; learning cards when their step is due.
    With ``bury_siblings``, once any card of a concept was answered today the
    concept's other cards wait until the next study day (the answered card
    itself keeps its learning steps). ``today`` holds the deck's answers so far
    today, counted against the daily limits.
    """
    now = to_utc(now)
    today = today or TodayCounts()
    hour = settings.day_start_hour
    start, end = day_bounds(now, tz, hour)
    # The card of each concept answered most recently today: its siblings are buried.
    # Every state given counts, not only the candidates': a card answered today in another
    # language pair buries its concept's cards here too.
    keeper: dict[str, tuple[datetime, str]] = {}
    if settings.bury_siblings:
        for card_id, st in states.items():
            last = st.last_review
            if last is not None and last >= start:
                concept = card_id.split("|", 1)[0]
                best = keeper.get(concept)
                if best is None or last > best[0]:
                    keeper[concept] = (last, card_id)
    learning: list[tuple[datetime, CardKey]] = []
    review: list[tuple[datetime, CardKey]] = []
    new: list[CardKey] = []
    buried: list[CardKey] = []
    next_learning: datetime | None = None
    for key in candidates:
        st = states.get(key.id)
        if st is not None and st.suspended:
            continue
        kept = keeper.get(key.concept_uid)
        if (kept is not None and kept[1] != key.id) or (
            st is not None and st.buried_until is not None and st.buried_until > now
        ):
            buried.append(key)
            continue
        if st is None or st.is_new:
            new.append(key)
        elif st.card.state == fsrs.State.Review:
            if st.due < end:
                review.append((st.due, key))
        elif st.due <= now:
            learning.append((st.due, key))
        elif next_learning is None or st.due < next_learning:
            next_learning = st.due
    new_left = max(0, settings.new_per_day - today.new)
    reviews_left = max(0, settings.reviews_per_day - today.review)
    if settings.new_order == "random":
        day = start.isoformat()
        new.sort(key=lambda k: _new_rank(k, day))
    review.sort(key=lambda item: (item[0], item[1].id))
    learning.sort(key=lambda item: (item[0], item[1].id))
    learn_keys = [k for _, k in learning]
    review_keys = [k for _, k in review]
    if settings.bury_siblings:
        # One card per concept per study day: its siblings would be buried after it anyway.
        seen: set[str] = set()
        learn_keys = _first_per_concept(learn_keys, seen)
        review_keys = _first_per_concept(review_keys, seen)
        new = _first_per_concept(new, seen)
    return DueQueue(
        learning=tuple(learn_keys),
        review=tuple(review_keys[:reviews_left]),
        new=tuple(new[:new_left]),
        next_learning_due=next_learning,
        new_left=new_left,
        reviews_left=reviews_left,
        buried=tuple(buried),
    )


def _first_per_concept(keys: list[CardKey], seen: set[str]) -> list[CardKey]:
    out: list[CardKey] = []
    for key in keys:
        if key.concept_uid not in seen:
            seen.add(key.concept_uid)
            out.append(key)
    return out


def bury_until(now: datetime, tz: tzinfo, settings: SchedulerSettings) -> datetime:
    """When a card buried at ``now`` comes back: the start of the next study day."""
    return next_day_start(to_utc(now), tz, settings.day_start_hour)
