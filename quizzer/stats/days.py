"""Study days of many answers at once: :func:`study_day`'s rule, with the time-zone work shared.

The tally (:mod:`~quizzer.stats.tally`) dates every answer of the log here, and the
card figures date every card's last review and due time; the figures by study day
themselves are in :mod:`~quizzer.stats.activity`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, tzinfo

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day

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
