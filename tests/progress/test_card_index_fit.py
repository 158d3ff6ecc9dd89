"""A card index is written and used only when it fits its snapshot."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from quizzer.progress import cardindex
from quizzer.progress.cardindex import index_path
from quizzer.progress.snapshot import AtomicJSONStorage


@pytest.mark.parametrize("key", ["x", "é"], ids=["letter", "non-ascii"])
def test_a_snapshot_whose_card_key_is_no_number_is_written_without_an_index(
    db: Path, key: str
) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    first = next(iter(doc["cards"]))
    doc["cards"] = {(key if k == first else k): v for k, v in doc["cards"].items()}
    index_path(db).unlink()
    AtomicJSONStorage(db).write(doc)
    assert json.loads(db.read_text(encoding="utf-8")) == doc
    assert not index_path(db).exists()
    assert cardindex.scan(db.read_bytes(), doc) is None


def test_a_record_under_another_cards_key_is_written_without_an_index(db: Path) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    (k1, v1), (k2, v2), *rest = doc["cards"].items()
    doc["cards"] = {k1: v2, k2: v1, **dict(rest)}  # each key no longer its card id's
    index_path(db).unlink()
    AtomicJSONStorage(db).write(doc)
    assert not index_path(db).exists()


@pytest.mark.parametrize("where", ["start", "end"])
def test_an_index_whose_cards_table_lies_outside_the_snapshot_is_not_used(
    db: Path, where: str
) -> None:
    raw = db.read_bytes()
    data = bytearray(index_path(db).read_bytes())
    at = len(cardindex.MAGIC)
    fields = list(cardindex._HEADER.unpack_from(data, at))
    assert cardindex.load(db, raw, os.stat(db)) is not None
    fields[5] = 0 if where == "start" else len(raw)  # cards_open, which no checksum covers
    cardindex._HEADER.pack_into(data, at, *fields)
    index_path(db).write_bytes(bytes(data))
    assert cardindex.load(db, raw, os.stat(db)) is None
