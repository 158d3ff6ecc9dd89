"""A card in review or relearning without FSRS's memory state (stability, difficulty, the
relearning step) is answered and previewed like Anki answers one: from its interval and
a first Good's difficulty, never an ``AssertionError`` from py-fsrs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import fsrs
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer, preview, with_memory
from quizzer.scheduling.settings import SchedulerSettings

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))
SETTINGS = SchedulerSettings()


def _state(phase: str, stability: float | None, difficulty: float | None) -> CardState:
    return CardState.studied(
        KEY.id,
        phase,  # type: ignore[arg-type]
        NOW - timedelta(days=2),
        last_review=NOW - timedelta(days=10),  # scheduled on an 8-day interval
        stability=stability,
        difficulty=difficulty,
        reps=3,
    )


@pytest.mark.parametrize("phase", ["review", "relearning"])
@pytest.mark.parametrize(("stability", "difficulty"), [(None, None), (4.0, None), (None, 6.0)])
@pytest.mark.parametrize("grade", [1, 2, 3, 4])
def test_every_grade_answers_a_card_without_memory(
    phase: str, stability: float | None, difficulty: float | None, grade: int
) -> None:
    state = _state(phase, stability, difficulty)
    before = state.card.to_dict()
    outcome = answer(state, grade, NOW, SETTINGS)  # type: ignore[arg-type]
    card = outcome.state.card
    assert card.stability is not None and card.stability > 0
    assert card.difficulty is not None and 1 <= card.difficulty <= 10
    assert card.due > NOW
    assert outcome.state.reps == 4
    assert state.card.to_dict() == before  # the state answered is not changed
    assert set(preview(state, NOW, SETTINGS)) == {1, 2, 3, 4}


def test_the_missing_memory_is_the_interval_and_a_first_good() -> None:
    scheduler = SETTINGS.fsrs_scheduler()
    first_good, _ = scheduler.review_card(fsrs.Card(), fsrs.Rating.Good, NOW)
    full = with_memory(_state("review", None, None).card, scheduler, NOW)
    assert full.stability == pytest.approx(8.0)
    assert full.difficulty == pytest.approx(first_good.difficulty)
    kept = with_memory(_state("review", None, 6.5).card, scheduler, NOW)
    assert kept.stability == pytest.approx(8.0) and kept.difficulty == 6.5
    relearning = with_memory(_state("relearning", 3.0, 5.0).card, scheduler, NOW)
    assert (relearning.step, relearning.stability, relearning.difficulty) == (0, 3.0, 5.0)


def test_answering_without_memory_equals_answering_with_the_filled_in_memory() -> None:
    bare = _state("review", None, None)
    filled = _state(
        "review", 8.0, with_memory(bare.card, SETTINGS.fsrs_scheduler(), NOW).difficulty
    )
    for grade in (1, 3):
        a = answer(bare, grade, NOW, SETTINGS).state.card
        b = answer(filled, grade, NOW, SETTINGS).state.card
        assert (a.stability, a.difficulty, a.due) == (b.stability, b.difficulty, b.due)


def test_a_card_with_its_memory_is_handed_to_fsrs_as_it_is() -> None:
    """No copy on the path every answer takes."""
    scheduler = SETTINGS.fsrs_scheduler()
    full = _state("review", 8.0, 5.0).card
    assert with_memory(full, scheduler, NOW) is full
    learning = _state("learning", None, None).card
    assert with_memory(learning, scheduler, NOW) is learning


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
