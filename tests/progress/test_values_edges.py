"""Every check of a value read back (``progress.values``), each with the message a person reads.

Written from a mutation-testing run (mutmut on ``quizzer/progress/values.py``): the fault
matrix and the guard tests put a few bad values into real files; here every rule —
each key, each range's edge, each kind of record — is held on its own, with its message
(the doctor prints these, naming the file and the record).
"""

from __future__ import annotations

from typing import Any

import pytest

from quizzer.progress.values import (
    aware_time,
    card_problem,
    event_problem,
    recent_problem,
    review_problem,
    undo_problem,
)
from tests.progress import store_builder as sb

CARD = sb.card(1).id
AT = "2026-08-01T09:00:00+00:00"


def review(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "r1",
        "card_id": CARD,
        "reviewed_at": AT,
        "grade": 3,
        "mode": "flip",
        "duration_ms": 1200,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not DROP}


def card(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"card_id": CARD, "state": 2, "due": AT, "reps": 1, "lapses": 0}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not DROP}


DROP = object()


def _bad_review(data: Any, reason: str) -> str:
    return f"review {data!r:.80} is invalid ({reason})"


def test_aware_time_takes_only_a_time_with_its_offset() -> None:
    assert aware_time(AT, "x").utcoffset() is not None
    with pytest.raises(ValueError, match=r"^when is not a time: 5$"):
        aware_time(5, "when")
    with pytest.raises(ValueError, match=r"^when has no UTC offset: '2026-08-01T09:00:00'$"):
        aware_time("2026-08-01T09:00:00", "when")


@pytest.mark.parametrize(
    "data",
    [
        review(),
        review(grade=1),
        review(grade=4),
        review(due=None),
        review(due=AT),
        review(stability=1, difficulty=5.5, last_interval_days=0, interval_days=2.5),
        review(stability=None),
    ],
)
def test_a_logged_answer_as_quizzer_writes_it(data: dict[str, Any]) -> None:
    assert review_problem(data) is None


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([1], "not an object"),
        (review(id=5), "id is not a text: 5"),
        (review(id=""), "id is not a text: ''"),
        (review(id=DROP), "missing 'id'"),
        (review(card_id="nonsense"), "not a card id: 'nonsense'"),
        (review(grade=True), "grade is not a whole number: True"),
        (review(grade=3.0), "grade is not a whole number: 3.0"),
        (review(grade=0), "grade is out of range: 0"),
        (review(grade=5), "grade is out of range: 5"),
        (review(grade=DROP), "missing 'grade'"),
        (review(reviewed_at=5), "reviewed_at is not a time: 5"),
        (review(reviewed_at="garbage"), "Invalid isoformat string: 'garbage'"),
        (
            review(reviewed_at="2026-08-01T09:00:00"),
            "reviewed_at has no UTC offset: '2026-08-01T09:00:00'",
        ),
        (review(due="2026-09-01T00:00:00"), "due has no UTC offset: '2026-09-01T00:00:00'"),
        (review(stability="x"), "stability is not a number: 'x'"),
        (review(difficulty=True), "difficulty is not a number: True"),
        (review(last_interval_days=[]), "last_interval_days is not a number: []"),
        (review(interval_days="1"), "interval_days is not a number: '1'"),
        (review(mode=DROP), "missing 'mode'"),
        (review(duration_ms="x"), "invalid literal for int() with base 10: 'x'"),
    ],
)
def test_a_bad_answer_says_what_is_wrong(data: Any, reason: str) -> None:
    assert review_problem(data) == _bad_review(data, reason)


def test_a_long_record_is_shown_cut_to_80_characters() -> None:
    data = review(id="x" * 200, grade=9)
    problem = review_problem(data)
    assert problem == f"review {repr(data)[:80]} is invalid (grade is out of range: 9)"


@pytest.mark.parametrize(
    "data",
    [
        card(),
        card(reps=0, lapses=0),
        card(last_review=AT, buried_until=AT, first_review=AT),
        card(last_review=None, buried_until=None, first_review=None),
        card(reps=DROP, lapses=DROP),
    ],
)
def test_a_card_state_as_quizzer_writes_it(data: dict[str, Any]) -> None:
    assert card_problem(data) is None


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("x", "not an object"),
        (card(due=DROP), "missing 'due'"),
        (card(due="2026-09-01T00:00:00"), "due has no UTC offset: '2026-09-01T00:00:00'"),
        (card(last_review="x"), "Invalid isoformat string: 'x'"),
        (card(last_review="2026-08-01T09"), "last_review has no UTC offset: '2026-08-01T09'"),
        (card(buried_until=5), "buried_until is not a time: 5"),
        (card(first_review="2026-08-01"), "first_review has no UTC offset: '2026-08-01'"),
        (card(reps=-1), "reps is out of range: -1"),
        (card(lapses=True), "lapses is not a whole number: True"),
        (card(state=9), "9 is not a valid State"),
        (card(card_id="x"), "not a card id: 'x'"),
    ],
)
def test_a_bad_card_state_says_what_is_wrong(data: Any, reason: str) -> None:
    assert card_problem(data) == f"card state {data!r:.80} is invalid ({reason})"


BURY = {"id": "b1", "card_id": CARD, "at": AT, "until": "2026-08-02T04:00:00+00:00"}


def answer_undo(**changes: Any) -> dict[str, Any]:
    data = {"review_id": "r1", "card_id": CARD, "before": card(), "review": review()}
    data.update(changes)
    return data


def bury_undo(**changes: Any) -> dict[str, Any]:
    data = {"bury_id": "b1", "card_id": CARD, "before": None, "bury": dict(BURY)}
    data.update(changes)
    return data


@pytest.mark.parametrize("entry", [answer_undo(), answer_undo(before=None), bury_undo()])
def test_an_undo_entry_that_can_be_taken_back(entry: dict[str, Any]) -> None:
    assert undo_problem(entry) is None


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        (None, "not an object"),
        (answer_undo(before=card(reps=-1)), card_problem(card(reps=-1))),
        (bury_undo(before=card(due=5)), card_problem(card(due=5))),
        (bury_undo(bury_id=1), "bury_id is not a text"),
        (bury_undo(bury=[]), "the bury is not a record"),
        (bury_undo(bury={**BURY, "id": 1}), "the bury is not a record"),
        (bury_undo(bury={**BURY, "card_id": "x"}), "not a card id: 'x'"),
        (bury_undo(bury={**BURY, "at": "x"}), "Invalid isoformat string: 'x'"),
        (bury_undo(bury={**BURY, "until": 5}), "bury.until is not a time: 5"),
        (bury_undo(bury={**BURY, "at": 5}), "bury.at is not a time: 5"),
        (answer_undo(review_id=None), "review_id is not a text"),
        (answer_undo(card_id="x"), "not a card id: 'x'"),
        (answer_undo(review=review(grade=9)), review_problem(review(grade=9))),
        ({"card_id": CARD}, "missing 'review_id'"),
    ],
)
def test_a_bad_undo_entry_says_what_is_wrong(entry: Any, reason: str) -> None:
    # A bad record inside (the card before, the review) is named with its own problem, whole.
    assert undo_problem(entry) == f"undo entry {entry!r:.80} is invalid ({reason})"


@pytest.mark.parametrize(
    "entry", [["r1", CARD, AT, "review"], ["r1", CARD, AT, "new", 5], ["r1", CARD, AT, "x", None]]
)
def test_a_recent_answer(entry: list[Any]) -> None:
    assert recent_problem(entry) is None


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("r1", "not a list of four"),
        (["r1", CARD, AT], "not a list of four"),
        (["r1", CARD, AT, 4], "not four texts"),
        ([1, CARD, AT, "new"], "not four texts"),
        (["r1", CARD, "x", "new"], "Invalid isoformat string: 'x'"),
        (["r1", CARD, "2026-08-01", "new"], "the time has no UTC offset: '2026-08-01'"),
    ],
)
def test_a_bad_recent_answer_says_what_is_wrong(entry: Any, reason: str) -> None:
    assert recent_problem(entry) == f"recent answer {entry!r:.80} is invalid ({reason})"


SLIM = {"state": 2, "step": None, "reps": 1}


@pytest.mark.parametrize(
    "event",
    [
        {"op": "header", "gen": 0},
        {"op": "record", "review": review(), "card": SLIM, "seq": 0},
        {"op": "record", "review": review(), "card": {"state": 0}},
        {"op": "record", "review": review(), "card": {"state": 3}},
        {"op": "review", "review": review(), "seq": 7},
        {"op": "undo", "review_id": "r1", "card_id": CARD, "restore": None},
        {"op": "undo", "review_id": "r1", "card_id": CARD, "restore": card(), "at": AT},
        {"op": "undo", "review_id": "r1", "card_id": CARD, "restore": None, "at": None},
        {"op": "unbury", "bury_id": "b1", "card_id": CARD, "restore": None},
        {"op": "state", "card_id": CARD, "state": card()},
        {"op": "bury", "bury": BURY},
        {"op": "settings", "settings": {"new_per_day": 5}},
    ],
)
def test_a_journal_event_that_replays(event: dict[str, Any]) -> None:
    assert event_problem(event) is None


UNDO = {"op": "undo", "review_id": "r1", "card_id": CARD, "restore": None}


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        ({"gen": 1}, "missing 'op'"),
        ({"op": "nonsense" * 5}, f"unknown op {'nonsense' * 5!r:.20}"),
        ({"op": "header", "gen": -1}, "gen is out of range: -1"),
        ({"op": "header", "gen": "1"}, "gen is not a whole number: '1'"),
        ({**UNDO, "seq": -1}, "seq is out of range: -1"),
        ({**UNDO, "seq": True}, "seq is not a whole number: True"),
        ({"op": "review", "review": review(grade=9)}, None),
        ({"op": "record", "review": review(grade=9), "card": SLIM}, None),
        (
            {"op": "record", "review": review(), "card": {"state": 4}},
            "card.state is out of range: 4",
        ),
        (
            {"op": "record", "review": review(), "card": {"state": -1}},
            "card.state is out of range: -1",
        ),
        ({"op": "record", "review": review()}, "missing 'card'"),
        ({**UNDO, "card_id": "x"}, "not a card id: 'x'"),
        ({**UNDO, "review_id": 5}, "review_id is not a text"),
        ({**UNDO, "at": "x"}, "Invalid isoformat string: 'x'"),
        ({**UNDO, "at": "2026-08-01"}, "at has no UTC offset: '2026-08-01'"),
        ({**UNDO, "restore": card(reps=-1)}, "restore: " + str(card_problem(card(reps=-1)))),
        ({"op": "unbury", "bury_id": 5, "card_id": CARD}, "bury_id is not a text"),
        ({"op": "unbury", "card_id": CARD, "review_id": "r1"}, "missing 'bury_id'"),
        ({"op": "state", "card_id": CARD, "state": None}, "state is missing"),
        (
            {"op": "state", "card_id": CARD, "state": card(due=5)},
            "state: " + str(card_problem(card(due=5))),
        ),
        ({"op": "bury", "bury": {**BURY, "until": "x"}}, "Invalid isoformat string: 'x'"),
        ({"op": "settings", "settings": {"new_per_day": -1}}, None),
    ],
)
def test_a_bad_journal_event_says_what_is_wrong(event: Any, reason: str | None) -> None:
    if reason is None:
        if event["op"] == "settings":
            from quizzer.scheduling.settings import SchedulerSettings

            with pytest.raises(ValueError) as caught:
                SchedulerSettings.from_dict(event["settings"])
            reason = str(caught.value)
        else:
            reason = str(review_problem(event["review"]))
    assert event_problem(event) == f"journal event {event!r:.80} is invalid ({reason})"
