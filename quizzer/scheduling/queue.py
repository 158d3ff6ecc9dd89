"""What to study now in a deck: the due queue, new-card order, sibling burying, the direction
ladder, daily limits.

Pure: ``now`` (UTC), the learner's time zone and the settings are arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from hashlib import blake2b
from typing import TYPE_CHECKING, NamedTuple

import fsrs

from quizzer.cards.card import CardKey
from quizzer.scheduling.limits import TodayCounts
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.scheduling.studyday import day_bounds, next_day_start, to_utc

if TYPE_CHECKING:
    from quizzer.scheduling.card_state import CardState


@dataclass(frozen=True, slots=True)
class DueQueue:
    """The cards to study now for one deck, in the order to show them.

    ``learning``: learning/relearning cards whose step is due; ``review``: review
    cards due today (limited); ``new``: cards to introduce (limited).
    ``next_learning_due`` is when the next learning card not yet due comes back.
    ``new_left``/``reviews_left`` are what today's limits still allow.
    ``buried``: cards buried until a later moment (by hand, or for a sibling answered today).
    ``siblings``: cards held until the next study day because a card of the same concept is
    answered or served today. ``ladder``: new cards of a later direction waiting for the
    concept's card in an earlier direction to be known (:func:`due_queue_of_facts`).
    """

    learning: tuple[CardKey, ...] = ()
    review: tuple[CardKey, ...] = ()
    new: tuple[CardKey, ...] = ()
    next_learning_due: datetime | None = None
    new_left: int = 0
    reviews_left: int = 0
    buried: tuple[CardKey, ...] = field(default=())
    siblings: tuple[CardKey, ...] = field(default=())
    ladder: tuple[CardKey, ...] = field(default=())

    @property
    def cards(self) -> tuple[CardKey, ...]:
        """All cards: learning first, then reviews, then new."""
        return self.learning + self.review + self.new

    def __len__(self) -> int:
        return len(self.learning) + len(self.review) + len(self.new)


def _new_rank(card_id: str, day: str) -> bytes:
    # A per-day shuffle that needs no rng and stays put between calls on one day.
    return blake2b(f"{day}|{card_id}".encode(), digest_size=8).digest()


class QueueFacts(NamedTuple):
    """What choosing the queue reads of one card's state (:func:`facts_of`), and no more:
    a store can give them from its records without building every :class:`CardState`."""

    new: bool
    review: bool  # in FSRS's Review state (else learning or relearning, when not new)
    due: datetime
    last_review: datetime | None
    suspended: bool
    buried_until: datetime | None
    #: FSRS stability in days (``None``: not read; the direction ladder then estimates it
    #: from the interval, :func:`stability_of`).
    stability: float | None = None


def facts_of(state: CardState) -> QueueFacts:
    """The :class:`QueueFacts` of a card state."""
    return QueueFacts(
        state.is_new,
        state.card.state == fsrs.State.Review,
        state.card.due,
        state.card.last_review,
        state.suspended,
        state.buried_until,
        state.card.stability,
    )


def stability_of(facts: QueueFacts, settings: SchedulerSettings) -> float | None:
    """A review card's stability in days: its own when the facts hold it, else the one its
    interval implies (FSRS-6 gives a review card the interval in which its recall falls to
    the desired retention: at 0.9, the stability itself; within the fuzz and day rounding).
    ``None`` for a card not in review or never answered."""
    if not facts.review or facts.last_review is None:
        return None
    if facts.stability is not None:
        return facts.stability
    interval = (facts.due - facts.last_review).total_seconds() / 86400
    decay = -settings.parameters[20]
    factor: float = 0.9 ** (1 / decay) - 1
    spread: float = settings.desired_retention ** (1 / decay) - 1
    return interval * factor / spread


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

    The direction ladder (``ladder_days`` above 0): when the candidates hold several
    directions, their order is the order in which each direction first appears among the
    candidates (the order the learner picked them). A concept's new card in a later direction
    waits until its cards in every earlier direction are known: in review with a stability
    of at least ``ladder_days`` (a suspended earlier card holds nothing back).
    """
    facts = {card_id: facts_of(state) for card_id, state in states.items()}
    return due_queue_of_facts(candidates, facts, now, tz, settings, today)


def due_queue_of_facts(
    candidates: Sequence[CardKey],
    facts: Mapping[str, QueueFacts],
    now: datetime,
    tz: tzinfo,
    settings: SchedulerSettings,
    today: TodayCounts | None = None,
    ids: Sequence[str] | None = None,
) -> DueQueue:
    """:func:`due_queue` over each card's :class:`QueueFacts` (the one rule of both);
    ``ids`` are the candidates' ids when the caller has them (``CardKey.id`` builds one)."""
    now = to_utc(now)
    today = today or TodayCounts()
    hour = settings.day_start_hour
    start, end = day_bounds(now, tz, hour)
    # The card of each concept answered most recently today: its siblings are buried.
    # Every state given counts, not only the candidates': a card answered today in another
    # language pair buries its concept's cards here too.
    keeper: dict[str, tuple[datetime, str]] = {}
    if settings.bury_siblings:
        for card_id, answered in facts.items():
            last = answered.last_review
            if last is not None and last >= start:
                concept = card_id.split("|", 1)[0]
                best = keeper.get(concept)
                if best is None or last > best[0]:
                    keeper[concept] = (last, card_id)
    learning: list[tuple[datetime, str, CardKey]] = []
    review: list[tuple[datetime, str, CardKey]] = []
    new: list[tuple[str, CardKey]] = []
    buried: list[CardKey] = []
    siblings: list[CardKey] = []
    waiting: list[CardKey] = []
    next_learning: datetime | None = None
    ids = ids or [k.id for k in candidates]
    earlier = _earlier_directions(candidates, ids) if settings.ladder_days > 0 else None
    for key, card_id in zip(candidates, ids, strict=True):
        st = facts.get(card_id)
        if st is not None and st.suspended:
            continue
        fresh = st is None or st.new
        # The ladder's wait outlasts a sibling's day: it is the reason given.
        if fresh and earlier and not _ladder_open(earlier.get(card_id, ()), facts, settings):
            waiting.append(key)
            continue
        kept = keeper.get(key.concept_uid) if keeper else None
        if kept is not None and kept[1] != card_id:
            buried.append(key)
            siblings.append(key)
            continue
        if st is not None and st.buried_until is not None and st.buried_until > now:
            buried.append(key)
            continue
        if st is None or st.new:
            new.append((card_id, key))
        elif st.review:
            if st.due < end:
                review.append((st.due, card_id, key))
        elif st.due <= now:
            learning.append((st.due, card_id, key))
        elif next_learning is None or st.due < next_learning:
            next_learning = st.due
    new_left = max(0, settings.new_per_day - today.new)
    reviews_left = max(0, settings.reviews_per_day - today.review)
    if settings.new_order == "random":
        day = start.isoformat()
        new.sort(key=lambda item: _new_rank(item[0], day))
    # (due, id) orders them: the key itself never needs comparing.
    review.sort(key=lambda item: (item[0], item[1]))
    learning.sort(key=lambda item: (item[0], item[1]))
    learn_keys = [k for _, _, k in learning]
    review_keys = [k for _, _, k in review]
    new_keys = [k for _, k in new]
    if settings.bury_siblings:
        # One card per concept per study day: its siblings would be buried after it anyway.
        seen: set[str] = set()
        learn_keys = _first_per_concept(learn_keys, seen, siblings)
        review_keys = _first_per_concept(review_keys, seen, siblings)
        new_keys = _first_per_concept(new_keys, seen, siblings)
    return DueQueue(
        learning=tuple(learn_keys),
        review=tuple(review_keys[:reviews_left]),
        new=tuple(new_keys[:new_left]),
        next_learning_due=next_learning,
        new_left=new_left,
        reviews_left=reviews_left,
        buried=tuple(buried),
        siblings=tuple(siblings),
        ladder=tuple(waiting),
    )


def _first_per_concept(keys: list[CardKey], seen: set[str], held: list[CardKey]) -> list[CardKey]:
    out: list[CardKey] = []
    for key in keys:
        if key.concept_uid not in seen:
            seen.add(key.concept_uid)
            out.append(key)
        else:
            held.append(key)
    return out


def _earlier_directions(
    candidates: Sequence[CardKey], ids: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """For each candidate of a later direction, its concept's candidates (ids) in the
    earlier directions; empty when the candidates hold one direction."""
    rank: dict[object, int] = {}
    for key in candidates:
        rank.setdefault(key.pair, len(rank))
    if len(rank) < 2:
        return {}
    rungs: dict[str, list[tuple[int, str]]] = {}
    for key, card_id in zip(candidates, ids, strict=True):
        rungs.setdefault(key.concept_uid, []).append((rank[key.pair], card_id))
    out: dict[str, tuple[str, ...]] = {}
    for cards in rungs.values():
        if len(cards) > 1:
            for r, card_id in cards:
                below = tuple(other for r2, other in cards if r2 < r)
                if below:
                    out[card_id] = below
    return out


def _ladder_open(
    earlier: Sequence[str], facts: Mapping[str, QueueFacts], settings: SchedulerSettings
) -> bool:
    """Whether every card of ``earlier`` is known (or suspended): the next rung may start."""
    for card_id in earlier:
        st = facts.get(card_id)
        if st is None:
            return False
        if st.suspended:
            continue
        stability = stability_of(st, settings)
        if stability is None or stability < settings.ladder_days:
            return False
    return True


def bury_until(now: datetime, tz: tzinfo, settings: SchedulerSettings) -> datetime:
    """When a card buried at ``now`` comes back: the start of the next study day."""
    return next_day_start(to_utc(now), tz, settings.day_start_hour)


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
