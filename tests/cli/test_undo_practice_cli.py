"""`quizzer undo` takes back a practice answer (newest first) and says it was practice; the
scheduled answer before it is next (real store folder, the real command)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.progress import open_store

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
CARD = "demo/c0|en:term>en:definition"


def test_undo_takes_back_a_practice_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "store"
    with open_store(db, tz=UTC) as store:
        store.record(CARD, 3, T0)
        store.record_practice(CARD, 1, T0 + timedelta(minutes=1), None, "cram")
    assert main(["undo", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out == f"undone: practice (cram) {CARD} Again at 2026-03-01T09:01:00+00:00\n"
    with open_store(db, read_only=True) as store:
        assert store.practice() == [] and len(store.reviews()) == 1
    assert main(["undo", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith(f"undone: {CARD} Good at")
