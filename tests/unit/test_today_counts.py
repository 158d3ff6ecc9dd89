"""Today's counts per deck: zero by default, counted by study day across daylight saving time,
from the settings' day start."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizzer.scheduling.grades import CardPhase
from quizzer.scheduling.limits import TodayCounts, count_today
from quizzer.scheduling.settings import SchedulerSettings

BERLIN = ZoneInfo("Europe/Berlin")


def test_default_counts_are_zero_and_frozen() -> None:
    counts = TodayCounts()
    assert (counts.new, counts.review, counts.learning) == (0, 0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        counts.new = 1  # type: ignore[misc]
    assert not hasattr(counts, "__dict__")


def test_counts_the_study_day_exactly_across_dst() -> None:
    # 29 March 2026 in Berlin: the day starts at 04:00 CEST = 02:00 UTC and the next one at
    # 04:00 CEST on 30 March = 02:00 UTC; the UTC+1 start of the day before is 03:00 UTC.
    start = datetime(2026, 3, 29, 2, 0, tzinfo=UTC)
    end = datetime(2026, 3, 30, 2, 0, tzinfo=UTC)
    tick = timedelta(microseconds=1)
    answers: list[tuple[str, datetime, CardPhase]] = [
        ("es/c1|p", start - tick, "new"),  # the day before
        ("es/c1|p", start, "new"),
        ("es/c2|p", start, "review"),
        ("es/c3|p", end - tick, "review"),
        ("es/c4|p", start + timedelta(hours=3), "learning"),
        ("es/c5|p", start + timedelta(hours=4), "relearning"),
        ("es/c6|p", end, "new"),  # the day after
        ("es2/c1|p", start + timedelta(hours=1), "new"),  # another deck whose name starts alike
        ("e/c1|p", start + timedelta(hours=1), "review"),
    ]
    counts = count_today(answers, "es", start + timedelta(hours=10), BERLIN, SchedulerSettings())
    assert counts == TodayCounts(new=1, review=2, learning=2)


def test_the_day_start_hour_is_the_settings() -> None:
    at = datetime(2026, 3, 10, 5, 30, tzinfo=UTC)  # 06:30 in Berlin
    answers: list[tuple[str, datetime, CardPhase]] = [("es/c1|p", at, "review")]
    later = at + timedelta(hours=1)
    assert (
        count_today(answers, "es", later, BERLIN, SchedulerSettings(day_start_hour=7))
        == TodayCounts()
    )
    assert count_today(answers, "es", later, BERLIN, SchedulerSettings()) == TodayCounts(review=1)
