"""The log decoder at its limits:
a seal of ``null``, values at the careful reading's limits, the slices of a sealed table.
Real sealed month files on disk, read as the store reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from quizzer.progress import logdecoder, monthfile
from quizzer.scheduling.review import Review
from tests.progress.test_log_decoder import _GONE as GONE
from tests.progress.test_log_decoder import _review as full_review

MONTH = "2026-03"


#: The fields the records here leave out: a smaller answer than test_log_decoder's.
_LEFT_OUT = ("last_interval_days", "stability", "difficulty", "correct", "overridden")


def _review(i: int, **changes: Any) -> dict[str, Any]:
    """test_log_decoder's answer ``i`` without the fields of :data:`_LEFT_OUT`."""
    return full_review(i, **{**dict.fromkeys(_LEFT_OUT, GONE), **changes})


def _write(tmp_path: Path, reviews: list[dict[str, Any]]) -> Path:
    file = tmp_path / f"{MONTH}.json"
    file.write_bytes(monthfile.encode(MONTH, reviews, 3))  # type: ignore[arg-type]
    return file


def _some_cards(card_id: str) -> bool:
    return card_id.startswith("demo/c1|")


@pytest.mark.parametrize("cards", [None, _some_cards])
def test_a_seal_of_null_is_damage_not_a_month_from_before_seals(tmp_path: Path, cards: Any):
    file = _write(tmp_path, [_review(i) for i in range(4)])
    raw = file.read_bytes()
    cut = raw.rfind(b',"seal":')
    file.write_bytes(raw[:cut] + b',"seal":null}')
    copy = monthfile.read_answers(file, MONTH, cards)
    assert copy.problem == "review log file is damaged (its seal is not a record)"
    assert copy.problem == monthfile.read_copy(file, MONTH).problem
    assert copy.reviews == [] and copy.gen is None


def test_values_at_the_careful_readings_limits_are_taken_by_the_fast_path(tmp_path: Path):
    """A one-letter id, a 0 ms answer, a record with only the fields an answer needs (as an
    older quizzer wrote it): the careful reading takes them, so the decoder must too, or
    every such month is read the slow way."""
    bare = {k: _review(2)[k] for k in ("id", "card_id", "reviewed_at", "grade", "mode")}
    reviews = [_review(0, id="a"), _review(1, duration_ms=0), dict(bare, duration_ms=5)]
    raw = _write(tmp_path, reviews).read_bytes()
    careful = [Review.from_dict(d) for d in reviews]  # as the careful reading builds them
    assert monthfile.read_copy(tmp_path / f"{MONTH}.json", MONTH).problem is None
    fast = logdecoder.decode(raw)
    assert fast is not None
    assert fast[0] == careful and fast[2] == 3
    assert [r.id for r in fast[0]] == ["a", "r1", "r2"]
    assert fast[0][1].duration_ms == 0 and fast[0][2].phase == "new" and fast[0][2].due is None
    assert logdecoder.decode_answers(logdecoder.encode_answers(careful)) == careful  # the cache


def test_a_big_sealed_table_comes_in_slices_of_whole_records_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """What keeps streaming the log small: a month is decoded about ``PIECE`` bytes at a time,
    each slice ending where a record does, none lost or read twice."""
    monkeypatch.setattr(logdecoder, "PIECE", 1000)
    reviews = [_review(i) for i in range(40)]
    reviews[5]["typed"] = 'a},"7":{"id":"fake"'  # looks like a boundary, inside a text
    raw = _write(tmp_path, reviews).read_bytes()
    found = logdecoder.sealed_table(raw)
    assert found is not None
    pieces, seal = found
    slices = list(pieces)
    assert all(s is not None for s in slices)
    sizes = [len(s or []) for s in slices]
    assert sizes == [4] * 10  # a record is ~260 bytes: a slice runs past 1000 to a record's end
    assert [r.id for s in slices for r in s or []] == [f"r{i}" for i in range(40)]
    assert seal["1"]["count"] == 40 and seal["1"]["month"] == MONTH


def test_a_month_from_before_seals_read_for_some_cards_keeps_exactly_theirs(tmp_path: Path):
    """No seal, so no slices: the whole table is decoded, then only those cards kept."""
    reviews = [_review(i) for i in range(9)]
    file = tmp_path / f"{MONTH}.json"
    sealed = monthfile.encode(MONTH, reviews, 3)  # type: ignore[arg-type]
    file.write_bytes(sealed.split(b',"seal":')[0] + b"}")
    some = monthfile.read_answers(file, MONTH, _some_cards)
    assert some.problem is None and some.gen is None and some.count == 9
    assert [r.id for r in some.reviews] == ["r1", "r4", "r7"]
    assert some.reviews == [Review.from_dict(reviews[i]) for i in (1, 4, 7)]


def test_keeping_some_cards_of_a_sealed_month_never_holds_all_its_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The point of the slices: with a third of the cards kept, the peak memory of reading a
    month is well under that of building all its answers (the whole table at once)."""
    import tracemalloc

    monkeypatch.setattr(logdecoder, "PIECE", 20_000)
    raw = _write(tmp_path, [_review(i) for i in range(3000)]).read_bytes()

    def peak(cards: Any) -> int:
        tracemalloc.start()
        try:
            found = logdecoder.decode(raw, cards)
            assert found is not None and found[2] == 3000
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak(None)  # the decoders compiled, the card ids parsed
    every, some = peak(None), peak(_some_cards)
    assert some < every * 0.6, (some, every)


@pytest.mark.parametrize("cards", [None, _some_cards])
def test_a_table_under_another_name_is_damage_even_with_a_seal_that_holds(
    tmp_path: Path, cards: Any
):
    """``{"reviewx":{…}}`` resealed (its CRC right): not a month as quizzer writes it."""
    import json
    import zlib

    file = _write(tmp_path, [_review(i) for i in range(4)])
    raw = file.read_bytes()
    body = b'{"reviewx":{' + raw[len(b'{"reviews":{') : raw.rfind(b',"seal":')]
    seal = {"1": {"month": MONTH, "count": 4, "gen": 3, "crc": f"{zlib.crc32(body):08x}"}}
    file.write_bytes(body + b',"seal":' + json.dumps(seal).encode() + b"}")
    copy = monthfile.read_answers(file, MONTH, cards)
    assert copy.problem is not None and "not a table of reviews" in copy.problem
    assert copy.problem == monthfile.read_copy(file, MONTH).problem and copy.reviews == []


def test_an_empty_sealed_month_comes_as_no_slice_at_all(tmp_path: Path):
    found = logdecoder.sealed_table(_write(tmp_path, []).read_bytes())
    assert found is not None
    pieces, seal = found
    assert list(pieces) == [] and seal["1"]["count"] == 0


def test_a_sealed_month_whose_keys_run_otherwise_is_read_whole_for_some_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Keys 2, 1, 3 (resealed, its CRC right): the careful reading takes any keys, the slices
    only 1, 2, 3…, so they give up and the whole table is read; no answer is lost."""
    import json
    import zlib

    monkeypatch.setattr(logdecoder, "PIECE", 1)  # a slice per record
    texts = [json.dumps(_review(i), ensure_ascii=False) for i in range(3)]
    body = f'{{"reviews":{{"2":{texts[1]},"1":{texts[0]},"3":{texts[2]}}}'.encode()
    seal = {"1": {"month": MONTH, "count": 3, "gen": 3, "crc": f"{zlib.crc32(body):08x}"}}
    file = tmp_path / f"{MONTH}.json"
    file.write_bytes(body + b',"seal":' + json.dumps(seal).encode() + b"}")
    every = monthfile.read_answers(file, MONTH)
    some = monthfile.read_answers(file, MONTH, _some_cards)
    assert every.problem is None and some.problem is None and some.count == every.count == 3
    assert [r.id for r in every.reviews] == ["r1", "r0", "r2"]
    assert [r.id for r in some.reviews] == ["r1"]


@pytest.mark.parametrize("late", [True, False])
def test_a_lowercase_z_time_is_found_after_many_other_zs(tmp_path: Path, late: bool):
    # Card ids and typed texts full of z (more than the decoder looks at one by one), then
    # (late) one time ending in a lowercase z: still read the careful way, which names it.
    many = [
        _review(i, card_id=f"demo/quiz{i % 3}|ru:term>bn:definition", typed="zz za" * 30)
        for i in range(logdecoder._Z_LOOKS)
    ]
    last = _review(99, reviewed_at="2026-03-02T09:00:00z") if late else _review(99)
    file = _write(tmp_path, [*many, last])
    fast = logdecoder.decode(file.read_bytes())
    if late:
        assert fast is None  # left to the careful reading
        careful = monthfile.read_copy(file, MONTH).problem
        assert monthfile.read_answers(file, MONTH).problem == careful
        assert f"record {len(many) + 1}" in (careful or "")
    else:
        assert fast is not None and len(fast[0]) == len(many) + 1
