"""What the card states say now: how many cards are in each state, and when they fall due."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime, tzinfo

from quizzer.scheduling.card_state import CardState
from quizzer.stats.days import StudyDays
from quizzer.stats.definitions import FORECAST_DAYS, MATURE_DAYS
from quizzer.stats.figures import Forecast, StateCounts


def state_counts(cards: Iterable[CardState], unseen_new: int = 0) -> StateCounts:
    """Cards by state; ``unseen_new`` adds cards that exist in decks but not yet in the store."""
    counts: Counter[str] = Counter()
    for card in cards:
        if card.leech:
            counts["leeches"] += 1
        if card.suspended:
            counts["suspended"] += 1
            continue
        phase = card.phase
        if phase == "review":
            counts["mature" if card.scheduled_days >= MATURE_DAYS else "young"] += 1
        else:
            counts[phase] += 1
    return StateCounts(
        new=counts["new"] + unseen_new,
        learning=counts["learning"],
        young=counts["young"],
        mature=counts["mature"],
        relearning=counts["relearning"],
        suspended=counts["suspended"],
        leeches=counts["leeches"],
    )


def due_forecast(
    cards: Iterable[CardState],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    days: int = FORECAST_DAYS,
) -> Forecast:
    """Cards falling due on each of the next ``days`` study days (overdue ones count today).

    New and suspended cards have no due date for this purpose and are left out.
    """
    study_days = StudyDays(tz, day_start_hour)  # study_day's rule, for many cards
    today = study_days.of(now)
    buckets = [0] * days
    overdue = 0
    for card in cards:
        if card.suspended or card.is_new:
            continue
        offset = (study_days.of(card.due) - today).days
        if offset < 0:
            overdue += 1
            offset = 0
        if offset < days:
            buckets[offset] += 1
    return Forecast(today, tuple(buckets), overdue)
