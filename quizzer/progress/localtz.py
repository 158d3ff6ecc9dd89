"""The system's local time zone as a ``tzinfo`` that follows daylight-saving changes.

``datetime.now().astimezone().tzinfo`` is a fixed offset, wrong on the other
side of a DST change; this asks the C library for the offset at each moment.
"""

from __future__ import annotations

import calendar
import time
from datetime import datetime, timedelta, tzinfo


class LocalTimezone(tzinfo):
    """The process's local zone (``TZ`` / ``/etc/localtime``), DST-aware."""

    def _local(self, dt: datetime) -> time.struct_time:
        # dt's fields are local wall time; mktime resolves them (isdst=-1: let libc decide).
        stamp = time.mktime(
            (dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.weekday(), 0, -1)
        )
        return time.localtime(stamp)

    def utcoffset(self, dt: datetime | None) -> timedelta:
        """Offset from UTC of local wall time ``dt``."""
        if dt is None:
            return timedelta(seconds=time.localtime().tm_gmtoff)
        return timedelta(seconds=self._local(dt).tm_gmtoff)

    def dst(self, dt: datetime | None) -> timedelta:
        """Not tracked separately; the full offset is in :meth:`utcoffset`."""
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        """The zone's abbreviation at ``dt`` (e.g. ``CET``)."""
        return (self._local(dt) if dt is not None else time.localtime()).tm_zone

    def fromutc(self, dt: datetime) -> datetime:
        """Local wall time for ``dt`` (whose fields are UTC); used by ``astimezone``."""
        stamp = calendar.timegm(dt.replace(tzinfo=None).timetuple())
        return dt + timedelta(seconds=time.localtime(stamp).tm_gmtoff)

    def __repr__(self) -> str:
        return "LocalTimezone()"
