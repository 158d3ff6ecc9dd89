"""The month cache: a compact copy of a sealed month's answers, used only
for the very bytes it was made from, never the only copy: damaged, stale or deleted it is
ignored and written again, and damage to the month file is named as without it. Real
sealed month files on disk."""

from __future__ import annotations

import tempfile
import zlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from quizzer.progress import logdecoder, monthcache, monthfile
from quizzer.progress.journal_events import plain, review_data
from quizzer.scheduling.review import Review
from tests.progress.test_log_decoder import MONTH, _review, _write


def _month(tmp_path: Path, n: int = 8) -> Path:
    return _write(tmp_path, [_review(i) for i in range(n)])


def _cache(file: Path) -> Path:
    where = monthcache.cache_path(file)
    assert where is not None
    return where


def test_a_month_read_whole_is_cached_and_read_back_the_same(tmp_path: Path) -> None:
    file = _month(tmp_path)
    careful = [Review.from_dict(plain(d)) for d in monthfile.read_copy(file, MONTH).reviews]
    first = monthfile.read_answers(file, MONTH)
    assert _cache(file).exists() and first.reviews == careful
    again = monthfile.read_answers(file, MONTH)
    assert again.reviews == careful and again.gen == first.gen == 3
    assert all(type(r) is Review and r.reviewed_at.tzinfo is careful[0].reviewed_at.tzinfo
               for r in again.reviews)  # fmt: skip
    assert monthcache.cache_path(file.with_name(file.name + ".bak")) is None  # mirrors: none


def test_a_changed_month_file_is_read_anew_and_cached_again(tmp_path: Path) -> None:
    file = _month(tmp_path)
    monthfile.read_answers(file, MONTH)
    old_cache = _cache(file).read_bytes()
    file.write_bytes(
        monthfile.encode(MONTH, [review_data(_review(i, grade=1)) for i in range(9)], 4)
    )
    copy = monthfile.read_answers(file, MONTH)
    assert [r.grade for r in copy.reviews] == [1] * 9 and copy.gen == 4
    assert _cache(file).read_bytes() != old_cache
    assert monthfile.read_answers(file, MONTH).reviews == copy.reviews


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty", "delete"])
def test_a_damaged_or_deleted_cache_is_ignored_and_written_again(
    tmp_path: Path, damage: str
) -> None:
    file = _month(tmp_path)
    expected = monthfile.read_answers(file, MONTH).reviews
    cache = _cache(file)
    data = cache.read_bytes()
    if damage == "flip":
        cache.write_bytes(data[:-5] + bytes([data[-5] ^ 0x20]) + data[-4:])
    elif damage == "truncate":
        cache.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        cache.write_bytes(b"\x00\xff" * 300)
    elif damage == "empty":
        cache.write_bytes(b"")
    else:
        cache.unlink()
    assert monthfile.read_answers(file, MONTH).reviews == expected
    assert cache.read_bytes() == data  # written again from the month file


def test_a_bad_value_in_a_cache_whose_checksum_holds_is_not_served(tmp_path: Path) -> None:
    file = _month(tmp_path)
    expected = monthfile.read_answers(file, MONTH).reviews
    cache = _cache(file)
    data = cache.read_bytes()
    body = msgspec.msgpack.encode([{**r.to_dict(), "grade": 9} for r in expected])
    head_len = len(data) - len(logdecoder.encode_answers(expected)) - 4
    forged = data[:head_len] + zlib.crc32(body).to_bytes(4, "little") + body
    cache.write_bytes(forged)
    assert monthcache.load(file, file.read_bytes(), file.read_bytes().rfind(b',"seal":')) is None
    assert monthfile.read_answers(file, MONTH).reviews == expected  # the month file's


def test_damage_to_the_month_file_is_named_as_without_a_cache(tmp_path: Path) -> None:
    file = _month(tmp_path)
    monthfile.read_answers(file, MONTH)
    raw = file.read_bytes()
    file.write_bytes(raw.replace(b'"grade":2', b'"grade":9', 1))  # a bad value, seal broken too
    with_cache = monthfile.read_answers(file, MONTH)
    _cache(file).unlink()
    without = monthfile.read_answers(file, MONTH)
    assert with_cache.problem is not None and with_cache.problem == without.problem
    assert "record 2" in with_cache.problem and "grade" in with_cache.problem
    file.write_bytes(raw.replace(b'"duration_ms":3001', b'"duration_ms":3009', 1))  # valid value
    assert "checksum" in (monthfile.read_answers(file, MONTH).problem or "")


def test_the_cache_is_named_and_marked_as_its_format(tmp_path: Path) -> None:
    file = _month(tmp_path)
    monthfile.read_answers(file, MONTH)
    assert _cache(file).name == f"{MONTH}.answers.cache"
    assert _cache(file).read_bytes().startswith(b"quizzer answers cache 1\n")


def test_a_month_rewritten_with_as_many_answers_is_not_served_its_old_cache(
    tmp_path: Path,
) -> None:
    """Same month, same count, a seal that holds: only the cache's key tells it is stale."""
    file = _month(tmp_path)
    monthfile.read_answers(file, MONTH)
    file.write_bytes(
        monthfile.encode(MONTH, [review_data(_review(i, grade=1)) for i in range(8)], 3)
    )
    assert [r.grade for r in monthfile.read_answers(file, MONTH).reviews] == [1] * 8


def test_a_cache_cut_just_after_its_key_is_ignored(tmp_path: Path) -> None:
    file = _month(tmp_path)
    expected = monthfile.read_answers(file, MONTH).reviews
    raw = file.read_bytes()
    seal_at = raw.rfind(b',"seal":')
    data = _cache(file).read_bytes()
    head = len(data) - len(logdecoder.encode_answers(expected)) - 4
    _cache(file).write_bytes(data[: head + 2])  # half a checksum
    assert monthcache.load(file, raw, seal_at) is None
    assert monthfile.read_answers(file, MONTH).reviews == expected


def test_a_big_cache_is_written_by_a_thread_and_is_whole_once_settled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = _month(tmp_path / "small")
    monthfile.read_answers(small, MONTH)  # written before the reading returns
    written = _cache(small).read_bytes()
    monkeypatch.setattr(monthcache, "BACKGROUND_MIN", 0)  # every cache counts as big
    file = _month(tmp_path / "big")
    first = monthfile.read_answers(file, MONTH)
    monthcache.settle()
    assert monthcache._writing == []
    assert _cache(file).read_bytes() == written  # the same bytes as written in the reader
    assert not list(file.parent.glob("*.tmp"))
    assert monthfile.read_answers(file, MONTH).reviews == first.reviews


def test_a_cache_its_thread_cannot_write_is_none_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(monthcache, "BACKGROUND_MIN", 0)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    file = _month(tmp_path)
    first = monthfile.read_answers(file, MONTH)
    monthcache.settle()
    assert not _cache(file).exists() and len(first.reviews) == 8
    assert monthfile.read_answers(file, MONTH).reviews == first.reviews


def test_reading_the_whole_log_returns_with_its_month_caches_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC

    from quizzer.progress import open_store
    from quizzer.progress.files import log_dir
    from tests.progress import store_builder

    db = tmp_path / "p.json"
    store_builder.build(db, july=3, august=4, pending=2)
    months = sorted(log_dir(db).glob("*.json"))
    for cache in log_dir(db).glob("*.answers.cache"):  # (building the store read some)
        cache.unlink()
    assert len(months) >= 2
    monkeypatch.setattr(monthcache, "BACKGROUND_MIN", 0)
    with open_store(db, tz=UTC, read_only=True) as store:
        answers = store.reviews()
        assert monthcache._writing == []  # waited for before reviews() returned
        assert all(_cache(month).exists() for month in months)
    with open_store(db, tz=UTC, read_only=True) as store:
        assert store.reviews() == answers
