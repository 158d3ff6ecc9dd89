"""A schema-2 store whose journal is gone: what is lost is said as it is.

Version 2 kept the whole review log in its journal, never truncated; the snapshot held
the card states as of its last compaction (``journal_offset``). With the journal
deleted, every answer's record is gone, and the answers given since that compaction too
(nothing tells how many). Opening refuses to migrate it silently; ``quizzer doctor
--check`` names the loss; ``quizzer doctor`` migrates the snapshot as it is, in one run,
and ends "repaired with losses". Real store files on disk, the real CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress import SCHEMA_VERSION, journal_path
from tests.cli_support import run
from tests.progress.test_doctor_old_backup import _doc
from tests.progress.test_store_log import KEY, _v2_store

LOST = (
    "the journal is {how}: this schema-2 store kept its whole review log there, so the record "
    "of every answer is lost, and so are the answers given since its last compaction (how "
    "many can't be told); the card states as of that compaction are in the snapshot"
)


@pytest.mark.parametrize("how", ["missing", "empty"])
def test_a_schema_2_store_without_its_journal_says_what_is_lost(
    tmp_path: Path, open_db, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    db = tmp_path / "p.json"
    _v2_store(open_db, db, tmp_path / "scratch.json")
    if how == "missing":
        journal_path(db).unlink()
    else:
        journal_path(db).write_bytes(b"")
    snapshot = db.read_bytes()
    lost = LOST.format(how=how)

    with pytest.raises(StoreError) as err:  # a writer doesn't migrate it without a word
        open_db(db)
    assert (err.value.message, err.value.path) == (lost, journal_path(db))
    assert err.value.hint == (
        f"run `quizzer doctor --db {db}`: it migrates the store as the snapshot holds it and "
        "says what is lost"
    )
    assert db.read_bytes() == snapshot
    assert not (tmp_path / "p.json.v2.bak").exists()

    code, out, _ = run(capsys, "doctor", "--check", "--db", str(db))
    assert code == 3
    assert f"problem: {journal_path(db)}: {lost}" in out.splitlines()

    code, out, err_text = run(capsys, "doctor", "--db", str(db))
    assert code == 0, out + err_text
    lines = out.splitlines()
    assert "repaired: migrated from schema 2 to 4 (the old file is kept as p.json.v2.bak)" in lines
    assert f"lost: p.json.journal: {lost}" in lines
    assert lines[-1] == f"{db}: repaired with losses (2 cards); see `lost:` above"
    assert (tmp_path / "p.json.v2.bak").read_bytes() == snapshot
    assert _doc(db)["meta"]["1"]["schema"] == SCHEMA_VERSION

    code, out, _ = run(capsys, "doctor", "--check", "--db", str(db))
    assert code == 0, out
    with open_db(db) as store:
        assert store.card(KEY) is not None  # the state as of the last compaction
        assert store.reviews() == []
