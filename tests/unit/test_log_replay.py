"""Replaying a whole log as it comes: each card's state is what
:func:`replay` gives from its answers, answers at one instant go in id order, and an
answer before one already replayed is told, never silently replayed out of order."""

from __future__ import annotations

import dataclasses
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizzer.scheduling.replay import LogReplay, OutOfOrder, replay
from quizzer.scheduling.review import Review
from tests.unit.test_replay import FUZZED, KEY, OTHER, PARIS, _history


def _log() -> list[Review]:
    """Two cards' histories interleaved in time order, with two answers of one card at one
    instant whose ids sort against the order they come in."""
    _, mine = _history(KEY, FUZZED, 7)
    _, other = _history(OTHER, FUZZED, 8)
    twin = dataclasses.replace(mine[3], id="0-first-by-id", grade=4)
    mine.insert(4, twin)  # after mine[3], at its instant, but before it by id
    return sorted(mine + other, key=lambda r: r.reviewed_at)


def test_each_card_replayed_as_it_comes_is_its_replay() -> None:
    log = _log()
    replayer = LogReplay(FUZZED, PARIS)
    for n in range(0, len(log), 3):  # a slice at a time
        replayer.add(log[n : n + 3])
    states = replayer.states()
    assert list(states) == sorted({KEY.id, OTHER.id})
    for key in (KEY, OTHER):
        state, count = states[key.id]
        expected = replay(key.id, log, FUZZED, PARIS)
        assert state is not None and expected is not None
        assert state.to_dict() == expected.to_dict()
        assert count == sum(1 for r in log if r.card_id == key.id)
    # The tie went by id: the Easy answer first, as replay() orders it.
    in_log_order = LogReplay(FUZZED, PARIS)
    swapped = [dataclasses.replace(r, id="zz-last") if r.id == "0-first-by-id" else r for r in log]
    in_log_order.add(swapped)
    assert in_log_order.states()[KEY.id][0] != states[KEY.id][0]


def test_an_answer_before_one_replayed_is_out_of_order() -> None:
    log = _log()
    late = dataclasses.replace(log[-1], reviewed_at=log[0].reviewed_at - timedelta(days=1))
    replayer = LogReplay(FUZZED, PARIS)
    with pytest.raises(OutOfOrder, match="an answer at"):
        replayer.add([*log, late])


#: UTC+14: a study day (from 04:00) there starts at 14:00 UTC the day before.
KIRITIMATI = ZoneInfo("Pacific/Kiritimati")


def test_study_days_are_counted_in_the_zone_given() -> None:
    log = _log()
    replayer = LogReplay(FUZZED, KIRITIMATI)
    replayer.add(log)
    states = replayer.states()
    for key in (KEY, OTHER):
        expected = replay(key.id, log, FUZZED, KIRITIMATI)
        assert expected is not None
        assert states[key.id][0].to_dict() == expected.to_dict()  # type: ignore[union-attr]
    # The zone matters for this log: replayed in UTC, some card's memory differs.
    in_utc = {key.id: replay(key.id, log, FUZZED, UTC) for key in (KEY, OTHER)}
    assert any(
        in_utc[card_id].card.stability != state.card.stability  # type: ignore[union-attr]
        for card_id, (state, _) in states.items()
    )


def test_an_answer_out_of_order_names_its_card_and_both_times() -> None:
    log = _log()
    mine = [r for r in log if r.card_id == KEY.id]
    late = dataclasses.replace(mine[-1], reviewed_at=mine[0].reviewed_at - timedelta(days=1))
    replayer = LogReplay(FUZZED, UTC)
    with pytest.raises(OutOfOrder) as err:
        replayer.add([*mine, late])
    assert str(err.value) == (
        f"{KEY.id}: an answer at {late.reviewed_at} after one at {mine[-1].reviewed_at}"
    )


def test_states_can_be_asked_midway_and_again() -> None:
    """Asking for the states replays what waits once: asked twice, or before more answers
    come, they are still each card's replay."""
    log = _log()
    half = len(log) // 2
    replayer = LogReplay(FUZZED, UTC)
    replayer.add(log[:half])
    midway = replayer.states()
    assert replayer.states() == midway
    replayer.add(log[half:])
    states = replayer.states()
    for key in (KEY, OTHER):
        expected = replay(key.id, log, FUZZED, UTC)
        assert states[key.id][0].to_dict() == expected.to_dict()  # type: ignore[union-attr]
        assert states[key.id][1] == sum(1 for r in log if r.card_id == key.id)
