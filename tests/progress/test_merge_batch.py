"""A merged batch: numbered after the store's events, reported as it goes, all or nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.errors import StoreError
from quizzer.progress import merging, open_store
from quizzer.scheduling.answer import review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review

T0 = datetime(2026, 3, 2, 8, tzinfo=UTC)
KEY = CardKey("demo/c1", Pair("ru", "term", "bn", "definition"))
OTHER = CardKey("demo/c2", Pair("ru", "term", "bn", "definition"))


def _reviews(key: CardKey, n: int) -> list[Review]:
    return [
        Review(review_id(key.id, at), key.id, at, 3, "flip", 800)
        for at in (T0 + timedelta(minutes=5 * i) for i in range(n))
    ]


def _journal_events(path: Path) -> list[dict[str, Any]]:
    """The events of a journal file (each line: 8 hex digits of checksum, a space, JSON)."""
    return [json.loads(line[9:]) for line in path.read_bytes().splitlines()]


def test_a_merged_batch_numbers_its_events_after_the_stores(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        for day in range(3):
            store.record(KEY, 3, T0 + timedelta(days=day))
        before = store.state.seq
        assert before == 3
        store.merge_batch(_reviews(OTHER, 4), [CardState.new(OTHER, T0)])
        # The batch's journal, kept as the previous generation by the compaction after it.
        batch = _journal_events(Path(f"{db}.journal.prev"))
        assert batch[0]["op"] == "header"
        assert [e["op"] for e in batch[1:]] == ["review"] * 4 + ["state"]
        assert [e["seq"] for e in batch[1:]] == [4, 5, 6, 7, 8]
        store.record(KEY, 3, T0 + timedelta(days=4))
    meta = json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]
    assert meta["seq"] == 9  # the answer after the batch continues its numbering


def test_a_big_batch_reports_progress_every_2000_events(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        # 3999 events: one short of a tick, so a count off by one would report 4000 of 3999.
        store.merge_batch(_reviews(KEY, 3998), [CardState.new(KEY, T0)], lambda *c: calls.append(c))
        assert len(store.reviews()) == 3998
    assert calls == [(2000, 3999), (3999, 3999)]


def test_a_batch_of_answers_alone_is_merged_and_read_in_time_order(tmp_path: Path) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        store.record(KEY, 3, T0 + timedelta(days=1))
        assert len(store.reviews()) == 1  # the log is in memory before the merge
        merged = _reviews(OTHER, 3)  # answered before the store's answer
        store.merge_batch(merged, [])
        assert store.reviews() == [*merged, store.reviews(KEY)[0]]  # oldest first
    with open_store(tmp_path / "p.json", tz=UTC, read_only=True) as store:
        assert [r.id for r in store.reviews()][:3] == [r.id for r in merged]


def test_an_empty_batch_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        store.record(KEY, 3, T0)
        files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
        store.merge_batch([], [])
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == files


def test_a_merge_that_cannot_be_written_leaves_the_store_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"

    def full_disk(path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device", str(path))

    with open_store(db, tz=UTC) as store:
        store.record(KEY, 3, T0 - timedelta(hours=1))
        with monkeypatch.context() as patch:
            patch.setattr(merging, "atomic_write_bytes", full_disk)
            with pytest.raises(StoreError) as failure:
                store.merge_batch(_reviews(OTHER, 2), [])
        assert failure.value.message == "can't write the merged answers: No space left on device"
        assert failure.value.hint == (
            "check free disk space; the store is as it was before the merge"
        )
        store.record(KEY, 3, T0 + timedelta(days=2))  # the same session goes on
        store.merge_batch(_reviews(OTHER, 2), [])
    with open_store(db, tz=UTC, read_only=True) as store:
        assert [r.card_id for r in store.reviews()] == [KEY.id, OTHER.id, OTHER.id, KEY.id]
