"""Reading the whole log fast: the compiled decoder takes what the careful
reading takes, builds the same answers, and leaves anything else to it, so a bad value is
still damage naming the file's record. Real sealed month files on disk."""

from __future__ import annotations

from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.progress import logdecoder, monthfile
from quizzer.progress.journal_events import plain
from quizzer.scheduling.review import Review

MONTH = "2026-03"


def _review(i: int, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": f"r{i}",
        "card_id": f"demo/c{i % 3}|ru:term>bn:definition",
        "reviewed_at": f"2026-03-0{1 + i % 9}T09:1{i % 10}:00.123456+00:00",
        "grade": 1 + i % 4,
        "mode": "flip",
        "duration_ms": 3000 + i,
        "phase": "review",
        "last_interval_days": 4.0,
        "interval_days": 9.5,
        "due": "2026-03-20T09:10:00+00:00",
        "stability": 9.123456789012345,
        "difficulty": 5.5,
        "typed": 'ভালো "quoted" }{',
        "correct": True,
        "overridden": False,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not _GONE}


_GONE = object()


def _write(tmp_path: Path, reviews: list[dict[str, Any]]) -> Path:
    tmp_path.mkdir(exist_ok=True)
    file = tmp_path / f"{MONTH}.json"
    file.write_bytes(monthfile.encode(MONTH, reviews, 3))  # type: ignore[arg-type]
    return file


def _both(file: Path) -> tuple[monthfile.Copy[Review], monthfile.Copy[Any]]:
    return monthfile.read_answers(file, MONTH), monthfile.read_copy(file, MONTH)


def test_a_month_as_quizzer_writes_it_is_decoded_fast_into_the_same_answers(tmp_path: Path):
    reviews = [_review(i) for i in range(40)] + [_review(40, due=None, typed=None, correct=None)]
    file = _write(tmp_path, reviews)
    assert logdecoder.decode(file.read_bytes()) is not None  # the fast path took it
    fast, careful = _both(file)
    assert fast.problem is None and fast.gen == careful.gen == 3
    assert fast.reviews == [Review.from_dict(d) for d in careful.reviews]
    assert fast.reviews[0].reviewed_at.utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"grade": 9}, "grade"),
        ({"grade": True}, "grade"),
        ({"mode": "dance"}, "mode"),
        ({"duration_ms": -4}, "duration_ms"),
        ({"reviewed_at": "2026-03-02T09:00:00"}, "reviewed_at"),
        ({"reviewed_at": "2026-03-02T09:00:00z"}, "reviewed_at"),
        ({"stability": "high"}, "stability"),
        ({"id": ""}, "id"),
        ({"card_id": "not a card"}, "card id"),
        ({"card_id": _GONE}, "card_id"),
        ({"due": ""}, "due is not a time"),
    ],
)
def test_a_bad_value_is_damage_naming_its_record_as_the_careful_reading_says(
    tmp_path: Path, change: dict[str, Any], named: str
):
    file = _write(tmp_path, [_review(1), _review(2, **change), _review(3)])
    fast, careful = _both(file)
    assert fast.problem is not None
    assert fast.problem == careful.problem
    assert "record 2" in fast.problem and named in fast.problem
    assert fast.reviews == []


@pytest.mark.parametrize(
    "change",
    [
        {"reviewed_at": "2026-03-02T09:00:00.1234567+00:00"},  # fromisoformat's own rounding
        {"reviewed_at": "2026-03-02T09:00:00Z"},
        {"reviewed_at": "2026-03-02T10:30:00+01:30"},
        {"phase": "unheard-of", "typed": 7, "correct": "yes", "overridden": 1},
        {"duration_ms": 3000.0, "last_interval_days": 2},
        {"stability": _GONE, "phase": _GONE},
    ],
)
def test_a_valid_record_the_decoder_treats_differently_reads_as_the_careful_reading_does(
    tmp_path: Path, change: dict[str, Any]
):
    file = _write(tmp_path, [_review(1), _review(2, **change)])
    fast, careful = _both(file)
    assert careful.problem is None
    assert fast.problem is None
    assert fast.reviews == [Review.from_dict(d) for d in careful.reviews]
    assert [r.reviewed_at for r in fast.reviews] == [
        Review.from_dict(d).reviewed_at for d in careful.reviews
    ]
    assert all(r.reviewed_at.tzinfo is UTC for r in fast.reviews)  # converted, as Review does


def test_the_seal_is_verified_on_the_fast_path_too(tmp_path: Path):
    file = _write(tmp_path, [_review(i) for i in range(5)])
    raw = file.read_bytes()
    file.write_bytes(raw.replace(b'"duration_ms":3002', b'"duration_ms":3009'))
    fast, careful = _both(file)
    assert fast.problem == careful.problem
    assert "checksum" in (fast.problem or "")
    file.write_bytes(raw.replace(b'"count":5', b'"count":4'))
    fast, careful = _both(file)
    assert fast.problem == careful.problem and "sealed as 4" in (fast.problem or "")


def test_a_file_that_is_no_table_of_reviews_is_the_same_damage(tmp_path: Path):
    file = tmp_path / f"{MONTH}.json"
    for raw in (b'{"reviews":{},"extra":1}', b'{"reviews":[]}', b'{"reviews":{}', b"[1]"):
        file.write_bytes(raw)
        fast, careful = _both(file)
        assert fast.problem is not None and fast.problem == careful.problem
    file.write_bytes(b'{"reviews":{}}')  # a month file from before seals, empty
    fast, careful = _both(file)
    assert fast.problem is None and fast.gen is None and fast.reviews == []
    assert monthfile.read_answers(tmp_path / "missing.json", MONTH).problem == "missing"


def _odd_cards(card_id: str) -> bool:
    return card_id.endswith("c1|ru:term>bn:definition")


@pytest.mark.parametrize("piece", [1, 300, 10**9])
def test_keeping_some_cards_reads_a_slice_at_a_time_and_keeps_exactly_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piece: int
):
    monkeypatch.setattr(logdecoder, "PIECE", piece)  # 1 byte: a slice per record
    reviews = [_review(i) for i in range(30)]
    reviews[4]["typed"] = 'a},"9":{"id":"fake"'  # a record boundary inside a text
    file = _write(tmp_path, reviews)
    some = monthfile.read_answers(file, MONTH, _odd_cards)
    every = monthfile.read_answers(file, MONTH)
    assert some.problem is None and some.gen == 3 and some.count == every.count == 30
    assert some.reviews == [r for r in every.reviews if _odd_cards(r.card_id)]
    assert len(some.reviews) == 10
    assert monthfile.vouch(some, MONTH, {MONTH: [30, 3]}, 3) is None  # by what the file holds
    assert "holds 30 answers" in (monthfile.vouch(some, MONTH, {MONTH: [10, 3]}, 3) or "")
    plain = _write(tmp_path / "plain", [_review(i) for i in range(30)])
    fast = logdecoder.decode(plain.read_bytes(), _odd_cards)  # the slices themselves, no fallback
    assert fast is not None and fast[2] == 30 and len(fast[0]) == 10


def test_keeping_some_cards_still_checks_every_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(logdecoder, "PIECE", 200)
    bad = _review(7, grade=0, card_id="demo/c2|ru:term>bn:definition")  # not a kept card
    file = _write(tmp_path, [_review(1), bad, _review(3)])
    some = monthfile.read_answers(file, MONTH, _odd_cards)
    assert some.problem == monthfile.read_copy(file, MONTH).problem
    assert "record 2" in (some.problem or "") and "grade" in (some.problem or "")


@pytest.mark.parametrize("cards", [None, _odd_cards])
def test_the_answers_built_fast_are_plain_reviews_that_behave_as_built_by_hand(
    tmp_path: Path, cards: Any
):
    file = _write(tmp_path, [_review(i) for i in range(6)])
    fast = monthfile.read_answers(file, MONTH, cards)
    assert fast.reviews and all(type(r) is Review for r in fast.reviews)
    by_hand = [Review.from_dict(plain(d)) for d in monthfile.read_copy(file, MONTH).reviews]
    if cards is not None:
        by_hand = [r for r in by_hand if cards(r.card_id)]
    assert fast.reviews == by_hand and {hash(r.id) for r in fast.reviews}
    with pytest.raises(AttributeError):  # frozen, as Review(...) builds it
        fast.reviews[0].grade = 4  # type: ignore[misc]
    assert all(r.reviewed_at.tzinfo is by_hand[0].reviewed_at.tzinfo for r in fast.reviews)


@pytest.mark.parametrize("on", [True, False])
def test_decoding_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path, on: bool):
    import gc

    good = _write(tmp_path, [_review(i) for i in range(3)]).read_bytes()
    bad = _write(tmp_path / "bad", [_review(1, grade=9)]).read_bytes()
    (gc.enable if on else gc.disable)()
    try:
        assert logdecoder.decode(good) is not None
        assert gc.isenabled() is on
        assert logdecoder.decode(bad) is None  # given up: the careful reading names it
        assert gc.isenabled() is on
    finally:
        gc.enable()
