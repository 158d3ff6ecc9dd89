"""What the card states say now: how many cards are in each state, and when they fall due.

The rules are :mod:`quizzer.stats.cardfacts`' (shared with the figures kept per card).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, tzinfo

from quizzer.scheduling.card_state import CardState
from quizzer.stats.cardfacts import bucket_counts, bucket_of, fact_of, forecast_on
from quizzer.stats.days import StudyDays
from quizzer.stats.definitions import FORECAST_DAYS
from quizzer.stats.figures import Forecast, StateCounts


def state_counts(cards: Iterable[CardState], unseen_new: int = 0) -> StateCounts:
    """Cards by state; ``unseen_new`` adds cards that exist in decks but not yet in the store.

    Suspended cards are counted only as suspended; leeches are counted besides their state.
    """
    return bucket_counts(((bucket_of(card), card.leech) for card in cards), unseen_new)


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
    due = (fact_of(card, study_days).due_day for card in cards)
    return forecast_on(due, study_days.of(now), days)
