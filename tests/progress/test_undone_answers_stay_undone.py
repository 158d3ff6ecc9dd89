"""An answer undone here stays undone when an older copy that still holds it is merged.

A copy of the store (another machine's, a backup) or an Anki package exported with
progress keeps the answer after it is undone here; a merge used to bring it straight
back, as if it had been given there. The store keeps the undone answers (through
compactions and the doctor), and a merge leaves them out and says so.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import doctor, open_store
from quizzer.scheduling.answer import Answer

DAY = timedelta(days=1)
KEYS = [
    CardKey("training-efficiency/lora", Pair.parse("en:term>bn:definition")),
    CardKey("training-efficiency/peft", Pair.parse("ru:term>ar:term")),
]


def _picture(db: Path) -> tuple[list[str], dict[str, object]]:
    """The store's answer ids and the two cards' states."""
    with open_store(db, read_only=True, tz=UTC) as store:
        states = {k.id: store.card(k) for k in KEYS}
        ids = [r.id for r in store.reviews()]
    return ids, {k: s.to_dict() if s else None for k, s in states.items()}


@pytest.fixture
def studied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two cards answered over a month; the last answer (on ``KEYS[1]``) is the one to undo."""
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    db = tmp_path / "s" / "progress.json"
    db.parent.mkdir()
    now = datetime.now(UTC)
    with open_store(db, tz=UTC) as store:
        store.record(KEYS[0], 3, now - 30 * DAY, Answer(mode="flip", duration_ms=2000))
        store.record(KEYS[1], 4, now - 20 * DAY, Answer(mode="flip", duration_ms=2000))
        store.record(KEYS[0], 3, now - 9 * DAY, Answer(mode="flip", duration_ms=2000))
        store.record(KEYS[1], 1, now - 2 * DAY, Answer(mode="flip", duration_ms=2000))
    return db


def _copy(db: Path, to: Path) -> Path:
    to.mkdir()
    for file in db.parent.iterdir():
        if file.name.startswith(db.name) and not file.name.endswith(".lock"):
            (shutil.copytree if file.is_dir() else shutil.copy2)(file, to / file.name)
    return to / db.name


def _undo(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["undo", "--db", str(db)]) == 0
    assert "undone" in capsys.readouterr().out


def test_merging_an_older_copy_of_the_store_keeps_an_undone_answer_undone(
    studied: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = _copy(studied, tmp_path / "older")
    _undo(studied, capsys)
    after_undo = _picture(studied)
    assert len(after_undo[0]) == 3
    # Survives compactions (each close) and a doctor's rebuild from the backup and journal.
    with open_store(studied, tz=UTC) as store:
        store.compact()
    assert doctor.repair(studied).healthy
    assert main(["merge", str(older), "--db", str(studied)]) == 0
    out = capsys.readouterr().out
    assert "added 0 answers" in out and "1 answers undone here" in out, out
    assert _picture(studied) == after_undo
    # An answer given after the undo is still merged from a copy made later.
    newer = _copy(studied, tmp_path / "newer")
    with open_store(newer, tz=UTC) as store:
        store.record(KEYS[1], 3, datetime.now(UTC), Answer(mode="flip", duration_ms=2000))
    assert main(["merge", str(newer), "--db", str(studied)]) == 0
    assert "added 1 answers" in capsys.readouterr().out
    assert len(_picture(studied)[0]) == 4


def test_merging_an_anki_package_exported_before_the_undo_keeps_it_undone(
    studied: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "progress.apkg"
    export = ["export", "anki", "--out", str(package), "--with-progress", "--all"]
    assert main([*export, "--db", str(studied)]) == 0
    capsys.readouterr()
    _undo(studied, capsys)
    after_undo = _picture(studied)
    assert main(["merge", str(package), "--db", str(studied)]) == 0
    out = capsys.readouterr().out
    assert "added 0 answers" in out and "1 answers undone here" in out, out
    assert _picture(studied) == after_undo
