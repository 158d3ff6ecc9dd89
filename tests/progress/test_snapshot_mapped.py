"""A big snapshot opened lazily is mapped, not read: the same cards and
queues as a read one, a writer's compaction (a rename) leaves a reader's mapping whole, and
a snapshot whose index doesn't fit is still parsed whole from its bytes.

Real stores on disk; the size from which snapshots are mapped is lowered to 0 so the small
test stores take that path.
"""

from __future__ import annotations

import mmap
import random
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import Store, open_store, snapshot
from quizzer.progress.cardindex import index_path
from quizzer.scheduling.queue import DueQueue
from tests.factories import ru_bn_deck

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
DECK = ru_bn_deck("demo", 30)


def _open(db: Path, *, read_only: bool = False) -> Store:
    return open_store(db, tz=UTC, rng=random.Random(5), read_only=read_only)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "p.json"
    rng = random.Random(2)
    with _open(path) as store:
        for day in range(4):
            for i in range(0, 30, 2):
                store.record(
                    CardKey(f"demo/c{i}", RU_BN), rng.choice((1, 3, 4)), T0 + timedelta(days=day)
                )
    assert index_path(path).is_file()
    return path


def _seen(path: Path) -> tuple[type, DueQueue, list[tuple[str, dict[str, Any]]]]:
    now = T0 + timedelta(days=5)
    with _open(path, read_only=True) as store:
        lazy = store.state.raw._lazy  # (the bytes the cards are read from, while unread)
        raw = lazy.raw if lazy is not None else None
        queue = store.due_cards(DECK, [RU_BN], now)
        states = sorted((s.card_id, s.to_dict()) for s in store.cards())
        return type(raw), queue, states


def test_mapped_and_read_snapshots_give_the_same_store(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_kind, *read = _seen(db)
    assert read_kind is bytes  # a small store is read as before
    monkeypatch.setattr(snapshot, "MAP_FROM_BYTES", 0)
    mapped_kind, *mapped = _seen(db)
    assert mapped_kind is mmap.mmap
    assert mapped == read


def test_a_writers_compaction_leaves_a_mapped_reader_whole(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "MAP_FROM_BYTES", 0)
    before = _seen(db)[2]
    with _open(db, read_only=True) as reader:
        assert isinstance(reader.state.raw._lazy.raw, mmap.mmap)  # type: ignore[union-attr]
        with _open(db) as writer:  # answers, then closing compacts: a new file renamed over
            for i in range(1, 30, 2):
                writer.record(CardKey(f"demo/c{i}", RU_BN), 3, T0 + timedelta(days=6))
        # The reader still reads the snapshot it opened, every card of it.
        assert sorted((s.card_id, s.to_dict()) for s in reader.cards()) == before
    after = _seen(db)[2]
    assert len(after) == len(before) + 15


def test_a_mapped_snapshot_whose_index_doesnt_fit_is_parsed_whole(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _seen(db)[1:]
    monkeypatch.setattr(snapshot, "MAP_FROM_BYTES", 0)
    copy = tmp_path / "copy"
    shutil.copytree(db.parent, copy, ignore=shutil.ignore_patterns("copy"))
    stale = copy / db.name
    index_path(stale).write_bytes(index_path(stale).read_bytes()[:-8])  # cut: no longer fits
    kind, *seen = _seen(stale)
    assert kind is type(None)  # parsed whole, from bytes read as before
    assert seen == list(expected)
