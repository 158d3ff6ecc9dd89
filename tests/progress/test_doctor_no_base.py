"""With no snapshot to rebuild from (the backup of a schema older than the month files), the
doctor replays both journals it keeps and says so.

README: the card states are rebuilt from the best snapshot left (``P``, else ``P.bak`` plus
``P.journal.prev``) plus the journal. A ``P.bak`` of schema 1 or 2 is refused as a base,
but ``P.journal.prev`` still holds what happened after it: the suspensions and settings
changes there are kept, and the report names what the states came from (not "nothing").
Real store files on disk, the real CLI.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from quizzer.progress import SCHEMA_VERSION, files, journal
from tests.cli_support import run
from tests.progress import store_builder as sb
from tests.progress.test_doctor_old_backup import _doc, _marked

SUSPENDED = sb.card(1)


def _store_with_an_old_backup(tmp_path: Path) -> tuple[Path, list[str]]:
    """A schema-3 store (snapshot and backup) whose second session suspended a card, then a
    session ended like a kill, migrated on open: the suspension is in ``P.journal.prev``
    (the generation after ``P.bak``), not in the journal."""
    db = tmp_path / "s" / "p.json"
    db.parent.mkdir()
    ids: list[str] = []
    with sb.open_db(db) as store:
        ids += [store.record(sb.card(i), 3, sb.JULY + timedelta(hours=i)).id for i in range(2)]
    with sb.open_db(db) as store:
        ids += [store.record(sb.card(i), 2, sb.AUGUST + timedelta(hours=i)).id for i in range(3)]
        store.set_suspended(SUSPENDED, True, sb.AUGUST + timedelta(days=1))
    store = sb.open_db(db)
    ids += [store.record(sb.card(2), 3, sb.SEPTEMBER).id]
    sb.abandon(store)
    _marked(db, 3)
    _marked(files.backup_path(db), 3)
    store = sb.open_db(db)  # migrates to the current schema, then answers twice
    for i in range(2):
        ids.append(store.record(sb.card(i + 2), 3, sb.LATER + timedelta(minutes=i)).id)
    sb.abandon(store)
    prev = files.previous_journal_path(db)
    assert b'"suspended":true' in prev.read_bytes()  # where the suspension is kept
    assert b'"suspended":true' not in files.journal_path(db).read_bytes()
    assert _doc(db)["meta"]["1"]["schema"] == SCHEMA_VERSION
    return db, ids


def _events(file: Path) -> int:
    return len(journal.read(file, 0).events)


@pytest.mark.parametrize("version", [1, 2])
def test_a_damaged_snapshot_beside_a_schema_1_or_2_backup_replays_both_journals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: int
) -> None:
    db, ids = _store_with_an_old_backup(tmp_path)
    backup = files.backup_path(db)
    if version == 2:
        _marked(backup, 2)
    else:  # schema 1: its tables only, the plain TinyDB layout
        backup.unlink()
        cards = _doc(db)["cards"]
        backup.write_text(json.dumps({"cards": cards, "reviews": {}}), encoding="utf-8")
    prev, jpath = files.previous_journal_path(db), files.journal_path(db)
    events = _events(prev) + _events(jpath)
    db.write_bytes(b"garbage")
    code, out, err = run(capsys, "doctor", "--db", str(db))
    assert code == 0, out + err
    lines = out.splitlines()
    assert (
        "repaired: rebuilt 4 card states from the journals alone (no snapshot could be used): "
        f"{events} events of p.json.journal.prev and p.json.journal"
    ) in lines
    assert not [line for line in lines if "nothing" in line]
    assert any(line.startswith(f"lost: p.json.bak: of schema {version},") for line in lines)
    with sb.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
        assert store.card(SUSPENDED).suspended  # type: ignore[union-attr]
    code, out, _ = run(capsys, "doctor", "--check", "--db", str(db))
    assert code == 0, out
