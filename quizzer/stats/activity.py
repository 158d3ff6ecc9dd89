"""Figures by study day: today's study, the streak and the answers per day (the heatmap).

Each answer's study day is computed once (:func:`~quizzer.stats.days.dated_reviews`)
and counted in a :class:`~quizzer.stats.tally.Tally`; the figures read the tally.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import date, datetime, timedelta, tzinfo

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.stats.definitions import HEATMAP_DAYS, pass_rate
from quizzer.stats.figures import DayCount, Streak, Today
from quizzer.stats.tally import DeckTally, Tally, tally_of


def today_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Today:
    """Cards studied, answers, pass rate and time spent on the current study day."""
    today = study_day(now, tz, day_start_hour)
    tally = tally_of(reviews, tz, day_start_hour, today)
    return today_on(tally, tally.deck(), today)


def today_on(
    tally: Tally, deck: DeckTally, day: date, deck_ids: Collection[str] | None = None
) -> Today:
    """:func:`today_stats` from a tally: ``deck`` is ``tally``'s summed for ``deck_ids``."""
    counts = deck.days.get(day.toordinal())
    if counts is None:
        return Today(day, 0, 0, 0, None, 0)
    return Today(
        day,
        tally.cards_on(day, deck_ids),
        counts.reviews,
        counts.passed,
        pass_rate(counts.passed, counts.reviews),
        counts.time_ms,
    )


def streak_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Streak:
    """Current and longest run of consecutive study days with at least one answer."""
    tally = tally_of(reviews, tz, day_start_hour).deck()
    return streak_on(tally, study_day(now, tz, day_start_hour))


def streak_on(deck: DeckTally, today: date) -> Streak:
    """:func:`streak_stats` from a deck's tally, ``today`` being the current study day."""
    last = today.toordinal()
    days = {d for d in deck.days if d <= last}  # answers "from the future" don't extend a streak
    studied_today = last in days
    current = 0
    cursor = last if studied_today else last - 1
    while cursor in days:
        current += 1
        cursor -= 1
    longest = run = 0
    previous: int | None = None
    for d in sorted(days):
        run = run + 1 if previous is not None and d - previous == 1 else 1
        longest = max(longest, run)
        previous = d
    return Streak(current, longest, studied_today, len(days))


def reviews_per_day(
    reviews: Iterable[Review],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    days: int = HEATMAP_DAYS,
) -> tuple[DayCount, ...]:
    """One entry per study day for the last ``days`` days, oldest first, today last."""
    tally = tally_of(reviews, tz, day_start_hour).deck()
    return per_day(tally, study_day(now, tz, day_start_hour), days)


def per_day(deck: DeckTally, today: date, days: int = HEATMAP_DAYS) -> tuple[DayCount, ...]:
    """:func:`reviews_per_day` from a deck's tally, ``today`` being the current study day."""
    first = today - timedelta(days=days - 1)
    out = []
    for i in range(days):
        d = first + timedelta(days=i)
        counts = deck.days.get(d.toordinal())
        out.append(DayCount(d, counts.reviews, counts.time_ms) if counts else DayCount(d, 0, 0))
    return tuple(out)
