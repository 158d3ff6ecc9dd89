"""Study days start at 4 AM local time (configurable), in any time zone, across DST."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from quizzer.scheduling.studyday import (
    day_bounds,
    day_start,
    days_between,
    is_same_study_day,
    next_day_start,
    study_day,
    to_utc,
)

DHAKA = timezone(timedelta(hours=6))


def test_before_4am_is_still_yesterday() -> None:
    # 03:59 and 04:00 local time in Dhaka (UTC+6) are 21:59 / 22:00 UTC the day before.
    before = datetime(2026, 3, 9, 21, 59, tzinfo=UTC)
    at = datetime(2026, 3, 9, 22, 0, tzinfo=UTC)
    assert study_day(before, DHAKA) == date(2026, 3, 9)
    assert study_day(at, DHAKA) == date(2026, 3, 10)
    assert not is_same_study_day(before, at, DHAKA)
    assert days_between(before, at, DHAKA) == 1


def test_midnight_to_4am_belongs_to_previous_day() -> None:
    late = datetime(2026, 3, 10, 1, 30, tzinfo=UTC)
    evening = datetime(2026, 3, 9, 20, 0, tzinfo=UTC)
    assert is_same_study_day(late, evening, UTC)


def test_configurable_hour() -> None:
    moment = datetime(2026, 3, 10, 5, 0, tzinfo=UTC)
    assert study_day(moment, UTC, hour=4) == date(2026, 3, 10)
    assert study_day(moment, UTC, hour=6) == date(2026, 3, 9)
    assert study_day(moment, UTC, hour=0) == date(2026, 3, 10)


def test_bounds_contain_the_moment() -> None:
    moment = datetime(2026, 3, 10, 3, 0, tzinfo=UTC)
    start, end = day_bounds(moment, UTC)
    assert start == datetime(2026, 3, 9, 4, tzinfo=UTC)
    assert end == datetime(2026, 3, 10, 4, tzinfo=UTC)
    assert start <= moment < end
    assert next_day_start(moment, UTC) == end


def test_dst_day_is_23_hours_and_still_starts_at_4_local() -> None:
    paris = ZoneInfo("Europe/Paris")
    # Clocks go forward on 2026-03-29 at 02:00: the study day from 28th 04:00 lasts 23 h.
    start = day_start(date(2026, 3, 28), paris)
    end = day_start(date(2026, 3, 29), paris)
    assert start.astimezone(paris).hour == 4
    assert end.astimezone(paris).hour == 4
    assert end - start == timedelta(hours=23)


def test_naive_datetime_rejected() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        study_day(datetime(2026, 1, 1, 12), UTC)
    with pytest.raises(ValueError, match="0-23"):
        study_day(datetime(2026, 1, 1, tzinfo=UTC), UTC, hour=24)


def test_store_default_zone_follows_dst() -> None:
    """The store's default zone is the system's, with DST (checked under TZ=Europe/Paris)."""
    code = (
        "import time; time.tzset()\n"
        "from datetime import UTC, date, datetime\n"
        "from quizzer.scheduling.studyday import day_start, study_day\n"
        "from quizzer.progress.store import system_zone\n"
        "tz = system_zone()\n"
        "print(day_start(date(2026, 1, 15), tz).isoformat())\n"
        "print(day_start(date(2026, 7, 15), tz).isoformat())\n"
        "print(study_day(datetime(2026, 7, 15, 1, 59, tzinfo=UTC), tz))\n"
        "print(study_day(datetime(2026, 7, 15, 2, 0, tzinfo=UTC), tz))\n"
    )
    env = dict(os.environ, TZ="Europe/Paris")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [
        "2026-01-15T03:00:00+00:00",  # 04:00 CET
        "2026-07-15T02:00:00+00:00",  # 04:00 CEST
        "2026-07-14",
        "2026-07-15",
    ]


BERLIN = ZoneInfo("Europe/Berlin")


def test_naive_values_are_refused_by_name() -> None:
    naive = datetime(2026, 3, 29, 12, 0)
    with pytest.raises(ValueError, match=r"^now must be a timezone-aware datetime \(UTC\)$"):
        to_utc(naive)
    with pytest.raises(ValueError, match=r"^due must be a timezone-aware datetime \(UTC\)$"):
        to_utc(naive, "due")
    with pytest.raises(ValueError, match=r"^moment must be timezone-aware$"):
        study_day(naive, BERLIN)


def test_a_bad_hour_is_refused_with_the_hour_given() -> None:
    moment = datetime(2026, 3, 29, 12, 0, tzinfo=UTC)
    with pytest.raises(ValueError, match=r"^day start hour must be 0-23, got 24$"):
        study_day(moment, BERLIN, 24)
    with pytest.raises(ValueError, match=r"^day start hour must be 0-23, got 24$"):
        day_start(date(2026, 3, 29), BERLIN, 24)
    with pytest.raises(ValueError, match=r"^day start hour must be 0-23, got -1$"):
        day_start(date(2026, 3, 29), BERLIN, -1)


def test_day_start_takes_hours_0_and_23_across_dst() -> None:
    # 29 March 2026: Berlin goes from UTC+1 to UTC+2 at 02:00 local time.
    assert day_start(date(2026, 3, 29), BERLIN, 0) == datetime(2026, 3, 28, 23, 0, tzinfo=UTC)
    assert day_start(date(2026, 3, 29), BERLIN, 23) == datetime(2026, 3, 29, 21, 0, tzinfo=UTC)
    assert day_start(date(2026, 3, 29), BERLIN) == datetime(2026, 3, 29, 2, 0, tzinfo=UTC)
