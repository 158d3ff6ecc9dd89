"""The system's local time zone as a ``tzinfo`` that follows daylight-saving changes.

``datetime.now().astimezone().tzinfo`` is a fixed offset, wrong on the other
side of a DST change; this asks the C library for the offset at each moment. Wall
times follow PEP 495, as :mod:`zoneinfo` does: in the hour repeated when the clocks go
back, ``fold=0`` is its first time and ``fold=1`` its second; a time in the hour skipped
when they go forward takes the offset before the change (``fold=1``: the one after).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from pathlib import Path

#: The Unix epoch as a naive time: ``(utc_fields - _EPOCH) // _SECOND`` is what
#: ``calendar.timegm`` gives, without importing :mod:`calendar` at start-up.
_EPOCH, _SECOND = datetime(1970, 1, 1), timedelta(seconds=1)
#: A day in seconds: a zone changes its offset at most once in two days (DST: twice a year).
_DAY = 86400


class LocalTimezone(tzinfo):
    """The process's local zone (``TZ`` / ``/etc/localtime``), DST-aware."""

    def _offset(self, dt: datetime) -> tuple[int, int]:
        """``dt``'s wall time as seconds since the epoch (as if it were UTC), and its offset."""
        wall = (dt.replace(tzinfo=None) - _EPOCH) // _SECOND
        # The offsets in force a day before and a day after are the ones dt can have; those
        # that lead back to it fit: one, or both in the repeated hour (fold picks), or
        # neither in the skipped hour (fold picks the side). Not mktime: with isdst=-1 it
        # guesses these hours from its previous call.
        before = time.localtime(wall - _DAY).tm_gmtoff
        after = time.localtime(wall + _DAY).tm_gmtoff
        if before == after:
            return wall, before
        fits = [off for off in (before, after) if time.localtime(wall - off).tm_gmtoff == off]
        if len(fits) == 1:
            return wall, fits[0]
        return wall, (fits or [before, after])[dt.fold]

    def utcoffset(self, dt: datetime | None) -> timedelta:
        """Offset from UTC of local wall time ``dt``."""
        if dt is None:
            return timedelta(seconds=time.localtime().tm_gmtoff)
        return timedelta(seconds=self._offset(dt)[1])

    def dst(self, dt: datetime | None) -> timedelta:
        """Not tracked separately; the full offset is in :meth:`utcoffset`."""
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        """The zone's abbreviation at ``dt`` (e.g. ``CET``)."""
        if dt is None:
            return time.localtime().tm_zone
        wall, offset = self._offset(dt)
        local = time.localtime(wall - offset)
        if local.tm_gmtoff != offset:  # the skipped hour: named as the side its offset is of
            local = time.localtime(wall + (_DAY if dt.fold else -_DAY))
        return local.tm_zone

    def fromutc(self, dt: datetime) -> datetime:
        """Local wall time for ``dt`` (whose fields are UTC); used by ``astimezone``."""
        stamp = (dt.replace(tzinfo=None) - _EPOCH) // _SECOND
        offset = time.localtime(stamp).tm_gmtoff
        local = dt + timedelta(seconds=offset)
        # The repeated hour's second time (the wall time already shown, under the offset
        # before) is fold 1, so that utcoffset gives this offset back.
        before = time.localtime(stamp - _DAY).tm_gmtoff
        if before > offset and time.localtime(stamp + offset - before).tm_gmtoff == before:
            return local.replace(fold=1)
        return local

    def __repr__(self) -> str:
        return "LocalTimezone()"


def system_timezone_name(
    environ: Mapping[str, str] | None = None, localtime: Path = Path("/etc/localtime")
) -> str | None:
    """The IANA name of the system's time zone, or ``None`` when it can't be told.

    From ``$TZ`` when it is an IANA name (``Europe/Paris``, ``:Europe/Paris``;
    not a POSIX rule like ``CET-1CEST``), else from the ``/etc/localtime``
    symlink's target (``.../zoneinfo/Europe/Paris``); in a path, the name is what follows
    its last ``zoneinfo`` directory.
    """
    env = os.environ if environ is None else environ
    tz = env.get("TZ")
    if tz is not None:
        name = tz.removeprefix(":").rpartition("/zoneinfo/")[2]
        return name if _is_iana(name) else None  # $TZ rules, even when unnamed
    try:
        target = os.readlink(localtime)
    except OSError:
        return None
    _, found, name = target.rpartition("zoneinfo/")
    return name if found and _is_iana(name) else None


def _is_iana(name: str) -> bool:
    if not name or name.startswith("/") or ".." in name:
        return False
    # Imported here: only the statistics' caches name the zone, and zoneinfo brings sysconfig
    # (a few ms of every start-up otherwise).
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def zone_key(tz: tzinfo) -> str:
    """A stable name for the rules of ``tz``, to tell whether study days were counted in it.

    An IANA zone by its name; the system's zone by its IANA name when it can be told,
    else by what the C library says of it; any other zone by its ``repr``.
    """
    if isinstance(tz, LocalTimezone):
        name = system_timezone_name()
        if name:
            return name
        return f"local:{time.tzname}:{time.timezone}:{time.altzone}:{time.daylight}"
    key = getattr(tz, "key", None)
    if isinstance(key, str) and key:
        return key
    return f"{type(tz).__qualname__}:{tz!r}"
