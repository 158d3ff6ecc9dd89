"""Study days: a day of study starts at a configurable local hour (4 AM by default), not midnight.

Someone studying at 1 AM is still in "yesterday" — their counts, limits and
buried siblings belong to the day they started. Every function takes the
moment (an aware datetime) and the learner's time zone explicitly; nothing
here reads the clock.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

#: Default hour (local time) at which a new study day begins, as in Anki.
DEFAULT_DAY_START_HOUR = 4


def to_utc(value: datetime, name: str = "now") -> datetime:
    """``value`` in UTC; ``ValueError`` naming ``name`` if it is naive (FSRS and the log
    take only UTC-aware datetimes, so check early)."""
    if value.tzinfo is None:
        raise ValueError(f"{name} must be a timezone-aware datetime (UTC)")
    return value.astimezone(UTC)


def _check(moment: datetime, hour: int) -> None:
    if moment.tzinfo is None:
        raise ValueError("moment must be timezone-aware")
    if not 0 <= hour <= 23:
        raise ValueError(f"day start hour must be 0-23, got {hour}")


def study_day(moment: datetime, tz: tzinfo | None, hour: int = DEFAULT_DAY_START_HOUR) -> date:
    """The study day ``moment`` falls in: the local date, counted from ``hour`` o'clock.

    At 03:59 local time it is still the previous day; at 04:00 the new one begins.
    ``tz=None`` means the system's local time zone *at that moment* (daylight saving
    time included), as ``datetime.astimezone()`` gives it.
    """
    _check(moment, hour)
    local = moment.astimezone(tz)
    return (local - timedelta(hours=hour)).date()


def day_start(day: date, tz: tzinfo, hour: int = DEFAULT_DAY_START_HOUR) -> datetime:
    """The UTC instant at which study ``day`` begins (``hour`` o'clock local time)."""
    if not 0 <= hour <= 23:
        raise ValueError(f"day start hour must be 0-23, got {hour}")
    return datetime.combine(day, time(hour), tzinfo=tz).astimezone(UTC)


def day_bounds(
    moment: datetime, tz: tzinfo, hour: int = DEFAULT_DAY_START_HOUR
) -> tuple[datetime, datetime]:
    """``(start, end)`` in UTC of the study day containing ``moment``; ``start <= moment < end``."""
    day = study_day(moment, tz, hour)
    return day_start(day, tz, hour), day_start(day + timedelta(days=1), tz, hour)


def next_day_start(moment: datetime, tz: tzinfo, hour: int = DEFAULT_DAY_START_HOUR) -> datetime:
    """The UTC instant the study day after the one containing ``moment`` begins."""
    return day_bounds(moment, tz, hour)[1]


def days_between(
    earlier: datetime, later: datetime, tz: tzinfo | None, hour: int = DEFAULT_DAY_START_HOUR
) -> int:
    """How many study-day boundaries lie between two moments (0 when on the same study day;
    ``tz=None``: the system's zone, as in :func:`study_day`).

    This is the one count of elapsed days: FSRS's ``delta_t`` in the scheduler
    (:func:`quizzer.scheduling.scheduler.elapsed_study_days`), the optimizer, the
    statistics' retrievability and Anki's own replay of an exported revlog.
    """
    return (study_day(later, tz, hour) - study_day(earlier, tz, hour)).days


def is_same_study_day(
    a: datetime, b: datetime, tz: tzinfo, hour: int = DEFAULT_DAY_START_HOUR
) -> bool:
    """Whether two moments belong to the same study day."""
    return study_day(a, tz, hour) == study_day(b, tz, hour)
