"""FSRS parameters fitted to a learner's own review log (fsrs-rs-python)."""

from __future__ import annotations

from datetime import UTC, datetime

import fsrs
import pytest
from synthetic_history import TZ, make_history

from quizzer.core.review import Review
from quizzer.optimizer import DEFAULT_PARAMETERS, MIN_REVIEWS, build_items, optimize


@pytest.fixture(scope="module")
def big():
    history = make_history(seed=7, n_cards=60, days=365)
    assert len(history.reviews) >= 1000
    return history


def test_optimize_improves_log_loss_on_a_long_history(big) -> None:
    result = optimize(big.reviews, TZ, 4)
    assert result.status == "optimized", result.message()
    assert result.changed
    assert result.usable_reviews >= MIN_REVIEWS
    assert result.before is not None and result.after is not None
    assert result.after.log_loss < result.before.log_loss
    assert result.after.rmse < result.before.rmse
    assert result.parameters == result.fitted
    assert result.parameters != DEFAULT_PARAMETERS
    assert len(result.parameters) == 21
    # The scheduler accepts them as they are.
    fsrs.Scheduler(parameters=result.parameters)
    data = result.to_dict()
    assert data["changed"] is True and data["before"]["log_loss"] > data["after"]["log_loss"]


def test_optimize_refuses_a_short_history_and_keeps_parameters() -> None:
    history = make_history(seed=7, n_cards=10, days=60)
    current = (*DEFAULT_PARAMETERS[:-1], 0.2)
    result = optimize(history.reviews, TZ, 4, current=current)
    assert result.status == "not_enough_reviews"
    assert not result.changed
    assert result.parameters == current
    assert result.before is None and result.after is None
    assert f"at least {MIN_REVIEWS}" in result.message()
    assert str(result.usable_reviews) in result.message()
    assert "Nothing was changed" in result.message()
    assert optimize([], TZ, 4).status == "not_enough_reviews"


def test_build_items_counts_study_days_with_the_4am_boundary() -> None:
    def r(i: int, when: datetime, grade: int, phase: str = "review") -> Review:
        return Review(
            id=f"x{i}",
            card_id="synth/c00|en:term>bn:term",
            reviewed_at=when,
            grade=grade,  # type: ignore[arg-type]
            mode="flip",
            duration_ms=1,
            phase=phase,  # type: ignore[arg-type]
        )

    def at(d: int, h: int) -> datetime:
        return datetime(2026, 3, d, h, tzinfo=TZ).astimezone(UTC)

    log = [
        r(0, at(1, 10), 1, "new"),
        r(1, at(1, 10), 3, "learning"),
        r(2, at(2, 3), 3),  # 03:00 on the 2nd: still study day 1
        r(3, at(2, 5), 3),  # day 2
        r(4, at(6, 9), 1),  # day 6
    ]
    data = build_items(log, TZ, 4)
    assert data.cards == 1
    assert data.last_delta == [0, 0, 1, 4]
    assert [item.long_term_review_cnt() for item in data.items] == [0, 0, 1, 2]
    assert len(data.long_term()) == 2
    # A card whose first answer is missing from the log is left out.
    assert build_items(log[1:], TZ, 4).items == []
