"""Fit FSRS parameters to the learner's own review log (``fsrs-rs-python``, no torch).

The review log becomes FSRS training items the way Anki builds them: per card,
the answers in time order, each with the number of *study days* since the
previous answer (0 within a day, the day starting at the learner's day-start
hour). One item per answer after the first: "this history, then this answer".

Fitting and judging use different cards. Each card goes, by a stable hash of
its id, to the held-out set (about :data:`HELD_OUT_PERCENT` %) or the training
set. The parameters are fitted on the training cards only; then the parameters
*currently in use* (the store's, the FSRS defaults until a first optimisation)
and the fitted ones are both measured on the held-out cards' answers across
days: log loss and RMSE (binned, as FSRS reports it). The fitted parameters are
adopted only when their held-out log loss is lower than the current ones'.

What is adopted is exactly the training-set fit that was measured (no refit on
all data): the numbers shown are then the numbers of the stored parameters, at
the cost of fitting on ~80 % of the answers. The split is stable, so running
``optimize`` again on a grown log keeps the same cards held out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import tzinfo
from hashlib import blake2b
from typing import Any, Literal

import fsrs
import fsrs_rs_python

from quizzer.errors import QuizzerError
from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR, study_day

#: Answers given on a later study day than the card's previous answer — the
#: ones that tell FSRS how memory decays. Below this we refuse to optimise:
#: FSRS's own optimiser silently returns the defaults on tiny sets, and on a
#: few hundred answers the fit mostly learns noise (Anki asks for about as many).
MIN_REVIEWS = 400

#: Share of cards (by a stable hash of the card id) kept out of fitting to judge it.
HELD_OUT_PERCENT = 20
#: Fewest held-out answers across days for a comparison worth trusting.
MIN_HELD_OUT = 50

DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)

Status = Literal["optimized", "not_enough_reviews", "no_improvement"]


def is_held_out(card_id: str, percent: int = HELD_OUT_PERCENT) -> bool:
    """Whether ``card_id`` belongs to the held-out cards: stable across runs and machines."""
    digest = blake2b(card_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % 100 < percent


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How well a parameter set predicts the learner's answers (lower is better)."""

    log_loss: float
    rmse: float

    def to_dict(self) -> dict[str, float]:
        """A JSON-ready form."""
        return {"log_loss": self.log_loss, "rmse": self.rmse}


@dataclass(frozen=True, slots=True)
class OptimizeResult:
    """The outcome: ``parameters`` is what the scheduler should use from now on.

    ``before`` measures the parameters in use when ``optimize`` ran
    (``current``), ``after`` the fitted ones, both on the held-out cards'
    answers across days (``held_out_reviews`` of them, from ``held_out_cards``
    cards); the fit saw only the other cards (``train_reviews``).
    """

    status: Status
    reviews: int
    usable_reviews: int
    cards: int
    min_reviews: int
    parameters: tuple[float, ...]
    before: Evaluation | None = None
    after: Evaluation | None = None
    fitted: tuple[float, ...] = field(default=())
    current: tuple[float, ...] = field(default=())
    held_out_cards: int = 0
    held_out_reviews: int = 0
    train_reviews: int = 0
    min_held_out: int = MIN_HELD_OUT

    @property
    def changed(self) -> bool:
        """Whether new parameters were adopted."""
        return self.status == "optimized"

    @property
    def current_is_default(self) -> bool:
        """Whether the parameters in use were FSRS's defaults."""
        return tuple(self.current) == DEFAULT_PARAMETERS

    def message(self) -> str:
        """A plain sentence for the learner."""
        if self.status == "not_enough_reviews":
            if self.usable_reviews < self.min_reviews:
                # `quizzer optimize` has just said which answers count; say what is missing.
                return (
                    f"Not enough reviews to optimise yet: at least {self.min_reviews} are "
                    f"needed and you have {self.usable_reviews}, so "
                    f"{self.min_reviews - self.usable_reviews} more. Nothing was changed."
                )
            return (
                f"Not enough reviews to optimise: the cards set aside to check the fit have "
                f"{self.held_out_reviews} answers on a later day, at least "
                f"{self.min_held_out} are needed for a fair comparison. Nothing was changed."
            )
        if self.status == "no_improvement":
            return (
                "The fitted parameters would not predict your answers better than the "
                "parameters in use; nothing was changed."
            )
        return "New FSRS parameters fitted to your review log; the scheduler now uses them."

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for ``--json`` output, the message and held-out set included."""
        return {
            "status": self.status,
            "changed": self.changed,
            "message": self.message(),
            "reviews": self.reviews,
            "usable_reviews": self.usable_reviews,
            "cards": self.cards,
            "min_reviews": self.min_reviews,
            "evaluated_on": {
                "set": "held_out_cards",
                "percent_of_cards": HELD_OUT_PERCENT,
                "cards": self.held_out_cards,
                "reviews": self.held_out_reviews,
                "train_reviews": self.train_reviews,
            },
            "before_parameters": "defaults" if self.current_is_default else "current",
            "before": self.before.to_dict() if self.before else None,
            "after": self.after.to_dict() if self.after else None,
            "parameters": list(self.parameters),
        }


@dataclass(frozen=True, slots=True)
class TrainingSet:
    """FSRS items built from a review log.

    ``card_numbers[i]``, ``card_ids[i]`` and ``last_delta[i]`` belong to
    ``items[i]``: the card it came from (as a number and as its id) and the
    study days between the item's last two answers (``fsrs_rs_python`` doesn't
    expose the latter). ``cards`` is how many cards contributed.
    """

    items: list[fsrs_rs_python.FSRSItem]
    card_numbers: list[int]
    last_delta: list[int]
    cards: int
    card_ids: list[str] = field(default_factory=list)

    def long_term(self, held_out: bool | None = None) -> list[fsrs_rs_python.FSRSItem]:
        """The items whose last answer came on a later study day: recall across days.

        ``held_out=True`` keeps only the held-out cards' items, ``False`` only the others.
        """
        return [
            item
            for item, d, cid in zip(self.items, self.last_delta, self.card_ids, strict=True)
            if d > 0 and (held_out is None or is_held_out(cid) == held_out)
        ]


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
    card_ids: list[str] = []
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
                card_ids.append(card_id)
                last_delta.append(delta)
    return TrainingSet(items, card_numbers, last_delta, used, card_ids)


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
    min_held_out: int = MIN_HELD_OUT,
) -> OptimizeResult:
    """Fit parameters to the training cards of ``reviews``, judge them on the held-out cards.

    ``current`` are the parameters in use (defaults if ``None``): they are the
    "before", and they stay in place when there is too little data or the fit
    doesn't beat them on the held-out cards (see the module docstring).
    """
    log = list(reviews)
    keep = tuple(current) if current is not None else DEFAULT_PARAMETERS
    data = build_items(log, tz, day_start_hour)
    usable = data.long_term()
    test_items = data.long_term(held_out=True)
    held_cards = len({cid for cid in data.card_ids if is_held_out(cid)})
    # fsrs-rs wants histories with at least one answer on a later day (it panics otherwise).
    train = [
        (item, number)
        for item, number, cid in zip(data.items, data.card_numbers, data.card_ids, strict=True)
        if item.long_term_review_cnt() > 0 and not is_held_out(cid)
    ]
    # The figures every outcome reports; an actual fit then adds its own.
    too_little = OptimizeResult(
        "not_enough_reviews",
        reviews=len(log),
        usable_reviews=len(usable),
        cards=data.cards,
        min_reviews=min_reviews,
        parameters=keep,
        current=keep,
        held_out_cards=held_cards,
        held_out_reviews=len(test_items),
        train_reviews=len(data.long_term(held_out=False)),
        min_held_out=min_held_out,
    )
    if len(usable) < min_reviews or len(test_items) < min_held_out or not train:
        return too_little
    before = evaluate(keep, test_items)
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
    return replace(
        too_little,
        status=status,
        parameters=fitted if status == "optimized" else keep,
        before=before,
        after=after,
        fitted=fitted,
    )
