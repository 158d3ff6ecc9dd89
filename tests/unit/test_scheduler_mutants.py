"""The scheduler's shortcuts and the filled-in memory state at their edges.

Written from a mutation-testing run (mutmut on ``quizzer/scheduling/scheduler.py``, after
``with_memory`` and the fast paths of issue 12 landed): each test kills mutants the
behaviour tests let through (issue 14).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import fsrs
import pytest

from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer, preview, with_memory
from quizzer.scheduling.settings import SchedulerSettings
from tests.unit.test_scheduler_memory import KEY, NOW


def test_answers_with_one_settings_object_ask_for_its_scheduler_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The scheduler of the last settings is remembered (a store answers with the same
    settings object answer after answer); other settings get their own."""
    first, second = SchedulerSettings(), SchedulerSettings(desired_retention=0.8)
    asked: list[SchedulerSettings] = []  # (each settings checks its parameters when made)
    build = SchedulerSettings.fsrs_scheduler

    def counted(self: SchedulerSettings) -> fsrs.Scheduler:
        asked.append(self)
        return build(self)

    monkeypatch.setattr(SchedulerSettings, "fsrs_scheduler", counted)
    state = CardState.new(KEY, NOW)
    for n in range(4):
        state = answer(state, 3, NOW + timedelta(days=n), first).state
    preview(state, NOW + timedelta(days=5), first)
    assert asked == [first]
    answer(state, 3, NOW + timedelta(days=6), second)
    answer(state, 3, NOW + timedelta(days=6), second)
    assert asked == [first, second]
    answer(state, 3, NOW + timedelta(days=6), first)
    assert asked == [first, second, first]


def _first_good_stability() -> float:
    card, _ = SchedulerSettings().fsrs_scheduler().review_card(fsrs.Card(), fsrs.Rating.Good, NOW)
    assert card.stability is not None
    return card.stability


@pytest.mark.parametrize(
    "last_review",
    [None, NOW - timedelta(days=1), NOW - timedelta(days=2)],
    ids=["never reviewed", "reviewed after it fell due", "reviewed as it fell due"],
)
def test_a_review_card_with_no_interval_gets_a_first_goods_stability(
    last_review: datetime | None,
) -> None:
    """Without a last review before its due date there is no interval to take as the
    stability: a first Good's is taken, never a tiny or a negative one."""
    state = CardState.studied(
        KEY.id, "review", NOW - timedelta(days=2), last_review=last_review, reps=2
    )
    full = with_memory(state.card, SchedulerSettings().fsrs_scheduler(), NOW)
    assert full.stability == pytest.approx(_first_good_stability())
    assert full is not state.card and state.card.stability is None


def test_the_filled_in_stability_is_the_interval_in_days() -> None:
    due = datetime(2026, 6, 1, 18, tzinfo=UTC)
    state = CardState.studied(
        KEY.id, "review", due, last_review=due - timedelta(days=3, hours=12), reps=2
    )
    full = with_memory(state.card, SchedulerSettings().fsrs_scheduler(), NOW)
    assert full.stability == pytest.approx(3.5)
