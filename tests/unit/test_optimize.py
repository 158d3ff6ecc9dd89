"""FSRS parameters fitted to a learner's own review log (fsrs-rs-python)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import fsrs
import fsrs_rs_python
import pytest

from quizzer.scheduling.optimizer import (
    DEFAULT_PARAMETERS,
    HELD_OUT_PERCENT,
    MIN_REVIEWS,
    Evaluation,
    build_items,
    evaluate,
    is_held_out,
    optimize,
)
from quizzer.scheduling.review import Review
from tests.synthetic_history import TZ, History, make_history


def held_out_by_hand(card_id: str) -> bool:
    """The split rule written out: blake2b-64 of the card id, modulo 100, under 20."""
    digest = hashlib.blake2b(card_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % 100 < 20


def same(a: Evaluation | None, b: Evaluation | None) -> bool:
    """Equal evaluations (fsrs-rs sums in float32: the last digits may differ between calls)."""
    assert a is not None and b is not None
    return a.log_loss == pytest.approx(b.log_loss, rel=1e-5) and a.rmse == pytest.approx(
        b.rmse, rel=1e-5
    )


def split_items(
    history: History,
) -> tuple[list[fsrs_rs_python.FSRSItem], list[fsrs_rs_python.FSRSItem], list[int]]:
    """(held-out items across days, training items with a later-day answer, their card numbers),
    built from the log by hand: per card, answers in order, study days with the 4 AM start."""
    by_card: dict[str, list[Review]] = {}
    for r in history.reviews:
        by_card.setdefault(r.card_id, []).append(r)
    test, train, numbers = [], [], []
    for number, card_id in enumerate(sorted(by_card)):
        log = sorted(by_card[card_id], key=lambda r: r.reviewed_at)
        if log[0].phase != "new":
            continue
        steps, previous, crossed = [], None, False
        for r in log:
            t = r.reviewed_at.astimezone(TZ)
            day = t.date() if t.hour >= 4 else t.date().fromordinal(t.date().toordinal() - 1)
            delta = 0 if previous is None else (day - previous).days
            crossed = crossed or delta > 0
            steps.append(fsrs_rs_python.FSRSReview(int(r.grade), delta))
            previous = day
            if len(steps) < 2:
                continue
            item = fsrs_rs_python.FSRSItem(list(steps))
            if held_out_by_hand(card_id):
                if delta > 0:
                    test.append(item)
            elif crossed:
                train.append(item)
                numbers.append(number)
    return test, train, numbers


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
    assert data["before_parameters"] == "defaults"
    assert data["evaluated_on"]["set"] == "held_out_cards"


def test_split_is_stable_and_about_a_fifth_of_cards() -> None:
    ids = [f"deck/c{i}|en:term>bn:term" for i in range(2000)]
    assert [is_held_out(c) for c in ids] == [held_out_by_hand(c) for c in ids]
    share = sum(map(is_held_out, ids)) / len(ids)
    assert abs(share - HELD_OUT_PERCENT / 100) < 0.03


def test_fit_sees_only_training_cards_and_is_judged_on_held_out_ones(big) -> None:
    result = optimize(big.reviews, TZ, 4)
    test, train, numbers = split_items(big)
    assert result.held_out_reviews == len(test) >= 50
    assert result.held_out_cards == len(
        {r.card_id for r in big.reviews if held_out_by_hand(r.card_id)}
    )
    assert result.train_reviews + result.held_out_reviews == result.usable_reviews
    # The same fit from the training cards alone, done by hand: the held-out cards played no part.
    by_hand = fsrs_rs_python.FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(
        train, card_ids=numbers
    )
    assert result.fitted == pytest.approx(tuple(by_hand), abs=1e-6)
    # Before and after are measured on the held-out answers only.
    assert same(result.before, evaluate(DEFAULT_PARAMETERS, test))
    assert same(result.after, evaluate(result.fitted, test))


def test_before_is_the_parameters_in_use_and_the_fit_must_beat_them(big) -> None:
    first = optimize(big.reviews, TZ, 4)
    assert first.status == "optimized"
    test, _, _ = split_items(big)
    # Parameters fitted on every card (held-out ones included) predict the held-out answers
    # better than a fit that never saw them: in use, they must be kept.
    in_use = tuple(
        fsrs_rs_python.FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(
            [i for i in build_items(big.reviews, TZ, 4).items if i.long_term_review_cnt() > 0]
        )
    )
    bounds = zip(
        fsrs.scheduler.LOWER_BOUNDS_PARAMETERS, fsrs.scheduler.UPPER_BOUNDS_PARAMETERS, strict=True
    )
    in_use = tuple(min(max(p, lo), hi) for p, (lo, hi) in zip(in_use, bounds, strict=True))
    result = optimize(big.reviews, TZ, 4, current=in_use)
    assert same(result.before, evaluate(in_use, test))
    assert not same(result.before, first.before)  # not the defaults' figures
    assert result.before is not None and result.after is not None
    assert result.before.log_loss <= result.after.log_loss
    assert result.status == "no_improvement" and not result.changed
    assert result.parameters == in_use
    assert "parameters in use" in result.message()
    assert result.to_dict()["before_parameters"] == "current"
    # Optimising again with what the first run adopted changes nothing either.
    again = optimize(big.reviews, TZ, 4, current=first.parameters)
    assert again.status == "no_improvement" and again.parameters == first.parameters


def test_refuses_when_the_held_out_cards_are_too_few(big) -> None:
    result = optimize(big.reviews, TZ, 4, min_held_out=10_000)
    assert result.status == "not_enough_reviews" and not result.changed
    assert result.usable_reviews >= MIN_REVIEWS
    assert result.parameters == DEFAULT_PARAMETERS and result.before is None
    assert "set aside to check the fit" in result.message()
    assert "Nothing was changed" in result.message()


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
