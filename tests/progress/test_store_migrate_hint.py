"""An old-schema store opened read-only names a command that migrates it, and that command works."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tinydb import TinyDB

from quizzer.cards.card import CardKey, Pair
from quizzer.errors import StoreError
from quizzer.progress import SCHEMA_VERSION, doctor, open_store
from quizzer.scheduling.card_state import CardState

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
KEY = CardKey("training-efficiency/lora", Pair("ru", "term", "bn", "definition"))


def test_read_only_open_of_an_old_store_points_at_doctor_which_migrates_it(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with TinyDB(db, ensure_ascii=False) as tdb:  # version 1: TinyDB's own JSONStorage
        tdb.table("cards").insert(CardState.new(KEY, NOW).to_dict())
        tdb.table("reviews").insert(
            {
                "id": "old-1",
                "card_id": KEY.id,
                "reviewed_at": "2025-01-02T03:04:05+00:00",
                "grade": 3,
                "mode": "flip",
                "duration_ms": 1200,
            }
        )
    original = db.read_bytes()
    with pytest.raises(StoreError) as err:
        open_store(db, read_only=True, tz=UTC)
    hint = str(err.value.hint)
    assert f"quizzer doctor --db {db}" in hint and "without read-only" not in hint
    assert db.read_bytes() == original  # a read-only open changes nothing
    found = doctor.check(db)
    assert any("old schema version 1" in p for p in found.problems)
    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "doctor", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "migrated from schema 1" in result.stdout
    assert (tmp_path / "p.json.v1.bak").read_bytes() == original
    with open_store(db, read_only=True, tz=UTC) as store:
        assert [r.id for r in store.reviews()] == ["old-1"]
        assert store.card(KEY) is not None
    assert doctor.check(db).healthy

    assert json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["schema"] == SCHEMA_VERSION


def test_doctor_on_an_old_store_with_an_odd_layout_says_so_without_a_traceback(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    odd = b'{"reviews": [1, 2, 3], "cards": {}}'  # version 1 had a reviews *table*
    db.write_bytes(odd)
    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "doctor", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in result.stderr, result.stderr
    # Not the schema-1 layout (no positive signature of any version): damage, and with nothing
    # beside it to rebuild from, the doctor leaves it as it is.
    assert result.returncode == 3 and "can't repair" in result.stderr
    assert db.read_bytes() == odd
