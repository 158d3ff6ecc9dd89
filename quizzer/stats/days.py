"""Figures by study day: today's study, the streak and the answers per day (the heatmap).

Each review's study day is computed once (:func:`dated_reviews`) and shared by the figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta, tzinfo

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.stats.definitions import HEATMAP_DAYS, pass_rate
from quizzer.stats.figures import DayCount, Streak, Today

#: A review with its study day, computed once (time-zone conversion is the costly part).
Dated = tuple[Review, date]


_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_DAY_S = 86400


def _offset_s(tz: tzinfo | None, timestamp: int) -> int:
    """UTC offset of ``tz`` at a POSIX ``timestamp``, in seconds."""
    offset = datetime.fromtimestamp(timestamp, UTC).astimezone(tz).utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def dated_reviews(reviews: Iterable[Review], tz: tzinfo | None, day_start_hour: int) -> list[Dated]:
    """Each review with its study day: :func:`study_day`'s rule, computed faster.

    Converting every answer to local time is most of the cost of the statistics
    (more so with the system zone, which asks the C library each time). The
    offset is looked up once per UTC day instead, and used for the whole day
    when it is the same at both ends of it; a day with a change of offset
    (daylight saving time) falls back to :func:`study_day` for each answer.
    """
    offsets: dict[int, int | None] = {}
    days: dict[int, date] = {}
    shift = day_start_hour * 3600
    dated: list[Dated] = []
    for r in reviews:
        moment = r.reviewed_at
        if moment.tzinfo is None:  # study_day says what's wrong with it
            dated.append((r, study_day(moment, tz, day_start_hour)))
            continue
        stamp = moment.timestamp()
        utc_day = int(stamp // _DAY_S)
        if utc_day in offsets:
            offset = offsets[utc_day]
        else:
            first = _offset_s(tz, utc_day * _DAY_S)
            offset = first if first == _offset_s(tz, utc_day * _DAY_S + _DAY_S - 1) else None
            offsets[utc_day] = offset
        if offset is None:
            dated.append((r, study_day(moment, tz, day_start_hour)))
        else:
            local_day = int((stamp + offset - shift) // _DAY_S)
            day = days.get(local_day)
            if day is None:
                day = days[local_day] = date.fromordinal(_EPOCH_ORDINAL + local_day)
            dated.append((r, day))
    return dated


def today_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Today:
    """Cards studied, answers, pass rate and time spent on the current study day."""
    return today_on(dated_reviews(reviews, tz, day_start_hour), study_day(now, tz, day_start_hour))


def today_on(dated: Iterable[Dated], day: date) -> Today:
    """:func:`today_stats` over reviews already dated, for the study day ``day``."""
    cards: set[str] = set()
    count = passed = time_ms = 0
    for r, d in dated:
        if d != day:
            continue
        cards.add(r.card_id)
        count += 1
        passed += r.passed
        time_ms += r.duration_ms
    return Today(day, len(cards), count, passed, pass_rate(passed, count), time_ms)


def streak_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Streak:
    """Current and longest run of consecutive study days with at least one answer."""
    return streak_on(dated_reviews(reviews, tz, day_start_hour), study_day(now, tz, day_start_hour))


def streak_on(dated: Iterable[Dated], today: date) -> Streak:
    """:func:`streak_stats` over reviews already dated, ``today`` being the current study day."""
    days = {d for _, d in dated if d <= today}  # answers "from the future" don't extend a streak
    studied_today = today in days
    current = 0
    cursor = today if studied_today else today - timedelta(days=1)
    while cursor in days:
        current += 1
        cursor -= timedelta(days=1)
    longest = run = 0
    previous: date | None = None
    for d in sorted(days):
        run = run + 1 if previous is not None and d - previous == timedelta(days=1) else 1
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
    return per_day(
        dated_reviews(reviews, tz, day_start_hour), study_day(now, tz, day_start_hour), days
    )


def per_day(dated: Iterable[Dated], today: date, days: int = HEATMAP_DAYS) -> tuple[DayCount, ...]:
    """:func:`reviews_per_day` over reviews already dated, ``today`` being the current study day."""
    first = today - timedelta(days=days - 1)
    count: Counter[date] = Counter()
    time_ms: Counter[date] = Counter()
    for r, d in dated:
        if first <= d <= today:
            count[d] += 1
            time_ms[d] += r.duration_ms
    return tuple(
        DayCount(d, count[d], time_ms[d]) for d in (first + timedelta(days=i) for i in range(days))
    )
