"""Every check of a value read back (``progress.values``), each with the message a person reads.

The fault
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
    checked_facts,
    event_problem,
    recent_problem,
    review_problem,
    shown_value,
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
    return f"answer r1 of card {CARD} is invalid: {reason}"


def test_aware_time_takes_only_a_time_with_its_offset() -> None:
    assert aware_time(AT, "x").utcoffset() is not None
    with pytest.raises(ValueError, match=r"^when is not a time: 5$"):
        aware_time(5, "when")
    with pytest.raises(ValueError, match=r'^when has no UTC offset: "2026-08-01T09:00:00"$'):
        aware_time("2026-08-01T09:00:00", "when")
    with pytest.raises(ValueError, match=r'^when is not a time: "x"$'):
        aware_time("x", "when")


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
        (review(grade=True), "grade is not a whole number: true"),
        (review(grade=3.0), "grade is not a whole number: 3.0"),
        (review(grade=0), "grade is 0, not 1 to 4"),
        (review(grade=5), "grade is 5, not 1 to 4"),
        (review(grade=DROP), "grade is missing"),
        (review(reviewed_at=5), "reviewed_at is not a time: 5"),
        (review(reviewed_at="garbage"), 'reviewed_at is not a time: "garbage"'),
        (
            review(reviewed_at="2026-08-01T09:00:00"),
            'reviewed_at has no UTC offset: "2026-08-01T09:00:00"',
        ),
        (review(due="2026-09-01T00:00:00"), 'due has no UTC offset: "2026-09-01T00:00:00"'),
        (review(stability="x"), 'stability is not a number: "x"'),
        (review(difficulty=True), "difficulty is not a number: true"),
        (review(last_interval_days=[]), "last_interval_days is not a number: []"),
        (review(interval_days="1"), 'interval_days is not a number: "1"'),
        (review(mode=DROP), "mode is missing"),
        (review(duration_ms="x"), 'duration_ms is not a whole number: "x"'),
        (review(duration_ms=None), "duration_ms is not a whole number: null"),
    ],
)
def test_a_bad_answer_says_what_is_wrong(data: Any, reason: str) -> None:
    assert review_problem(data) == _bad_review(data, reason)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([1], "an answer is invalid: it is [1], not an object"),
        (review(id=5), f"an answer of card {CARD} is invalid: id is not a text: 5"),
        (review(id=""), f"an answer of card {CARD} is invalid: id is empty"),
        (review(id=DROP), f"an answer of card {CARD} is invalid: id is missing"),
        (
            review(card_id="nonsense"),
            'answer r1 of card nonsense is invalid: card_id is not a card id: "nonsense"',
        ),
        (review(card_id=7), "answer r1 is invalid: card_id is not a text: 7"),
    ],
)
def test_an_answer_is_named_by_what_of_its_id_and_card_is_a_text(data: Any, problem: str) -> None:
    assert review_problem(data) == problem


def test_a_long_id_is_cut_to_80_characters_and_a_long_value_to_40() -> None:
    data = review(id="x" * 200, card_id="y" * 200)
    problem = review_problem(data)
    assert problem == (
        f'answer {"x" * 79}… of card {"y" * 79}… is invalid: card_id is not a card id: "{"y" * 38}…'
    )


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
        (card(due=DROP), "due is missing"),
        (card(due="2026-09-01T00:00:00"), 'due has no UTC offset: "2026-09-01T00:00:00"'),
        (card(last_review="x"), 'last_review is not a time: "x"'),
        (card(last_review="2026-08-01T09"), 'last_review has no UTC offset: "2026-08-01T09"'),
        (card(buried_until=5), "buried_until is not a time: 5"),
        (card(first_review="2026-08-01"), 'first_review has no UTC offset: "2026-08-01"'),
        (card(reps=-1), "reps is -1, less than 0"),
        (card(lapses=True), "lapses is not a whole number: true"),
        (card(state=9), "state is 9, not one of 1, 2, 3"),
        (card(state="x"), 'state is "x", not one of 1, 2, 3'),
        (card(stability="x"), 'stability is not a number: "x"'),
    ],
)
def test_a_bad_card_state_says_what_is_wrong(data: Any, reason: str) -> None:
    assert card_problem(data) == f"the state of card {CARD} is invalid: {reason}"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("x", 'a card state is invalid: it is "x", not an object'),
        (card(card_id="x"), 'the state of card x is invalid: card_id is not a card id: "x"'),
        (card(card_id=DROP), "a card state is invalid: card_id is missing"),
    ],
)
def test_a_card_state_is_named_by_its_card(data: Any, problem: str) -> None:
    assert card_problem(data) == problem


def test_the_queue_reads_a_bad_state_with_the_same_words() -> None:
    for data in (card(due="x"), card(reps=-1), card(state=9), "x"):
        assert checked_facts(data)[1] == card_problem(data)


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
    ("entry", "problem"),
    [
        (None, "an undo entry is invalid: it is null, not an object"),
        (
            answer_undo(before=card(reps=-1)),
            f"the undo entry for answer r1 of card {CARD} is invalid: in its state before, "
            "reps is -1, less than 0",
        ),
        (
            bury_undo(before=card(due=5)),
            f"the undo entry for bury b1 of card {CARD} is invalid: in its state before, due is "
            "not a time: 5",
        ),
        (bury_undo(bury_id=1), "an undo entry is invalid: bury_id is not a text: 1"),
        (
            bury_undo(bury=[]),
            f"the undo entry for bury b1 of card {CARD} is invalid: in its bury, it is [], not an "
            "object",
        ),
        (
            bury_undo(bury={**BURY, "id": 1}),
            f"the undo entry for bury b1 of card {CARD} is invalid: in its bury, id is not a "
            "text: 1",
        ),
        (
            bury_undo(bury={**BURY, "card_id": "x"}),
            f"the undo entry for bury b1 of card {CARD} is invalid: in its bury, card_id is not a "
            'card id: "x"',
        ),
        (
            bury_undo(bury={**BURY, "at": "x"}),
            f"the undo entry for bury b1 of card {CARD} is invalid: in its bury, at is not a "
            'time: "x"',
        ),
        (
            bury_undo(bury={**BURY, "until": 5}),
            f"the undo entry for bury b1 of card {CARD} is invalid: in its bury, until is not a "
            "time: 5",
        ),
        (
            answer_undo(review_id=None),
            "an undo entry is invalid: review_id is not a text: null",
        ),
        (
            answer_undo(card_id="x"),
            'the undo entry for answer r1 of card x is invalid: card_id is not a card id: "x"',
        ),
        (
            answer_undo(review=review(grade=9)),
            f"the undo entry for answer r1 of card {CARD} is invalid: in its answer, grade is 9, "
            "not 1 to 4",
        ),
        ({"card_id": CARD}, "an undo entry is invalid: review_id is missing"),
    ],
)
def test_a_bad_undo_entry_says_what_is_wrong(entry: Any, problem: str) -> None:
    # A bad record inside (the card before, the review) is named with its own reason.
    assert undo_problem(entry) == problem


@pytest.mark.parametrize(
    "entry", [["r1", CARD, AT, "review"], ["r1", CARD, AT, "new", 5], ["r1", CARD, AT, "x", None]]
)
def test_a_recent_answer(entry: list[Any]) -> None:
    assert recent_problem(entry) is None


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("r1", 'a recent answer is invalid: it is "r1", not [answer id, card id, time, phase]'),
        (
            ["r1", CARD, AT],
            f"recent answer r1 of card {CARD} is invalid: it is "
            f"{shown_value(['r1', CARD, AT])}, not [answer id, card id, time, phase]",
        ),
        (
            ["r1", CARD, AT, 4],
            f"recent answer r1 of card {CARD} is invalid: its first four values are not all "
            f"texts: {shown_value(['r1', CARD, AT, 4])}",
        ),
        (
            [1, CARD, AT, "new"],
            "a recent answer is invalid: its first four values are not all texts: "
            f"{shown_value([1, CARD, AT, 'new'])}",
        ),
        (
            ["r1", CARD, "x", "new"],
            f'recent answer r1 of card {CARD} is invalid: the answer time is not a time: "x"',
        ),
        (
            ["r1", CARD, "2026-08-01", "new"],
            f"recent answer r1 of card {CARD} is invalid: the answer time has no UTC offset: "
            '"2026-08-01"',
        ),
    ],
)
def test_a_bad_recent_answer_says_what_is_wrong(entry: Any, reason: str) -> None:
    assert recent_problem(entry) == reason


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
#: How the events of answer r1 and of the bury are named.
OF_R1 = f"for answer r1 of card {CARD}"
OF_B1 = f"for bury b1 of card {CARD}"


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        ({"gen": 1}, "a journal event is invalid: op is missing"),
        (
            {"op": "nonsense" * 5},
            'journal event "nonsensenonsenseno… is invalid: op "nonsensenonsenseno… is no event '
            "quizzer writes",
        ),
        ({"op": 5}, "a journal event is invalid: op 5 is no event quizzer writes"),
        ({"op": "header", "gen": -1}, 'journal event "header" is invalid: gen is -1, less than 0'),
        (
            {"op": "header", "gen": "1"},
            'journal event "header" is invalid: gen is not a whole number: "1"',
        ),
        ({**UNDO, "seq": -1}, f'journal event "undo" {OF_R1} is invalid: seq is -1, less than 0'),
        (
            {**UNDO, "seq": True},
            f'journal event "undo" {OF_R1} is invalid: seq is not a whole number: true',
        ),
        (
            {"op": "review", "review": review(grade=9)},
            f'journal event "review" {OF_R1} is invalid: in its answer, grade is 9, not 1 to 4',
        ),
        (
            {"op": "record", "review": review(grade=9), "card": SLIM},
            f'journal event "record" {OF_R1} is invalid: in its answer, grade is 9, not 1 to 4',
        ),
        (
            {"op": "record", "review": review(), "card": {"state": 4}},
            f'journal event "record" {OF_R1} is invalid: card.state is 4, not 0 to 3',
        ),
        (
            {"op": "record", "review": review(), "card": {"state": -1}},
            f'journal event "record" {OF_R1} is invalid: card.state is -1, not 0 to 3',
        ),
        (
            {"op": "record", "review": review()},
            f'journal event "record" {OF_R1} is invalid: card is missing',
        ),
        (
            {"op": "record", "review": review(), "card": []},
            f'journal event "record" {OF_R1} is invalid: a value is of the wrong kind',
        ),
        (
            {**UNDO, "card_id": "x"},
            'journal event "undo" for answer r1 of card x is invalid: card_id is not a card id: '
            '"x"',
        ),
        (
            {**UNDO, "review_id": 5},
            f'journal event "undo" of card {CARD} is invalid: review_id is not a text: 5',
        ),
        ({**UNDO, "at": "x"}, f'journal event "undo" {OF_R1} is invalid: at is not a time: "x"'),
        (
            {**UNDO, "at": "2026-08-01"},
            f'journal event "undo" {OF_R1} is invalid: at has no UTC offset: "2026-08-01"',
        ),
        (
            {**UNDO, "restore": card(reps=-1)},
            f'journal event "undo" {OF_R1} is invalid: in the state it restores, reps is -1, '
            "less than 0",
        ),
        (
            {"op": "unbury", "bury_id": 5, "card_id": CARD},
            f'journal event "unbury" of card {CARD} is invalid: bury_id is not a text: 5',
        ),
        (
            {"op": "unbury", "card_id": CARD, "review_id": "r1"},
            f'journal event "unbury" of card {CARD} is invalid: bury_id is missing',
        ),
        (
            {"op": "state", "card_id": CARD, "state": None},
            f'journal event "state" of card {CARD} is invalid: state is missing',
        ),
        (
            {"op": "state", "card_id": CARD, "state": card(due=5)},
            f'journal event "state" of card {CARD} is invalid: in its state, due is not a time: 5',
        ),
        (
            {"op": "bury", "bury": {**BURY, "until": "x"}},
            f'journal event "bury" {OF_B1} is invalid: in its bury, until is not a time: "x"',
        ),
        ({"op": "settings", "settings": {"new_per_day": -1}}, None),
    ],
)
def test_a_bad_journal_event_says_what_is_wrong(event: Any, problem: str | None) -> None:
    if problem is None:
        from quizzer.scheduling.settings import SchedulerSettings

        with pytest.raises(ValueError) as caught:
            SchedulerSettings.from_dict(event["settings"])
        problem = f'journal event "settings" is invalid: in its settings, {caught.value}'
    assert event_problem(event) == problem
