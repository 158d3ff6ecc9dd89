"""The progress store on real files: round trip, undo, the lock, damage, migration, UTF-8."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.core.cards import CardKey, Pair
from quizzer.store import journal_path, open_store

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("training-efficiency/lora", RU_BN)
KEY2 = CardKey("training-efficiency/peft", RU_BN)


def _open(path: Path, **kw):  # type: ignore[no-untyped-def]
    return open_store(path, tz=UTC, rng=random.Random(7), **kw)


def test_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "progress.json"
    with _open(db) as store:
        r1 = store.record(KEY, 3, NOW, mode="typed", duration_ms=2500, typed="ЛоРА", correct=True)
        r2 = store.record(KEY2, 1, NOW + timedelta(seconds=30), mode="choice", duration_ms=900)
        state = store.card(KEY)
        assert state is not None
    with _open(db) as store:
        assert [r.id for r in store.reviews()] == [r1.id, r2.id]
        got = store.reviews(KEY)[0]
        assert got == r1
        assert got.typed == "ЛоРА" and got.mode == "typed" and got.duration_ms == 2500
        again = store.card(KEY)
        assert again is not None
        assert again.to_dict() == state.to_dict()
        assert store.card(CardKey("training-efficiency/zero", RU_BN)) is None
    text = db.read_text(encoding="utf-8") + journal_path(db).read_text(encoding="utf-8")
    assert "ЛоРА" in text
    assert "\\u" not in text


def test_default_location_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "env" / "p.json"
    monkeypatch.setenv("QUIZZER_DB", str(target))
    with open_store(tz=UTC) as store:
        store.record(KEY, 3, NOW)
    assert target.exists()
    assert json.loads(target.read_text(encoding="utf-8"))["meta"]["1"]["schema"] == 2
