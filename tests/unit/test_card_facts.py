"""Card facts (``stats.cardfacts``): a fact of each bucket, with its empty fields, comes back
from its line as it was (the figures cache ``P.figures`` keeps them so); which cards the
summaries list; the forecast past cards with no due date and with several overdue; recall of
a memory of no stability and of cards with no recall, in any order of the cards; means
summed exactly in any order.
"""

from __future__ import annotations

import itertools
import math
from datetime import UTC, date, datetime, timedelta

import fsrs
import pytest

from quizzer.scheduling.card_state import CardState
from quizzer.stats.cardfacts import (
    BUCKETS,
    CardFact,
    fact_of,
    forecast_on,
    mean,
    recalls_on,
    retrievability,
)
from quizzer.stats.days import StudyDays

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
TODAY = date(2026, 6, 1)
CARD = "deck/c1|en:term>fr:term"


@pytest.mark.parametrize(
    "bucket", ["new", "learning", "young", "mature", "relearning", "suspended"]
)  # the buckets of StateCounts
def test_a_fact_of_each_bucket_comes_back_from_its_line_as_it_was(bucket: str) -> None:
    assert bucket in BUCKETS and len(BUCKETS) == 6
    for fact in (
        CardFact(bucket, False, None, None, None, False),
        CardFact(bucket, True, 0.1 + 0.2, 740_000, 740_031, True),
    ):
        line = fact.to_line()
        assert "\n" not in line and CardFact.from_line(line) == fact


def test_a_line_of_another_bucket_is_refused_naming_it() -> None:
    with pytest.raises(ValueError) as raised:
        CardFact.from_line("forgotten\t\t\t\t\t")
    assert str(raised.value) == "not a card's bucket: 'forgotten'"


def _state(reps: int, last_review: datetime | None) -> CardState:
    card = fsrs.Card(card_id=1, state=fsrs.State.Learning, due=NOW, last_review=last_review)
    return CardState(CARD, card, reps=reps)


@pytest.mark.parametrize(
    ("reps", "last_review", "listed"),
    [
        (0, None, False),  # never answered: not in the summaries
        (3, NOW - timedelta(days=2), True),
        (0, NOW - timedelta(days=2), True),  # answered, its count lost: listed
        (1, None, True),  # not new, its last answer unknown: listed
    ],
)
def test_the_summaries_list_a_card_answered_or_not_new(
    reps: int, last_review: datetime | None, listed: bool
) -> None:
    assert fact_of(_state(reps, last_review), StudyDays(UTC, 4)).listed is listed


def test_the_forecast_skips_cards_with_no_due_date_and_counts_every_overdue_one() -> None:
    day = TODAY.toordinal()
    forecast = forecast_on([None, day - 3, None, day - 1, day, day + 2, day + 30], TODAY)
    assert forecast.overdue == 2
    assert forecast.days[:3] == (3, 0, 1) and sum(forecast.days) == 4  # day + 30 is past


@pytest.mark.parametrize("stability", [0.0, -1.0])
def test_a_memory_of_no_stability_recalls_nothing(stability: float) -> None:
    assert retrievability(stability, 0.0) == 0.0
    assert retrievability(stability, 5.0) == 0.0
    assert retrievability(1.0, 1.0) == pytest.approx(0.9)  # R = 0.9 when t = S


def test_recall_leaves_out_cards_with_no_recall_wherever_they_come() -> None:
    day = TODAY.toordinal()
    answered = CardFact("young", False, 4.0, day - 4, day + 3, True)
    facts = {
        "never": CardFact("new", False, None, None, None, False),
        "a": answered,
        "no memory": CardFact("learning", False, None, day - 1, day, True),
        "no day": CardFact("learning", False, 2.0, None, day, True),
        "b": answered,
    }
    recall = recalls_on(facts, TODAY)
    assert recall == {"a": pytest.approx(0.9), "b": pytest.approx(0.9)}


def test_a_mean_is_the_exact_sum_over_the_count_in_any_order() -> None:
    assert mean([1.0, 2.0, 3.0, 4.0]) == 2.5
    values = [1e16, 1.0, -1e16]
    assert {mean(list(order)) for order in itertools.permutations(values)} == {1 / 3}
    assert mean(values) == math.fsum(values) / 3
