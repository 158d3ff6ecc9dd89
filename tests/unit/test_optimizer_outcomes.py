"""What the FSRS optimiser (``scheduling.optimizer``) reports: what ``quizzer optimize`` says
in each outcome and prints with ``--json``, word for word; the thresholds the README gives
(400 answers across days, 50 of them on the cards set aside), each reached exactly; the
training items of a log whose cards start otherwise than new; and an optimiser that fails
inside fsrs-rs.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import fsrs_rs_python
import pytest

from quizzer.errors import QuizzerError
from quizzer.scheduling import optimizer
from quizzer.scheduling.optimizer import (
    DEFAULT_PARAMETERS,
    Evaluation,
    OptimizeResult,
    TrainingSet,
    build_items,
    optimize,
)
from quizzer.scheduling.review import Review
from tests.synthetic_history import TZ, make_history


def _result(**kw: Any) -> OptimizeResult:
    fields: dict[str, Any] = {
        "status": "not_enough_reviews",
        "reviews": 0,
        "usable_reviews": 0,
        "cards": 0,
        "min_reviews": 400,
        "parameters": DEFAULT_PARAMETERS,
    }
    return OptimizeResult(**{**fields, **kw})


def test_an_empty_log_is_refused_with_the_readmes_thresholds() -> None:
    result = optimize([], TZ)
    assert (result.min_reviews, result.min_held_out) == (400, 50)
    assert result.message() == (
        "Not enough reviews to optimise yet: at least 400 are needed and you have 0, so 400 "
        "more. Nothing was changed."
    )


def test_each_outcome_says_what_happened_word_for_word() -> None:
    short = _result(usable_reviews=123)
    assert short.message() == (
        "Not enough reviews to optimise yet: at least 400 are needed and you have 123, so 277 "
        "more. Nothing was changed."
    )
    # Exactly as many as needed, but too few on the held-out cards: the other reason.
    few_held = _result(usable_reviews=400, held_out_reviews=49)
    assert few_held.message() == (
        "Not enough reviews to optimise: the cards set aside to check the fit have 49 answers "
        "on a later day, at least 50 are needed for a fair comparison. Nothing was changed."
    )
    assert _result(status="no_improvement").message() == (
        "The fitted parameters would not predict your answers better than the parameters in "
        "use; nothing was changed."
    )
    assert _result(status="optimized").message() == (
        "New FSRS parameters fitted to your review log; the scheduler now uses them."
    )


def test_the_json_of_an_outcome_is_every_figure_under_its_name() -> None:
    before, after = Evaluation(0.5, 0.1), Evaluation(0.4, 0.08)
    fitted = (*DEFAULT_PARAMETERS[:-1], 0.3)
    counts = {"reviews": 900, "usable_reviews": 700, "cards": 60, "train_reviews": 560}
    held_out = {"held_out_cards": 12, "held_out_reviews": 140}
    fit = {"before": before, "after": after, "fitted": fitted, "current": DEFAULT_PARAMETERS}
    result = _result(status="optimized", parameters=fitted, **counts, **held_out, **fit)
    assert result.to_dict() == {
        "status": "optimized",
        "changed": True,
        "message": result.message(),
        "reviews": 900,
        "usable_reviews": 700,
        "cards": 60,
        "min_reviews": 400,
        "evaluated_on": {
            "set": "held_out_cards",
            "percent_of_cards": 20,
            "cards": 12,
            "reviews": 140,
            "train_reviews": 560,
        },
        "before_parameters": "defaults",
        "before": {"log_loss": 0.5, "rmse": 0.1},
        "after": {"log_loss": 0.4, "rmse": 0.08},
        "parameters": list(fitted),
    }


def test_an_outcome_built_with_only_its_figures_has_nothing_measured() -> None:
    result = _result()
    assert (result.fitted, result.current, result.before, result.after) == ((), (), None, None)
    assert (result.held_out_cards, result.held_out_reviews, result.train_reviews) == (0, 0, 0)
    assert result.min_held_out == 50
    assert result.to_dict()["evaluated_on"] == {
        "set": "held_out_cards",
        "percent_of_cards": 20,
        "cards": 0,
        "reviews": 0,
        "train_reviews": 0,
    }
    assert TrainingSet([], [], [], 0).long_term() == []  # card ids default to none


def test_outcomes_evaluations_and_training_sets_are_not_changed_in_place() -> None:
    for value, name in (
        (_result(), "status"),
        (Evaluation(0.5, 0.1), "rmse"),
        (TrainingSet([], [], [], 0), "cards"),
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 1)


def _review(card: str, i: int, when: datetime, phase: str) -> Review:
    return Review(
        id=f"{card}-{i}",
        card_id=card,
        reviewed_at=when,
        grade=3,
        mode="flip",
        duration_ms=1,
        phase=phase,  # type: ignore[arg-type]
    )


def test_a_card_whose_log_starts_otherwise_than_new_is_left_out_and_the_rest_kept() -> None:
    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    log = [
        # "a…" sorts first: its first answer isn't in the log.
        _review("a/c|en:term>fr:term", 0, start, "review"),
        _review("a/c|en:term>fr:term", 1, start + timedelta(days=3), "review"),
    ]
    for card in ("b/c|en:term>fr:term", "c/c|en:term>fr:term"):
        log += [
            _review(card, 0, start, "new"),
            _review(card, 1, start + timedelta(days=2), "review"),
        ]
    data = build_items(log, TZ, 4)
    assert data.cards == 2
    assert data.card_ids == ["b/c|en:term>fr:term", "c/c|en:term>fr:term"]
    assert data.card_numbers == [1, 2] and data.last_delta == [2, 2]


def test_a_log_with_exactly_the_answers_needed_is_fitted() -> None:
    history = make_history(seed=7, n_cards=20, days=60)
    counted = optimize(history.reviews, TZ, 4)
    assert counted.status == "not_enough_reviews" and counted.held_out_reviews > 0
    exact = optimize(
        history.reviews,
        TZ,
        4,
        min_reviews=counted.usable_reviews,
        min_held_out=counted.held_out_reviews,
    )
    assert exact.status in ("optimized", "no_improvement") and exact.before is not None
    assert (
        optimize(history.reviews, TZ, 4, min_reviews=counted.usable_reviews + 1).status
        == "not_enough_reviews"
    )
    assert (
        optimize(
            history.reviews,
            TZ,
            4,
            min_reviews=counted.usable_reviews,
            min_held_out=counted.held_out_reviews + 1,
        ).status
        == "not_enough_reviews"
    )


def test_an_optimiser_that_fails_inside_fsrs_rs_is_a_reported_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Failing:
        def __init__(self, parameters: list[float]) -> None:
            self.real = fsrs_rs_python.FSRS(parameters)

        def evaluate(self, items: list[Any]) -> Any:
            return self.real.evaluate(items)

        def compute_parameters(self, *args: Any, **kwargs: Any) -> list[float]:
            raise BaseException("index out of bounds")  # what a Rust panic arrives as

    stub = SimpleNamespace(
        FSRS=Failing, FSRSItem=fsrs_rs_python.FSRSItem, FSRSReview=fsrs_rs_python.FSRSReview
    )
    monkeypatch.setattr(optimizer, "fsrs_rs_python", stub)
    history = make_history(seed=7, n_cards=20, days=60)
    with pytest.raises(QuizzerError) as raised:
        optimize(history.reviews, TZ, 4, min_reviews=1, min_held_out=1)
    assert (
        raised.value.message == "the FSRS optimiser failed on this review log: index out of bounds"
    )
    assert raised.value.hint == (
        "nothing was changed; please report this with `quizzer log export --csv`"
    )
