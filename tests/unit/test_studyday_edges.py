"""Edges of the study-day functions that mutation testing found untested (issue 14)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from quizzer.scheduling.studyday import day_start, study_day, to_utc

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
