"""The collector pause around big builds (quizzer.runtime.collector): off inside, settled after."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from quizzer.runtime.collector import collector_paused, settle_alive


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The collector on and nothing frozen, as a command starts; restored afterwards."""
    was_on, frozen = gc.isenabled(), gc.get_freeze_count()
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    if frozen:
        gc.freeze()
    if not was_on:
        gc.disable()


def _in_oldest(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects(generation=2))


def test_paused_inside_and_on_again_after(collector_on: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_left_off_when_it_was_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused(settle=True):
        pass
    assert not gc.isenabled()


def test_settled_objects_go_to_the_oldest_generation(collector_on: None) -> None:
    with collector_paused(settle=True):
        built = [[i] for i in range(3)]
    assert gc.get_freeze_count() == 0  # nothing left frozen
    assert _in_oldest(built) and _in_oldest(built[0])


def test_unsettled_objects_stay_young(collector_on: None) -> None:
    with collector_paused():
        built = [[1]]
    assert not _in_oldest(built)


def test_settling_keeps_what_the_app_froze_frozen(collector_on: None) -> None:
    held = [[0]]
    gc.freeze()  # as the app does at its first paint
    frozen = gc.get_freeze_count()
    assert frozen > 0
    with collector_paused(settle=True):
        built = [[1]]
    # Unfreezing would have moved the app's objects back under the collector's scans.
    assert gc.get_freeze_count() >= frozen + 2
    assert not _in_oldest(held) and not _in_oldest(built)


def test_settle_alive_alone(collector_on: None) -> None:
    built = [[2]]
    settle_alive()
    assert gc.get_freeze_count() == 0 and _in_oldest(built)
