"""An answer as recorded: a plain answer's defaults, review ids, intervals kept to six decimals."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime

import pytest

from quizzer.scheduling.answer import Answer, review_id

CARD = "deck/c01|ru-term-bn-definition"
AT = datetime(2026, 3, 10, 12, 0, 0, 123456, tzinfo=UTC)


def test_a_plain_answer_is_a_flip_with_nothing_else() -> None:
    a = Answer()
    assert (a.mode, a.duration_ms, a.typed, a.correct, a.overridden) == (
        "flip",
        0,
        None,
        None,
        False,
    )
    assert a.overridden is False and a.typed is None and a.correct is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.mode = "typed"  # type: ignore[misc]
    assert not hasattr(a, "__dict__")


def test_review_ids_are_pinned() -> None:
    # The journal and merges match reviews by id: the same inputs must give the same id
    # in every version, milliseconds then 8 hex digits.
    assert review_id(CARD, AT) == "1773144000123-f45522b5"
    assert review_id(CARD, AT, 7) == "1773144000123-c6edd723"
    assert re.fullmatch(r"\d{13}-[0-9a-f]{8}", review_id("x", datetime(2001, 1, 1, tzinfo=UTC)))


def test_intervals_are_kept_to_six_decimals() -> None:
    from quizzer.cards.card import CardKey, Pair
    from quizzer.scheduling.answer import answered_review
    from quizzer.scheduling.card_state import CardState
    from quizzer.scheduling.scheduler import Outcome

    state = CardState.new(CardKey("deck/c01", Pair("ru", "term", "bn", "definition")), AT)
    outcome = Outcome(state, "review", 1.23456789, 3.14159265, False)
    review = answered_review("id-1", CARD, 3, AT, Answer("typed", 1500, "да", True), outcome)
    assert (review.last_interval_days, review.interval_days) == (1.234568, 3.141593)
    assert (review.mode, review.duration_ms, review.typed, review.correct) == (
        "typed",
        1500,
        "да",
        True,
    )
