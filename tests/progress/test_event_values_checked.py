"""A line from another device or a merge input becomes an event only if every value fits;
otherwise BadEvent says what is wrong (the reader reports and skips it)."""

from __future__ import annotations

from typing import Any

import pytest

import quizzer.progress.events as ev

CARD = "demo/c1|en:term>en:definition"


def answer(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"id": "a-1", "dev": "a", "seq": 1, "at": 1_700_000_000_000}
    data |= {"op": "answer", "card": CARD, "grade": 3, "mode": "flip", "ms": 900}
    return data | changes


def test_a_good_answer_round_trips() -> None:
    event = ev.from_dict(answer(typed="x", correct=True, params="abc"))
    assert isinstance(event, ev.Answer)
    assert ev.from_dict(event.to_dict()) == event
    assert event.review_id == "a-1"
    kept = ev.from_dict(answer(review="0001-aa"))
    assert isinstance(kept, ev.Answer) and kept.review_id == "0001-aa"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"grade": 9}, "grade must be a whole number from 1 to 4"),
        ({"grade": True}, "grade"),
        ({"card": None}, "card must be a non-empty text"),
        ({"card": "nonsense"}, "is not a card id"),
        ({"mode": "dance"}, "mode must be one of"),
        ({"id": "b-1"}, "is not a-1"),
        ({"at": -5}, "at must be"),
        ({"op": "explode"}, "unknown op"),
        ({"ms": "long"}, "ms must be"),
        ({"correct": "yes"}, "correct must be true or false"),
    ],
)
def test_bad_values_are_named(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ev.BadEvent, match=words):
        ev.from_dict(answer(**changes))


def test_an_undo_without_target_and_bad_settings_are_refused() -> None:
    head = {"id": "a-2", "dev": "a", "seq": 2, "at": 1}
    with pytest.raises(ev.BadEvent, match="target"):
        ev.from_dict(head | {"op": "undo"})
    with pytest.raises(ev.BadEvent, match="unknown setting"):
        ev.from_dict(head | {"op": "settings", "values": {"colour": 1}})
    with pytest.raises(ev.BadEvent, match="bad settings"):
        ev.from_dict(head | {"op": "settings", "values": {"desired_retention": 3}})


def test_times_round_trip_in_milliseconds() -> None:
    moment = ev.from_ms(1_700_000_000_123)
    assert ev.to_ms(moment) == 1_700_000_000_123
