"""What the store's writing methods return (``progress.outcomes``), on a real store on disk.

A
:class:`Bury` and a :class:`RecordOutcome` are values, equal by content and not changed in
place (``Store.last_outcome`` is the store's own; a bury is also hashable), and an outcome
built with only its answer and state is neither a leech nor a suspension.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.progress.outcomes import RecordOutcome
from tests.progress import store_builder as sb

NOW = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)


def test_a_bury_is_a_value_the_undo_gives_back_equal_and_hashable(tmp_path: Path) -> None:
    with sb.open_db(tmp_path / "p.json") as store:
        bury = store.bury(sb.card(1), NOW)
        undone = store.undo()
        assert undone == bury and undone is not bury
        assert {bury, undone} == {bury}  # one bury, as a set member or a dict key
        with pytest.raises(dataclasses.FrozenInstanceError):
            bury.until = NOW + timedelta(days=9)  # type: ignore[misc]


def test_the_outcome_of_an_answer_cant_be_changed_by_its_caller(tmp_path: Path) -> None:
    with sb.open_db(tmp_path / "p.json") as store:
        outcome = store.record_outcome(sb.card(1), 3, NOW)
        assert store.last_outcome is outcome and not outcome.leech and not outcome.suspended
        with pytest.raises(dataclasses.FrozenInstanceError):
            outcome.leech = True  # type: ignore[misc]
        assert store.last_outcome.leech is False


def test_an_outcome_of_only_an_answer_and_a_state_is_no_leech_nor_a_suspension(
    tmp_path: Path,
) -> None:
    with sb.open_db(tmp_path / "p.json") as store:
        done = store.record_outcome(sb.card(1), 3, NOW)
    outcome = RecordOutcome(done.review, done.state)
    assert outcome.leech is False and outcome.suspended is False
    assert outcome == done  # the store's own outcome of a plain answer is the same
