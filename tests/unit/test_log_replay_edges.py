"""``LogReplay`` at its edges: the learner's zone, and what an answer out of order says.

Written from a mutation-testing run (mutmut on ``LogReplay`` in
``quizzer/scheduling/replay.py``): each test kills mutants ``test_log_replay.py`` lets
through (issue 14).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizzer.scheduling.replay import LogReplay, OutOfOrder, replay
from tests.unit.test_log_replay import _log
from tests.unit.test_replay import FUZZED, KEY, OTHER

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
