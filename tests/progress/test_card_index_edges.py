"""Edges of the card index (``progress.cardindex``) from its mutants 54 on (issue 14)."""

from __future__ import annotations

import json
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
