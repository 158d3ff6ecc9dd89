"""The scheduler settings (``scheduling.settings``): the defaults the README's table
promises, each refused value's whole message (the settings command and a damaged store
show it as it is), settings as values, each settings' own intervals when answers alternate
between two, and FSRS's own fuzz off (ours is drawn from the caller's generator, so equal
answers get equal intervals without one).
"""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from typing import Any

import fsrs
import pytest

from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer, preview
from quizzer.scheduling.settings import SchedulerSettings
from tests.unit.test_scheduler_memory import KEY, NOW


def test_the_defaults_are_the_readmes() -> None:
    assert SchedulerSettings().to_dict() == {
        "desired_retention": 0.9,
        "learning_steps_s": [60, 600],
        "relearning_steps_s": [600],
        "maximum_interval_days": 36500,
        "fuzz": True,
        "day_start_hour": 4,
        "new_per_day": 20,
        "reviews_per_day": 200,
        "new_order": "deck",
        "bury_siblings": True,
        "ladder_days": 7,
        "leech_threshold": 8,
        "leech_every": 4,
        "leech_action": "suspend",
        "parameters": list(fsrs.scheduler.DEFAULT_PARAMETERS),
    }


_PARAMS = list(fsrs.scheduler.DEFAULT_PARAMETERS)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"fuzz": "yes"}, "fuzz must be true or false, got 'yes'"),
        ({"bury_siblings": 1}, "bury_siblings must be true or false, got 1"),
        ({"desired_retention": True}, "desired_retention must be a number, got True"),
        ({"desired_retention": "0.9"}, "desired_retention must be a number, got '0.9'"),
        ({"desired_retention": 1.0}, "desired_retention must be at least 0.5 and below 1, got 1.0"),
        (
            {"desired_retention": 0.49},
            "desired_retention must be at least 0.5 and below 1, got 0.49",
        ),
        ({"new_per_day": 2.5}, "new_per_day must be a whole number, got 2.5"),
        ({"leech_every": False}, "leech_every must be a whole number, got False"),
        ({"maximum_interval_days": 0}, "maximum_interval_days must be at least 1, got 0"),
        ({"reviews_per_day": -1}, "reviews_per_day must be at least 0, got -1"),
        ({"day_start_hour": 24}, "day_start_hour must be 0-23, got 24"),
        ({"new_order": "shuffled"}, "new_order must be 'deck' or 'random', got 'shuffled'"),
        ({"leech_action": "delete"}, "leech_action must be 'suspend' or 'flag', got 'delete'"),
        ({"learning_steps_s": "1m"}, "learning_steps_s must be a list, got '1m'"),
        ({"relearning_steps_s": b"10"}, "relearning_steps_s must be a list, got b'10'"),
        ({"parameters": 3}, "parameters must be a list, got 3"),
        ({"learning_steps_s": [60, 0]}, "learning_steps_s must be positive whole seconds, got 0"),
        (
            {"relearning_steps_s": [True]},
            "relearning_steps_s must be positive whole seconds, got True",
        ),
        ({"parameters": [1.0] * 19}, "parameters must be 21 numbers (FSRS-6), got 19"),
        (
            {"parameters": ["0.2", *_PARAMS[1:]]},
            f"parameters must be numbers, got {('0.2', *_PARAMS[1:])!r:.80}",
        ),
        ({"parameters": [float("nan"), *_PARAMS[1:]]}, "parameters must be finite numbers"),
    ],
)
def test_each_refused_value_is_named_with_its_whole_message(
    values: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as raised:
        SchedulerSettings(**values)
    assert str(raised.value) == message


def test_parameters_outside_fsrss_bounds_are_refused_with_fsrss_reason() -> None:
    with pytest.raises(ValueError) as raised:
        SchedulerSettings(parameters=(-5.0, *_PARAMS[1:]))
    message = str(raised.value)
    assert message.startswith("parameters are outside FSRS's bounds (") and message.endswith(")")
    assert len(message) > len("parameters are outside FSRS's bounds ()")


def test_settings_are_values_not_changed_in_place() -> None:
    settings = SchedulerSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.desired_retention = 0.8  # type: ignore[misc]
    assert {settings, SchedulerSettings()} == {settings}  # equal settings, one key


def test_answering_with_settings_in_turn_uses_each_ones_own_scheduler() -> None:
    # Alternating between two settings gives each one's own intervals, as a fresh
    # scheduler does.
    keen, relaxed = (
        SchedulerSettings(fuzz=False),
        SchedulerSettings(fuzz=False, desired_retention=0.7),
    )
    state = CardState.new(KEY, NOW)
    for _ in range(3):
        state = answer(state, 3, state.due, keen).state
    at = state.due
    intervals: dict[float, set[timedelta]] = {}
    for settings in (keen, relaxed, keen, relaxed):
        got = answer(state, 3, at, settings).state.due - at
        fresh, _ = settings.fsrs_scheduler().review_card(state.card, fsrs.Rating.Good, at)
        assert got == fresh.due - at
        assert preview(state, at, settings)[3] == got
        intervals.setdefault(settings.desired_retention, set()).add(got)
    assert len(intervals[0.9]) == len(intervals[0.7]) == 1
    assert intervals[0.9] != intervals[0.7]


def test_without_our_fuzz_equal_answers_get_equal_intervals() -> None:
    """FSRS's own fuzz (drawn from the global generator) stays off: with ``fuzz`` off, or no
    generator given, a review card answered Good gets the same due time every time."""
    settings = SchedulerSettings(fuzz=False)
    state = CardState.new(KEY, NOW)
    for day in (0, 0, 1, 4, 15):
        state = answer(state, 3, NOW + timedelta(days=day), settings).state
    at = NOW + timedelta(days=60)
    random.seed(1)
    dues = {answer(state, 3, at, settings, random.Random(n)).state.due for n in range(12)}
    dues |= {answer(state, 3, at, SchedulerSettings()).state.due for _ in range(12)}
    assert len(dues) == 1
    assert next(iter(dues)) - at > timedelta(days=20)  # a long interval, where fuzz shows
