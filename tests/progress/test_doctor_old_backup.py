"""The doctor rebuilds a damaged snapshot from a backup of an older schema.

A store migrated on open keeps the ``P.bak`` of its old schema until a compaction
replaces it; answers given meanwhile are in the journal, one generation newer than
the backup. With the snapshot damaged then, ``quizzer doctor`` must take the backup,
``P.journal.prev`` and the journal and the review log, at the current schema: no answer
lost, the damaged snapshot kept aside, the old backup's bytes kept. Real files on disk.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.progress import SCHEMA_VERSION, doctor, files, migrate
from tests.progress import store_builder


def _doc(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _marked(path: Path, version: int) -> bytes:
    """``path`` rewritten (a new file: ``P.bak`` may share its inode) as of schema ``version``."""
    doc = _doc(path)
    doc["meta"]["1"]["schema"] = version
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(tmp, path)
    return path.read_bytes()


def _migrated_on_open(tmp_path: Path, version: int) -> tuple[Path, list[str], bytes]:
    """A store of schema ``version`` (snapshot and backup) opened, migrated and answered in,
    the session ended like a kill: no compaction replaced ``P.bak``."""
    db = tmp_path / "s" / "p.json"
    db.parent.mkdir()
    ids = store_builder.build(db, july=2, august=3, pending=3)
    _marked(db, version)
    old_backup = _marked(files.backup_path(db), version)
    store = store_builder.open_db(db)  # migrates the snapshot to the current schema
    later = store_builder.LATER
    for i in range(3):
        ids.append(
            store.record(
                store_builder.card(i), store_builder.GRADES[i], later + timedelta(minutes=i)
            ).id
        )
    store_builder.abandon(store)
    assert _doc(db)["meta"]["1"]["schema"] == SCHEMA_VERSION
    assert files.backup_path(db).read_bytes() == old_backup  # no compaction replaced it
    backup_gen = _doc(files.backup_path(db))["meta"]["1"]["gen"]
    assert _doc(db)["meta"]["1"]["gen"] == backup_gen + 1  # the journal is one generation on
    return db, ids, old_backup


def test_a_damaged_snapshot_beside_a_schema_3_backup_is_rebuilt_losing_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids, old_backup = _migrated_on_open(tmp_path, 3)
    prev, jpath = files.previous_journal_path(db), files.journal_path(db)
    events = len(prev.read_bytes().splitlines()) + len(jpath.read_bytes().splitlines())
    db.write_bytes(b"garbage")
    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    (kept,) = db.parent.glob("p.json.damaged-*")
    assert kept.read_bytes() == b"garbage"
    keep = migrate.version_backup_path(files.backup_path(db), 3)
    assert keep.read_bytes() == old_backup  # the old backup's bytes, where a person finds them
    assert f"repaired: kept the damaged store as {kept.name}" in out
    assert (
        f"repaired: brought the backup p.json.bak from schema 3 to {SCHEMA_VERSION} for the "
        f"rebuild (its old bytes are kept as {keep.name}); card states come from the review "
        "log" in out
    )
    assert (  # the backup's generation (P.journal.prev), then the current journal
        f"repaired: rebuilt 4 card states from the backup p.json.bak and {events} journal "
        "events" in out
    )
    assert not [line for line in out if line.startswith(("lost:", "still wrong:"))]
    assert out[-1] == f"{db}: ok (4 cards)"
    assert _doc(db)["meta"]["1"]["schema"] == SCHEMA_VERSION
    with store_builder.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
        assert store.card(store_builder.card(2)).reps == 3  # type: ignore[union-attr]
    assert doctor.replay_findings(db) == []  # every state is its log's replay
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"{db}: ok (4 cards")


def test_a_schema_2_backup_is_not_a_base_and_the_states_come_from_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids, _ = _migrated_on_open(tmp_path, 3)
    _marked(files.backup_path(db), 2)
    db.write_bytes(b"garbage")
    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    keep = migrate.version_backup_path(files.backup_path(db), 2)
    assert (
        f"lost: p.json.bak: of schema 2, older than the review log's month files: not taken as "
        f"the base (its bytes are kept as {keep.name}); the settings, suspensions and flags it "
        "held are not restored, card states come from the journals and the review log"
    ) in out
    assert json.loads(keep.read_bytes())["meta"]["1"]["schema"] == 2
    assert out[-1] == f"{db}: repaired with losses (4 cards); see `lost:` above"
    with store_builder.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
    assert doctor.replay_findings(db) == []
    assert main(["doctor", "--check", "--db", str(db)]) == 0
