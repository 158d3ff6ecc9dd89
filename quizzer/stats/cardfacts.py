"""What the statistics read of each card state, as a :class:`CardFact` that outlives the day.

Every per-card figure (cards by state, the due forecast, recall now for the mastery
table and the summaries, the mature cards) needs only a few values of a card's
state: its bucket (new, learning, young, mature, relearning, suspended), whether it
is a leech, its FSRS stability, and the study days of its last answer and of its due
date. None of them depends on the clock: recall now is the forgetting curve at the
number of study days since the last answer (:func:`recalls_on`), the forecast counts
due days from today. So a card's fact is computed once from its state and kept until
the state changes (the store's state cache, :mod:`quizzer.progress.statecache`, keeps
the statistics' tally between runs, and only the answers since are counted again); the
rules live here, once, for
:func:`~quizzer.stats.cards.state_counts`, :func:`~quizzer.stats.cards.due_forecast`,
:func:`recalls` and the summaries alike.

Means of recall are summed with :func:`math.fsum` (exactly rounded, so in any order
of the cards: a table updated card by card gives the figures counted afresh).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, tzinfo
from typing import NamedTuple

from fsrs.scheduler import DEFAULT_PARAMETERS as FSRS_DEFAULT_PARAMETERS

from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR
from quizzer.stats.days import StudyDays
from quizzer.stats.definitions import FORECAST_DAYS, MATURE_DAYS
from quizzer.stats.figures import Forecast, StateCounts

#: The buckets of :class:`~quizzer.stats.figures.StateCounts`, each card in one.
BUCKETS = ("new", "learning", "young", "mature", "relearning", "suspended")


class CardFact(NamedTuple):
    """What the statistics read of one card's state (see the module's docstring)."""

    bucket: str
    leech: bool
    #: FSRS stability, ``None`` for a card with no recall (never answered).
    stability: float | None
    #: The study day (ordinal) of the last answer, ``None``: never answered.
    last_day: int | None
    #: The study day (ordinal) the card falls due, ``None`` for new and suspended cards.
    due_day: int | None
    #: Counted in the summaries (a card answered, or not new).
    listed: bool

    def to_line(self) -> str:
        """As one line of text (:meth:`from_line` reads it back; floats exactly)."""
        return "\t".join(
            (
                self.bucket,
                "1" if self.leech else "",
                "" if self.stability is None else repr(self.stability),
                "" if self.last_day is None else str(self.last_day),
                "" if self.due_day is None else str(self.due_day),
                "1" if self.listed else "",
            )
        )

    @classmethod
    def from_line(cls, line: str) -> CardFact:
        """Back from :meth:`to_line`; ``ValueError`` if ``line`` isn't one."""
        bucket, leech, stability, last_day, due_day, listed = line.split("\t")
        if bucket not in BUCKETS:
            raise ValueError(f"not a card's bucket: {bucket!r:.20}")
        return cls(
            bucket,
            bool(leech),
            float(stability) if stability else None,
            int(last_day) if last_day else None,
            int(due_day) if due_day else None,
            bool(listed),
        )


def bucket_of(card: CardState) -> str:
    """The card's bucket: suspended first, a card in review young or mature by its interval."""
    if card.suspended:
        return "suspended"
    phase = card.phase
    if phase == "review":
        return "mature" if card.scheduled_days >= MATURE_DAYS else "young"
    return phase


def in_summaries(card: CardState) -> bool:
    """Whether the summaries list ``card``: every card but one never studied, with no
    answer counted and no last review (the one rule for ``fact_of`` and ``summaries_by``)."""
    return not (card.is_new and card.last_review is None)


def fact_of(card: CardState, days: StudyDays) -> CardFact:
    """The fact of ``card``, study days counted by ``days``."""
    bucket = bucket_of(card)
    last = card.last_review
    stability = card.stability if last is not None else None
    return CardFact(
        bucket,
        card.leech,
        stability,
        None if last is None else days.of(last).toordinal(),
        None if bucket in ("new", "suspended") else days.of(card.due).toordinal(),
        in_summaries(card),
    )


def facts_of(
    cards: Iterable[CardState], tz: tzinfo | None, day_start_hour: int
) -> dict[str, CardFact]:
    """Each card's fact by card id, study days in ``tz`` from ``day_start_hour``."""
    days = StudyDays(tz, day_start_hour)
    return {card.card_id: fact_of(card, days) for card in cards}


def bucket_counts(cards: Iterable[tuple[str, bool]], unseen_new: int = 0) -> StateCounts:
    """Cards by state from each card's ``(bucket, leech)``; ``unseen_new`` adds cards of the
    decks not in the store yet."""
    counts: Counter[str] = Counter()
    leeches = 0
    for bucket, leech in cards:
        counts[bucket] += 1
        leeches += leech
    return StateCounts(
        new=counts["new"] + unseen_new,
        learning=counts["learning"],
        young=counts["young"],
        mature=counts["mature"],
        relearning=counts["relearning"],
        suspended=counts["suspended"],
        leeches=leeches,
    )


def forecast_on(due_days: Iterable[int | None], today: date, days: int = FORECAST_DAYS) -> Forecast:
    """Cards falling due on each of the next ``days`` study days from each card's due day
    (an ordinal; ``None``: no due date); overdue ones count today."""
    start = today.toordinal()
    buckets = [0] * days
    overdue = 0
    for due in due_days:
        if due is None:
            continue
        offset = due - start
        if offset < 0:
            overdue += 1
            offset = 0
        if offset < days:
            buckets[offset] += 1
    return Forecast(today, tuple(buckets), overdue)


def retrievability(
    stability: float, elapsed_days: float, parameters: Sequence[float] | None = None
) -> float:
    """FSRS-6 probability of recall after ``elapsed_days`` for a memory of ``stability`` days.

    The forgetting curve of ``fsrs.Scheduler.get_card_retrievability``:
    ``R = (1 + FACTOR * t / S) ** DECAY`` with ``DECAY = -w[20]`` and
    ``FACTOR = 0.9 ** (1 / DECAY) - 1`` (so that R = 0.9 when t = S).
    """
    params = FSRS_DEFAULT_PARAMETERS if parameters is None else parameters
    decay = -float(params[20])
    factor = 0.9 ** (1 / decay) - 1
    if stability <= 0:
        return 0.0
    return math.pow(1 + factor * max(0.0, elapsed_days) / stability, decay)


def recalls_on(
    facts: Mapping[str, CardFact], today: date, parameters: Sequence[float] | None = None
) -> dict[str, float]:
    """Each answered card's retrievability on study day ``today``, by card id."""
    day = today.toordinal()
    out: dict[str, float] = {}
    for card_id, fact in facts.items():
        if fact.stability is None or fact.last_day is None:
            continue
        out[card_id] = retrievability(fact.stability, max(0, day - fact.last_day), parameters)
    return out


def recalls(
    cards: Iterable[CardState],
    now: datetime,
    parameters: Sequence[float] | None = None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
) -> dict[str, float]:
    """Each reviewed card's retrievability at ``now``, by card id.

    :func:`~quizzer.stats.mastery.card_retrievability` for many cards at once:
    :func:`recalls_on` of their facts.
    """
    today = StudyDays(tz, day_start_hour).of(now)
    return recalls_on(facts_of(cards, tz, day_start_hour), today, parameters)


def mean(values: Sequence[float]) -> float:
    """The mean of ``values`` (not empty), summed exactly: the same in any order."""
    n = len(values)
    if n <= 2:  # one float addition is already the exactly rounded sum
        return sum(values) / n
    return math.fsum(values) / n
