"""Figures by study day: today's study, the streak and the answers per day (the heatmap).

Each review's study day is computed once (:func:`dated_reviews`) and counted in a
:class:`~quizzer.stats.tally.Tally`; the figures read the tally.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.stats.definitions import HEATMAP_DAYS, pass_rate
from quizzer.stats.figures import DayCount, Streak, Today

if TYPE_CHECKING:  # the tally builds on dated_reviews
    from quizzer.stats.tally import DeckTally, Tally

#: A review with its study day, computed once (time-zone conversion is the costly part).
Dated = tuple[Review, date]


_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_DAY_S = 86400


def _offset_s(tz: tzinfo | None, timestamp: int) -> int:
    """UTC offset of ``tz`` at a POSIX ``timestamp``, in seconds."""
    offset = datetime.fromtimestamp(timestamp, UTC).astimezone(tz).utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


class StudyDays:
    """:func:`study_day`'s rule for many moments in one zone, computed faster.

    Converting every answer to local time is most of the cost of the statistics
    (more so with the system zone, which asks the C library each time). The
    offset is looked up once per UTC day instead, and used for the whole day
    when it is the same at both ends of it; a day with a change of offset
    (daylight saving time) falls back to :func:`study_day` for each moment.
    """

    def __init__(self, tz: tzinfo | None, day_start_hour: int) -> None:
        self.tz = tz
        self.day_start_hour = day_start_hour
        self._shift = day_start_hour * 3600
        self._offsets: dict[int, int | None] = {}
        self._days: dict[int, date] = {}

    def of(self, moment: datetime) -> date:
        """The study day of ``moment``."""
        if moment.tzinfo is None:  # study_day says what's wrong with it
            return study_day(moment, self.tz, self.day_start_hour)
        stamp = moment.timestamp()
        utc_day = int(stamp // _DAY_S)
        offsets = self._offsets
        if utc_day in offsets:
            offset = offsets[utc_day]
        else:
            first = _offset_s(self.tz, utc_day * _DAY_S)
            last = _offset_s(self.tz, utc_day * _DAY_S + _DAY_S - 1)
            offset = offsets[utc_day] = first if first == last else None
        if offset is None:
            return study_day(moment, self.tz, self.day_start_hour)
        local_day = int((stamp + offset - self._shift) // _DAY_S)
        day = self._days.get(local_day)
        if day is None:
            day = self._days[local_day] = date.fromordinal(_EPOCH_ORDINAL + local_day)
        return day


def dated_reviews(reviews: Iterable[Review], tz: tzinfo | None, day_start_hour: int) -> list[Dated]:
    """Each review with its study day (:class:`StudyDays`: :func:`study_day`'s rule, faster)."""
    days = StudyDays(tz, day_start_hour)
    return [(r, days.of(r.reviewed_at)) for r in reviews]


def today_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Today:
    """Cards studied, answers, pass rate and time spent on the current study day."""
    from quizzer.stats.tally import tally_of

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
    from quizzer.stats.tally import tally_of

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
    from quizzer.stats.tally import tally_of

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
