"""Today's answers in a deck, counted against the daily limits of new cards and reviews."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo

from quizzer.scheduling.grades import CardPhase
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.scheduling.studyday import day_bounds, to_utc


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
