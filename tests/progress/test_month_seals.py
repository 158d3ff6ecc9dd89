"""A month file's seal and how a copy is vouched for (``progress.monthfile``), rule by rule.

The
store-level tests damage whole month files; here each check of a copy, each message a
person reads in ``doctor`` and each rule of :func:`vouch` is held on its own, on real
files.
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from quizzer.progress.manifest import manifest_problem
from quizzer.progress.monthfile import Copy, encode, read_copy, vouch
from quizzer.scheduling.review import Review
from tests.progress import store_builder as sb

MONTH = "2026-08"


def _review(n: int, **changes: Any) -> Any:
    data = {
        "id": f"r{n}",
        "card_id": sb.card(n).id,
        "reviewed_at": f"2026-08-0{n}T09:00:00+00:00",
        "grade": 3,
        "mode": "flip",
        "duration_ms": 1200,
    }
    data.update(changes)
    return data


REVIEWS = [_review(1), _review(2)]


@pytest.fixture
def file(tmp_path: Path) -> Path:
    return tmp_path / f"{MONTH}.json"


def test_a_month_file_is_a_tinydb_table_of_reviews_then_its_seal(file: Path) -> None:
    raw = encode(MONTH, REVIEWS, 5)
    doc = json.loads(raw)
    assert list(doc) == ["reviews", "seal"]
    assert doc["reviews"] == {"1": REVIEWS[0], "2": REVIEWS[1]}  # TinyDB ids start at 1
    cut = raw.index(b',"seal":')
    crc = f"{zlib.crc32(raw[:cut]):08x}"
    assert doc["seal"] == {"1": {"month": MONTH, "count": 2, "gen": 5, "crc": crc}}
    file.write_bytes(raw)
    assert read_copy(file, MONTH) == Copy(REVIEWS, 5, None)


def test_an_empty_month_and_generation_0_read_back(file: Path) -> None:
    file.write_bytes(encode(MONTH, [], 0))
    copy = read_copy(file, MONTH)
    assert copy == Copy([], 0, None) and copy.exists


def test_a_missing_or_unreadable_copy(file: Path) -> None:
    missing = read_copy(file, MONTH)
    assert missing == Copy([], None, "missing") and not missing.exists
    file.mkdir()
    unreadable = read_copy(file, MONTH)
    assert unreadable.problem == "can't read it: Is a directory" and unreadable.exists


def test_copy_is_a_frozen_slotted_value() -> None:
    value: Copy[Review] = Copy([], None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.gen = 1  # type: ignore[misc]
    assert not hasattr(value, "__dict__")


def test_invalid_json_is_named_as_a_review_log_file(file: Path) -> None:
    file.write_bytes(b'{"reviews": ')
    assert read_copy(file, MONTH).problem == (
        "review log file is damaged (invalid JSON at line 1, column 13, byte 12: expecting value)"
    )


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b'{"hello": [1, 2, 3]}', 'its tables are ["hello"]'),
        (b'{"reviews": []}', '"reviews" is [], not a table'),
        (b'{"reviews": "x"}', '"reviews" is "x", not a table'),
        (b'{"reviews": {}, "other": 1}', 'its tables are ["other", "reviews"]'),
        (b'{"seal": {}}', 'it has no table "reviews"'),
        (
            b'{"hello": [1, 2, 3], "and more": "past the first forty bytes", "x": 1, "y": 2}',
            'its tables are ["and more", "hello", "x", "y"]',
        ),
        (b'{"' + b"t" * 80 + b'": 1}', 'its tables are ["' + "t" * 57 + "…"),
    ],
)
def test_wrong_layout_is_not_a_table_of_reviews(file: Path, raw: bytes, said: str) -> None:
    """Said with what the file holds, as JSON: no bytes repr (``b'{"hello"…'``)."""
    file.write_bytes(raw)
    assert read_copy(file, MONTH).problem == (
        f"review log file is damaged (not a table of reviews: {said})"
    )


def test_an_unsealed_table_of_valid_reviews_reads_without_a_generation(file: Path) -> None:
    # Written before seals existed (or by TinyDB itself).
    file.write_text(json.dumps({"reviews": {"1": REVIEWS[0]}}))
    assert read_copy(file, MONTH) == Copy([REVIEWS[0]], None, None)
    file.write_text(json.dumps({"reviews": {}}))
    assert read_copy(file, MONTH) == Copy([], None, None)


def test_a_bad_record_is_named_by_its_key(file: Path) -> None:
    file.write_bytes(encode(MONTH, [REVIEWS[0], _review(2, grade=9)], 1))
    problem = read_copy(file, MONTH).problem
    assert problem is not None
    assert problem == (
        "review log file is damaged (record 2: answer r2 of card "
        f"{_review(2)['card_id']} is invalid: grade is 9, not 1 to 4)"
    )


@pytest.mark.parametrize("seal", [5, [], {"2": {}}, {"1": 5}, {"1": []}])
def test_a_seal_that_is_not_a_record(file: Path, seal: object) -> None:
    file.write_text(json.dumps({"reviews": {}, "seal": seal}))
    assert read_copy(file, MONTH).problem == (
        "review log file is damaged (its seal is not a record)"
    )


def _sealed(change: bytes, to: bytes) -> bytes:
    raw = encode(MONTH, REVIEWS, 5)
    assert raw.count(change) == 1
    return raw.replace(change, to)


def test_a_flipped_byte_in_the_answers_breaks_the_checksum(file: Path) -> None:
    file.write_bytes(_sealed(b'"id":"r2"', b'"id":"r9"'))
    assert read_copy(file, MONTH).problem == (
        "review log file is damaged (its checksum doesn't match its bytes)"
    )


def test_a_reformatted_file_no_longer_verifies(file: Path) -> None:
    # Same document, other bytes (pretty-printed): the seal no longer covers what is there.
    file.write_text(json.dumps(json.loads(encode(MONTH, REVIEWS, 5)), indent=1))
    assert read_copy(file, MONTH).problem == (
        "review log file is damaged (its checksum doesn't match its bytes)"
    )


def test_a_seal_for_another_month_or_count(file: Path) -> None:
    # The seal itself is not under the checksum: its month and count are checked instead.
    file.write_bytes(_sealed(b'"month":"2026-08"', b'"month":"2026-07"'))
    assert read_copy(file, MONTH).problem == (
        'review log file is damaged (sealed as 2 answers of "2026-07", holds 2 of 2026-08)'
    )
    file.write_bytes(_sealed(b'"count":2', b'"count":3'))
    assert read_copy(file, MONTH).problem == (
        'review log file is damaged (sealed as 3 answers of "2026-08", holds 2 of 2026-08)'
    )


@pytest.mark.parametrize(
    ("gen", "shown"), [(b"-1", "-1"), (b"true", "true"), (b'"5"', '"5"'), (b"null", "null")]
)
def test_a_seal_generation_that_is_not_one(file: Path, gen: bytes, shown: str) -> None:
    file.write_bytes(_sealed(b'"gen":5', b'"gen":' + gen))
    assert read_copy(file, MONTH).problem == (
        f"review log file is damaged (its seal's gen is not a whole number of 0 or more: {shown})"
    )


SEALED = Copy(REVIEWS, 5, None)
UNSEALED = Copy(REVIEWS, None, None)


def test_a_copy_with_a_problem_is_never_vouched_for() -> None:
    assert vouch(Copy([], None, "missing"), MONTH, None, 5) == "missing"
    assert vouch(Copy([], None, "bad"), MONTH, {MONTH: [0, 5]}, 5) == "bad"


def test_without_a_manifest_each_file_vouches_for_itself() -> None:
    assert vouch(SEALED, MONTH, None, 9) is None
    assert vouch(UNSEALED, MONTH, None, 9) is None


def test_an_unsealed_copy_is_vouched_for_only_while_the_manifest_does_not_list_it() -> None:
    assert vouch(UNSEALED, MONTH, {"2026-07": [1, 5]}, 5) is None
    assert vouch(UNSEALED, MONTH, {MONTH: [2, 5]}, 5) == (
        "review log file is damaged (no seal, but the snapshot lists this month)"
    )


def test_a_sealed_copy_must_agree_with_the_manifest() -> None:
    assert vouch(SEALED, MONTH, {MONTH: [2, 5]}, 5) is None
    assert vouch(SEALED, MONTH, {MONTH: [2, 5]}, 7) is None  # an older compaction wrote it
    assert vouch(SEALED, MONTH, {MONTH: [3, 5]}, 5) == (
        "review log file is not vouched for (it holds 2 answers of generation 5; the "
        "snapshot lists 3 of generation 5)"
    )
    assert vouch(SEALED, MONTH, {MONTH: [2, 4]}, 5) == (
        "review log file is not vouched for (it holds 2 answers of generation 5; the "
        "snapshot lists 2 of generation 4)"
    )
    assert vouch(SEALED, MONTH, {}, 5) == (
        "review log file is not vouched for (generation 5; the snapshot of generation 5 "
        "doesn't list 2026-08)"
    )


def test_a_copy_of_the_next_generation_is_a_compaction_cut_short() -> None:
    # Written by the compaction to generation 5 before it wrote its snapshot (still 4).
    assert vouch(SEALED, MONTH, {}, 4) is None
    assert vouch(SEALED, MONTH, {MONTH: [1, 2]}, 4) is None
    assert vouch(SEALED, MONTH, {}, 3) is not None  # two generations ahead: not that case
    assert vouch(SEALED, MONTH, {}, 6) is not None


@pytest.mark.parametrize("value", [{}, {MONTH: [0, 0]}, {MONTH: [80, 5], "2026-07": [1, 2]}])
def test_a_good_manifest(value: object) -> None:
    assert manifest_problem(value) is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ([], "meta.months is not a table: []"),
        ("x" * 60, f'meta.months is not a table: "{"x" * 38}…'),
        ({MONTH: 5}, 'meta.months["2026-08"] is not [count, generation]: 5'),
        ({MONTH: [1]}, 'meta.months["2026-08"] is not [count, generation]: [1]'),
        ({MONTH: [1, 2, 3]}, 'meta.months["2026-08"] is not [count, generation]: [1, 2, 3]'),
        ({MONTH: [1, -1]}, 'meta.months["2026-08"] is not [count, generation]: [1, -1]'),
        ({MONTH: [-1, 1]}, 'meta.months["2026-08"] is not [count, generation]: [-1, 1]'),
        ({MONTH: [True, 1]}, 'meta.months["2026-08"] is not [count, generation]: [true, 1]'),
        ({MONTH: [1.0, 1]}, 'meta.months["2026-08"] is not [count, generation]: [1.0, 1]'),
        ({MONTH: [1, "2"]}, 'meta.months["2026-08"] is not [count, generation]: [1, "2"]'),
    ],
)
def test_a_bad_manifest_says_which_month(value: object, problem: str) -> None:
    assert manifest_problem(value) == problem
