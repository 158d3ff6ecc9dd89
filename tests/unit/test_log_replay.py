"""Replaying a whole log as it comes (issue 12, goal 5): each card's state is what
:func:`replay` gives from its answers, answers at one instant go in id order, and an
answer before one already replayed is told, never silently replayed out of order."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from quizzer.progress.doctor_replay import compare
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


def test_compare_sorts_a_list_and_refuses_an_iterator_out_of_order() -> None:
    log = _log()
    shuffled = list(reversed(log))
    by_list = compare(shuffled, {}, FUZZED, PARIS)
    in_order = compare(iter(log), {}, FUZZED, PARIS)
    assert [s.to_dict() for s in by_list.fixed] == [s.to_dict() for s in in_order.fixed]
    assert by_list.lines == in_order.lines and len(by_list.fixed) == 2
    with pytest.raises(OutOfOrder):
        compare(iter(shuffled), {}, FUZZED, PARIS)


def test_a_card_id_that_is_no_card_key_is_unreadable_whatever_its_answers() -> None:
    log = _log()
    bad = [dataclasses.replace(r, card_id="not a card") for r in log[:3]]
    cmp = compare(bad + log[3:], {}, FUZZED, PARIS)
    assert cmp.unreadable == ["not a card"]
    assert cmp.checked == 2
