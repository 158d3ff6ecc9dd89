"""Edges of :mod:`quizzer.progress.doctor` found by mutation testing (issue 14)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store

START = datetime(2026, 3, 2, 8, tzinfo=UTC)
KEYS = [CardKey(f"deck/c{i}", Pair("en", "term", "fr", "term")) for i in range(3)]


def _answered(db: Path) -> None:
    with open_store(db, tz=UTC) as store:
        for n, key in enumerate(KEYS):
            store.record(key, 3, START + timedelta(minutes=n))


def _drop_state(db: Path, key: CardKey) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["cards"] = {k: r for k, r in doc["cards"].items() if r["card_id"] != key.id}
    db.write_text(json.dumps(doc), encoding="utf-8")


def test_the_ok_line_after_a_rebuild_counts_the_cards_the_rebuild_brought_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.json"
    _answered(db)
    _drop_state(db, KEYS[1])  # its answers are still in the review log
    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "repaired: rebuilt 1 of 3 card states from their review log" in out
    assert out.splitlines()[-1] == f"{db}: ok (3 cards)"
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    assert f"{db}: ok (3 cards)" in capsys.readouterr().out
