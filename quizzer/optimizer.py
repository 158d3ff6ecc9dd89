"""Fit FSRS parameters to the learner's own review log (``fsrs-rs-python``, no torch).

The review log becomes FSRS training items the way Anki builds them: per card,
the answers in time order, each with the number of *study days* since the
previous answer (0 within a day, the day starting at the learner's day-start
hour). One item per answer after the first: "this history, then this answer".

Before and after are measured on the same data: log loss and RMSE (binned,
as FSRS reports it) of the default parameters and of the fitted ones, on the
items that predict recall across days. The fitted parameters are kept only
when they predict the learner's answers better than the defaults do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any, Literal

import fsrs
import fsrs_rs_python

from quizzer.core.errors import QuizzerError
from quizzer.core.review import Review
from quizzer.core.stats import DEFAULT_DAY_START_HOUR, study_day

#: Answers given on a later study day than the card's previous answer — the
#: ones that tell FSRS how memory decays. Below this we refuse to optimise:
#: FSRS's own optimiser silently returns the defaults on tiny sets, and on a
#: few hundred answers the fit mostly learns noise (Anki asks for about as many).
MIN_REVIEWS = 400

DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)

Status = Literal["optimized", "not_enough_reviews", "no_improvement"]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How well a parameter set predicts the learner's answers (lower is better)."""

    log_loss: float
    rmse: float

    def to_dict(self) -> dict[str, float]:
        return {"log_loss": self.log_loss, "rmse": self.rmse}


@dataclass(frozen=True, slots=True)
class OptimizeResult:
    """The outcome: ``parameters`` is what the scheduler should use from now on."""

    status: Status
    reviews: int
    usable_reviews: int
    cards: int
    min_reviews: int
    parameters: tuple[float, ...]
    before: Evaluation | None = None
    after: Evaluation | None = None
    fitted: tuple[float, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """Whether new parameters were adopted."""
        return self.status == "optimized"

    def message(self) -> str:
        """A plain sentence for the learner."""
        if self.status == "not_enough_reviews":
            return (
                f"Not enough reviews to optimise: FSRS needs at least {self.min_reviews} answers "
                f"given on a later day than the card's previous answer; you have "
                f"{self.usable_reviews} (of {self.reviews} answers). Nothing was changed."
            )
        if self.status == "no_improvement":
            return (
                "The fitted parameters would not predict your answers better than the "
                "defaults; nothing was changed."
            )
        return "New FSRS parameters fitted to your review log; the scheduler now uses them."

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "changed": self.changed,
            "message": self.message(),
            "reviews": self.reviews,
            "usable_reviews": self.usable_reviews,
            "cards": self.cards,
            "min_reviews": self.min_reviews,
            "before": self.before.to_dict() if self.before else None,
            "after": self.after.to_dict() if self.after else None,
            "parameters": list(self.parameters),
        }


@dataclass(frozen=True, slots=True)
class TrainingSet:
    """FSRS items built from a review log.

    ``card_numbers[i]`` and ``last_delta[i]`` belong to ``items[i]``: the card it
    came from and the study days between the item's last two answers
    (``fsrs_rs_python`` doesn't expose the latter). ``cards`` is how many cards
    contributed.
    """

    items: list[fsrs_rs_python.FSRSItem]
    card_numbers: list[int]
    last_delta: list[int]
    cards: int

    def long_term(self) -> list[fsrs_rs_python.FSRSItem]:
        """The items whose last answer came on a later study day: recall across days."""
        return [item for item, d in zip(self.items, self.last_delta, strict=True) if d > 0]


def build_items(
    reviews: Iterable[Review], tz: tzinfo | None, day_start_hour: int = DEFAULT_DAY_START_HOUR
) -> TrainingSet:
    """Training items from the review log, one per answer after a card's first.

    A card whose log does not start with its first sight (``phase == "new"``)
    is left out: FSRS can't tell its initial memory from an incomplete history.
    """
    by_card: dict[str, list[Review]] = defaultdict(list)
    for r in reviews:
        by_card[r.card_id].append(r)
    items: list[fsrs_rs_python.FSRSItem] = []
    card_numbers: list[int] = []
    last_delta: list[int] = []
    used = 0
    for number, card_id in enumerate(sorted(by_card)):
        history = sorted(by_card[card_id], key=lambda r: r.reviewed_at)
        if history[0].phase != "new":
            continue
        used += 1
        steps: list[fsrs_rs_python.FSRSReview] = []
        previous = None
        for r in history:
            day = study_day(r.reviewed_at, tz, day_start_hour)
            delta = 0 if previous is None else (day - previous).days
            steps.append(fsrs_rs_python.FSRSReview(int(r.grade), delta))
            previous = day
            if len(steps) > 1:
                items.append(fsrs_rs_python.FSRSItem(list(steps)))
                card_numbers.append(number)
                last_delta.append(delta)
    return TrainingSet(items, card_numbers, last_delta, used)


def evaluate(parameters: Sequence[float], items: Sequence[fsrs_rs_python.FSRSItem]) -> Evaluation:
    """Log loss and binned RMSE of ``parameters`` on ``items``."""
    result = fsrs_rs_python.FSRS(list(parameters)).evaluate(list(items))
    return Evaluation(float(result.log_loss), float(result.rmse_bins))


def _within_bounds(parameters: Sequence[float]) -> tuple[float, ...]:
    """Clip to the bounds ``fsrs.Scheduler`` accepts (fsrs-rs may sit exactly on an edge)."""
    lower = fsrs.scheduler.LOWER_BOUNDS_PARAMETERS
    upper = fsrs.scheduler.UPPER_BOUNDS_PARAMETERS
    clipped = tuple(
        min(max(float(p), lo), hi) for p, lo, hi in zip(parameters, lower, upper, strict=True)
    )
    fsrs.Scheduler(parameters=clipped)  # raises if something is still off
    return clipped


def optimize(
    reviews: Iterable[Review],
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    current: Sequence[float] | None = None,
    min_reviews: int = MIN_REVIEWS,
) -> OptimizeResult:
    """Fit parameters to ``reviews``; see :class:`OptimizeResult` for the outcome.

    ``current`` are the parameters in use (defaults if ``None``); they stay in
    place when there is too little data or the fit is no better than the defaults.
    """
    log = list(reviews)
    keep = tuple(current) if current is not None else DEFAULT_PARAMETERS
    data = build_items(log, tz, day_start_hour)
    test_items = data.long_term()
    if len(test_items) < min_reviews:
        return OptimizeResult(
            "not_enough_reviews", len(log), len(test_items), data.cards, min_reviews, keep
        )
    before = evaluate(DEFAULT_PARAMETERS, test_items)
    # fsrs-rs wants histories with at least one answer on a later day (it panics otherwise).
    train = [
        (item, number)
        for item, number in zip(data.items, data.card_numbers, strict=True)
        if item.long_term_review_cnt() > 0
    ]
    try:
        fitted_raw = fsrs_rs_python.FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(
            [item for item, _ in train], card_ids=[number for _, number in train]
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a Rust panic arrives as pyo3's PanicException (BaseException)
        raise QuizzerError(
            f"the FSRS optimiser failed on this review log: {exc}",
            hint="nothing was changed; please report this with `quizzer log export --csv`",
        ) from exc
    fitted = _within_bounds(fitted_raw)
    after = evaluate(fitted, test_items)
    status: Status = "optimized" if after.log_loss < before.log_loss else "no_improvement"
    return OptimizeResult(
        status,
        len(log),
        len(test_items),
        data.cards,
        min_reviews,
        fitted if status == "optimized" else keep,
        before,
        after,
        fitted,
    )
