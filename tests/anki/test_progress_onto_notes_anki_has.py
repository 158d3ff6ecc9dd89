"""`export --with-progress` onto notes Anki already has: quizzer says what Anki will do.

Anki keeps its own schedule for cards it already holds (its import "updates" the notes
and adds none of their reviews). The export says so, with what to do, and what it says
is checked on the real engine: the schedule is kept, and deleting the notes first (the
remedy it names) brings quizzer's progress in.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.anki.ids import PARENT_DECK
from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from tests.anki_support import db_of, import_package, open_collection, recent

STUDIED = [
    CardKey("quantization/gptq", Pair.parse("en:term>en:definition")),
    CardKey("quantization/awq", Pair.parse("en:term>en:definition")),
]


def _export(tmp_path: Path, db: Path, name: str, age: int, *flags: str) -> Path:
    out = tmp_path / name
    argv = ["export", "anki", "--deck", "quantization", "--out", str(out), "--db", str(db)]
    assert main([*argv, "--pair", "en:en", "--timestamp", str(int(recent(age))), *flags]) == 0
    return out


def test_the_export_says_anki_keeps_its_schedule_and_the_remedy_works(tmp_path, capsys):
    db = tmp_path / "progress.json"
    first = _export(tmp_path, db, "first.apkg", 600)
    capsys.readouterr()
    col = open_collection(tmp_path)
    try:
        import_package(col, first, scheduling=True)
        now = datetime.now(UTC)
        with open_store(db) as store:
            for key in STUDIED:
                store.record(key, 3, now - timedelta(days=2), Answer(duration_ms=2000))
                store.record(key, 3, now - timedelta(hours=1), Answer(duration_ms=2000))
        second = _export(tmp_path, db, "second.apkg", 60, "--with-progress")
        out = capsys.readouterr().out
        assert "2 studied cards scheduled, 4 reviews" in out
        assert "2 of the 2 studied cards were in an earlier export" in out
        assert "keeps its own schedule" in out and "delete those notes in Anki first" in out

        # What it says is what Anki does: notes updated, no review added, cards still new.
        log = import_package(col, second, scheduling=True)
        assert len(log.updated) > 0
        assert db_of(col).scalar("select count() from revlog") == 0
        assert db_of(col).scalar("select count() from cards where type != 0") == 0

        # The remedy it names: delete the notes in Anki, then import the file again.
        col.remove_notes(col.find_notes(f'"deck:{PARENT_DECK}*"'))
        import_package(col, second, scheduling=True)
        assert db_of(col).scalar("select count() from revlog") == 4
        assert db_of(col).scalar("select count() from cards where type != 0") == 2
    finally:
        col.close()


def test_a_first_export_with_progress_still_names_what_anki_keeps(tmp_path, capsys):
    db = tmp_path / "progress.json"
    with open_store(db) as store:
        store.record(STUDIED[0], 3, datetime.now(UTC) - timedelta(hours=1), Answer())
    _export(tmp_path, db, "only.apkg", 60, "--with-progress")
    out = capsys.readouterr().out
    assert "were in an earlier export" not in out
    assert "cards Anki already has keep Anki's schedule on import" in out
