"""The scheduler's own rules: fuzz equal to py-fsrs's, the Outcome of an answer, and the
button labels' boundaries.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta

import fsrs
import fsrs.scheduler
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling import scheduler
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer, elapsed_study_days, format_interval
from quizzer.scheduling.settings import SchedulerSettings

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))


class FixedRandom(random.Random):
    """A generator whose every draw is ``value``."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def test_fuzz_ranges_are_py_fsrs_own() -> None:
    theirs = [(r["start"], r["end"], r["factor"]) for r in fsrs.scheduler.FUZZ_RANGES]
    assert list(scheduler._FUZZ_RANGES) == theirs


@pytest.mark.parametrize("draw", [0.0, 0.2, 0.5, 0.8, 0.999999])
@pytest.mark.parametrize("maximum", [36500, 60])
def test_fuzz_equals_py_fsrs_for_every_interval(
    draw: float, maximum: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # py-fsrs draws from the global generator; pin it to the same value as ours.
    monkeypatch.setattr(fsrs.scheduler, "random", lambda: draw)
    theirs = fsrs.Scheduler(maximum_interval=maximum)
    for days in range(1, 400):
        expected = theirs._get_fuzzed_interval(interval=timedelta(days=days)).days
        got = scheduler._fuzz_days(days, maximum, FixedRandom(draw))
        assert got == expected, (days, draw, maximum)


def _reviewed_card() -> CardState:
    """A card in review (Good twice over a few days)."""
    settings = SchedulerSettings()
    state = CardState.new(KEY, NOW)
    for day in (0, 1, 4):
        state = answer(state, 3, NOW + timedelta(days=day), settings).state
    return state


def test_outcome_is_a_frozen_slotted_value() -> None:
    outcome = answer(CardState.new(KEY, NOW), 3, NOW, SchedulerSettings())
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.became_leech = True  # type: ignore[misc]
    assert not hasattr(outcome, "__dict__")


def test_outcome_fields_of_a_plain_answer() -> None:
    settings = SchedulerSettings()
    first = answer(CardState.new(KEY, NOW), 3, NOW, settings)
    assert first.became_leech is False
    assert first.state.first_review == NOW
    later = NOW + timedelta(days=2)
    second = answer(first.state, 3, later, settings)
    # The first review stays the first one.
    assert second.state.first_review == NOW
    due_in = (second.state.card.due - later) / timedelta(days=1)
    assert second.interval_days == pytest.approx(due_in, rel=1e-9)
    assert second.interval_days > 0


def test_a_bad_grade_says_what_grades_are() -> None:
    with pytest.raises(ValueError, match=r"^grade must be 1-4, got 5$"):
        answer(CardState.new(KEY, NOW), 5, NOW, SchedulerSettings())  # type: ignore[arg-type]


def test_a_card_never_reviewed_has_no_elapsed_days() -> None:
    assert elapsed_study_days(None, NOW, UTC, 4) == 0


def test_fuzzed_review_interval_stays_in_fsrs_range() -> None:
    state = _reviewed_card()
    settings = SchedulerSettings()
    later = state.card.due
    exact = answer(state, 3, later, dataclasses.replace(settings, fuzz=False)).interval_days
    low = answer(state, 3, later, settings, FixedRandom(0.0)).interval_days
    high = answer(state, 3, later, settings, FixedRandom(0.999999)).interval_days
    assert low < round(exact) < high
    assert low == scheduler._fuzz_days(round(exact), settings.maximum_interval_days, FixedRandom(0))


@pytest.mark.parametrize(
    ("delta", "label"),
    [
        (timedelta(0), "1m"),
        (timedelta(seconds=-5), "1m"),
        (timedelta(minutes=10), "10m"),
        (timedelta(minutes=59), "59m"),
        (timedelta(hours=1), "1h"),
        (timedelta(hours=5), "5h"),
        (timedelta(hours=5.5), "6h"),
        (timedelta(hours=23), "23h"),
        (timedelta(days=1), "1d"),
        (timedelta(days=3.5), "4d"),
        (timedelta(days=29), "29d"),
        (timedelta(days=30), "1mo"),
        (timedelta(days=60), "2mo"),
        (timedelta(days=45), "1.5mo"),
        (timedelta(days=364), "12.1mo"),
        (timedelta(days=365), "1y"),
        (timedelta(days=730), "2y"),
        (timedelta(days=419.79), "1.2y"),
    ],
)
def test_button_labels(delta: timedelta, label: str) -> None:
    assert format_interval(delta) == label
