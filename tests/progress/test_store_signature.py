"""Only a file recognisably ours is a store: opening or repairing anything else touches nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tinydb import TinyDB

from quizzer.cards.card import CardKey, Pair
from quizzer.errors import StoreError
from quizzer.progress import doctor, files, journal_path

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
KEY = CardKey("training-efficiency/lora", Pair("ru", "term", "bn", "definition"))


def _tree(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes()
        for p in sorted(root.rglob("*"))
    }


NOT_OURS = {
    "markdown": b"# notes\n\nkeep me\n",
    "empty": b"",
    "other json": b'{"name": "my-app", "version": "1.0.0"}',
    "empty json": b"{}",
    "json list": b"[1, 2, 3]",
    "json with one of our words inside": b'{"title": "cards", "meta": 1}',
    "binary": b"\x00\x01\x02garbage",
}


@pytest.mark.parametrize("raw", NOT_OURS.values(), ids=NOT_OURS.keys())
@pytest.mark.parametrize("read_only", [False, True], ids=["write", "read-only"])
def test_a_file_that_is_not_ours_is_refused_by_open_and_doctor_unchanged(
    tmp_path: Path, raw: bytes, read_only: bool, open_db
) -> None:
    db = tmp_path / "p.json"
    db.write_bytes(raw)
    before = _tree(tmp_path)
    with pytest.raises(StoreError, match="not a quizzer progress store"):
        open_db(db, read_only=read_only)
    for look in (doctor.check, doctor.repair):
        with pytest.raises(StoreError, match="not a quizzer progress store"):
            look(db)
    assert _tree(tmp_path) == before  # no lock file, no .damaged- copy, no journal
    assert not files.is_ours(db)


@pytest.mark.parametrize("read_only", [False, True], ids=["write", "read-only"])
def test_a_folder_is_refused_by_open_and_doctor_with_its_files_untouched(
    tmp_path: Path, read_only: bool, open_db
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "important.txt").write_text("keep\n", encoding="utf-8")
    before = _tree(tmp_path)
    with pytest.raises(StoreError) as err:
        open_db(notes, read_only=read_only)
    assert err.value.message == "not a quizzer progress store (this is a folder)"
    for look in (doctor.check, doctor.repair):
        with pytest.raises(StoreError, match="this is a folder"):
            look(notes)
    assert _tree(tmp_path) == before


OURS_ALONE = {
    "cut-short snapshot": b'{"meta":{"1":{"schema":3,"gen":2,"journal_of',
    "snapshot with a bad meta": b'{"meta": 5}',
    "old layout": b'{"reviews": [1, 2, 3], "cards": {}}',
}


@pytest.mark.parametrize("raw", OURS_ALONE.values(), ids=OURS_ALONE.keys())
def test_a_damaged_snapshot_of_ours_is_still_recognised_and_named_damaged(
    tmp_path: Path, raw: bytes, open_db
) -> None:
    db = tmp_path / "p.json"
    db.write_bytes(raw)
    assert files.is_ours(db)
    with pytest.raises(StoreError) as err:
        open_db(db, read_only=True)
    assert "not a quizzer" not in err.value.message
    assert not doctor.check(db).healthy


def test_stores_of_every_version_and_their_leftovers_are_ours(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
    assert files.is_ours(db)
    db.write_bytes(b"\x00" * 10)  # garbled beyond recognition, but our journal is beside it
    assert files.is_ours(db)
    db.unlink()
    assert files.is_ours(db)  # the journal alone: the doctor rebuilds the snapshot
    new = tmp_path / "new.json"
    journal_path(new).touch()  # what a writer creating a store makes first
    assert files.is_ours(new)
    v1 = tmp_path / "v1.json"
    with TinyDB(v1) as tdb:
        tdb.table("cards").insert({"card_id": KEY.id})
    assert files.is_ours(v1)
    foreign = tmp_path / "other.json"
    foreign.write_text(json.dumps({"x": 1}), encoding="utf-8")
    journal_path(foreign).write_text("not a journal of ours\n", encoding="utf-8")
    assert not files.is_ours(foreign)
