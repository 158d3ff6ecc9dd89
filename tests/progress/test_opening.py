"""Opening and closing a store (``progress.opening``) at its edges, on real stores on disk.

When
replaying a journal is long enough to compact, the temp files of a crashed compaction
swept away (and nothing else), the cut-short line kept aside, closing without answers,
a reader that makes nothing, a snapshot missing beside what a compaction left, old and
newer schemas, a journal cut before its writer's mark, and the messages of a store
that can't be opened or written.
"""

from __future__ import annotations

import errno
import json
import random
import shutil
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from tinydb import TinyDB

from quizzer.errors import StoreError
from quizzer.progress import compaction, journal, open_store, opening
from quizzer.progress.files import backup_path, journal_path, log_dir
from quizzer.progress.localtz import LocalTimezone
from quizzer.progress.schema import SCHEMA_VERSION
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.scheduling.card_state import CardState
from tests.progress import store_builder as sb


def _pending(db: Path, n: int) -> None:
    """``n`` answers left in the journal by a killed session."""
    store = sb.open_db(db)
    for i in range(n):
        store.record(sb.card(i % 50), 3, sb.SEPTEMBER + timedelta(minutes=i))
    sb.abandon(store)


@pytest.mark.parametrize(("n", "compacted"), [(3, False), (4, True)])
def test_a_journal_longer_than_the_limit_is_compacted_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, n: int, compacted: bool
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db):
        pass  # a new store: compacted once, generation 1
    gen = journal.generation(journal_path(db))
    _pending(db, n)
    monkeypatch.setattr(opening, "COMPACT_AFTER", 3)
    store = sb.open_db(db)
    try:
        assert store.replayed == n
        assert journal.generation(journal_path(db)) == gen + compacted
        assert len(store.reviews()) == n
    finally:
        sb.abandon(store)


def test_the_temp_files_of_a_crashed_compaction_are_swept_and_nothing_else(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    logs = log_dir(db)
    stale = [
        tmp_path / ".p.json.123.tmp",
        tmp_path / "p.json.bak.123.tmp",
        tmp_path / "p.json.journal.prev.123.tmp",
        logs / ".2026-09.json.123.tmp",
        logs / "2026-09.json.bak.123.tmp",
    ]
    kept = [tmp_path / "notes.tmp", tmp_path / "p.json.123.tmp", logs / "2026-09.json.123"]
    for file in stale + kept:
        file.write_bytes(b"x")
    with sb.open_db(db, read_only=True):
        pass  # a reader holds no lock: it leaves them
    assert all(f.exists() for f in stale)
    with sb.open_db(db):
        pass
    assert [f for f in stale if f.exists()] == []
    assert all(f.exists() for f in kept)


def test_a_cut_short_line_is_kept_aside_each_time(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    torn = journal_path(db).with_name("p.json.journal.torn")
    for tail in (b'0badc0de {"op":"rec', b'0badc0de {"op":"und'):
        _pending(db, 1)
        with open(journal_path(db), "ab") as fh:
            fh.write(tail)
        with sb.open_db(db, read_only=True) as ro:
            assert ro.torn_bytes == len(tail)
        assert not torn.exists() or tail not in torn.read_bytes()  # a reader writes nothing
        with sb.open_db(db) as store:
            assert store.torn_bytes == len(tail)
    assert torn.read_bytes() == b'0badc0de {"op":"rec\n0badc0de {"op":"und\n'


def test_closing_without_an_answer_compacts_nothing_and_twice_is_safe(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    gen = journal.generation(journal_path(db))
    snapshot = db.read_bytes()
    store = sb.open_db(db)
    store.close()
    store.close()
    assert journal.generation(journal_path(db)) == gen
    assert db.read_bytes() == snapshot
    with pytest.raises(StoreError) as caught:
        store.record(sb.card(2), 3, sb.LATER)
    assert caught.value.message == "the progress store is closed"
    with sb.open_db(db) as store:
        store.record(sb.card(2), 3, sb.LATER)
    assert journal.generation(journal_path(db)) == gen + 1
    assert journal_path(db).with_name("p.json.journal.prev").exists()


def test_a_read_only_store_refuses_answers(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    with sb.open_db(db, read_only=True) as ro, pytest.raises(StoreError) as caught:
        ro.record(sb.card(2), 3, sb.LATER)
    assert caught.value.message == "the progress store is open read-only"


def test_a_snapshot_of_an_unexpected_layout_is_named_damaged(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    doc = json.loads(db.read_text())
    doc["meta"]["1"]["journal_offset"] = "x" * 300
    db.write_text(json.dumps(doc))
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.message == (  # the value cut at 40 characters
        "progress store is damaged (unexpected content: meta.journal_offset is not a whole "
        f'number of 0 or more: "{"x" * 38}…)'
    )
    assert caught.value.hint == f"run `quizzer doctor --db {db}`"
    assert caught.value.path == db
    with pytest.raises(StoreError) as again:  # the same damage, not a lock still held
        sb.open_db(db)
    assert again.value.message == caught.value.message


def test_a_store_that_cant_be_read_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)

    def refused(self: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(journal_path(db)))

    monkeypatch.setattr(AtomicJSONStorage, "read_lazily", refused)
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.message == "can't open the progress store: Permission denied"
    assert caught.value.hint == (
        "check the path and its permissions (--db or $QUIZZER_DB choose another)"
    )
    assert caught.value.path == str(journal_path(db))  # the file the system named
    monkeypatch.undo()
    with sb.open_db(db) as store:  # the lock was let go
        assert len(store.reviews()) == 1


def test_a_journal_shorter_than_the_snapshot_says_is_damage(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    doc = json.loads(db.read_text())
    size = journal_path(db).stat().st_size
    doc["meta"]["1"]["journal_offset"] = size + 1
    db.write_text(json.dumps(doc))
    with pytest.raises(StoreError) as caught:
        sb.open_db(db, read_only=True)
    assert caught.value.message == (
        f"the journal is shorter ({size} bytes) than the snapshot says ({size + 1})"
    )
    doc["meta"]["1"]["journal_offset"] = size
    db.write_text(json.dumps(doc))
    with sb.open_db(db, read_only=True) as ro:
        assert ro.replayed == 0


def test_a_new_stores_journal_starts_with_its_header_even_if_the_first_compaction_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"

    def refused(*args: object) -> None:
        raise StoreError("can't write the review log: disk full", path=db)

    monkeypatch.setattr(compaction, "fold_journal", refused)
    with pytest.raises(StoreError):
        sb.open_db(db)
    assert journal.header(journal_path(db)) == 0  # provably older than any compaction's
    assert not db.exists()


def test_the_zone_and_rng_given_are_the_stores_else_the_systems_and_no_outcome_yet(
    tmp_path: Path,
) -> None:
    zone, rng = ZoneInfo("Asia/Dhaka"), random.Random(3)
    with open_store(tmp_path / "a.json", tz=zone, rng=rng) as store:
        assert store.tz is zone and store.rng is rng
        assert store.last_outcome is None  # nothing recorded yet
    with open_store(tmp_path / "b.json") as store:
        assert isinstance(store.tz, LocalTimezone)
        assert isinstance(store.rng, random.Random) and store.rng is not rng


def test_a_session_of_more_than_2000_answers_left_in_the_journal_is_compacted_on_open(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    _pending(db, 2001)  # a new store: compacted at its open, generation 1
    store = sb.open_db(db)
    try:
        assert store.replayed == 2001
        assert journal.generation(journal_path(db)) == 2
    finally:
        sb.abandon(store)


def test_a_store_of_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    doc = json.loads(db.read_text())
    doc["meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    db.write_text(json.dumps(doc))
    before = db.read_bytes()
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.message == (
        f"progress store has schema version {SCHEMA_VERSION + 1}, newer than this "
        f"quizzer understands ({SCHEMA_VERSION})"
    )
    assert caught.value.hint == "upgrade quizzer"
    assert caught.value.path == db
    assert db.read_bytes() == before


def _old_store(db: Path) -> None:
    """A schema-1 snapshot (TinyDB's own layout, no ``meta`` table) with one card."""
    with TinyDB(db, ensure_ascii=False) as tdb:
        tdb.table("cards").insert(CardState.new(sb.card(1), sb.SEPTEMBER).to_dict())


def test_an_old_store_opened_read_only_names_the_command_that_migrates_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    _old_store(db)
    with pytest.raises(StoreError) as caught:
        sb.open_db(db, read_only=True)
    assert caught.value.message == "progress store has the old schema version 1"
    assert caught.value.hint == (
        f"run `quizzer doctor --db {db}` (or start `quizzer` once) to migrate it; "
        "the old file is kept as a backup"
    )
    assert caught.value.path == db


def test_an_old_looking_snapshot_beside_a_new_journal_is_damage_not_a_migration(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    db.unlink()
    _old_store(db)
    for read_only in (False, True):
        with pytest.raises(StoreError) as caught:
            sb.open_db(db, read_only=read_only)
        assert caught.value.message == (
            "progress store is damaged (the snapshot looks like schema 1, but the journal "
            "beside it was written by schema 3 or later)"
        )
        assert caught.value.hint == (
            f"run `quizzer doctor --db {db}` to rebuild it from the backup"
        )
    assert not list(tmp_path.glob("p.json.v1.bak"))  # not migrated


def test_a_snapshot_without_a_journal_offset_replays_the_journal_from_its_start(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    _pending(db, 2)
    doc = json.loads(db.read_text())
    del doc["meta"]["1"]["journal_offset"]
    db.write_text(json.dumps(doc))
    with sb.open_db(db, read_only=True) as ro:
        assert ro.replayed == 2
        assert len(ro.reviews()) == 3


def test_a_missing_snapshot_beside_a_compacted_journal_is_damage_even_without_answers(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db):
        pass  # compacted once: a journal of generation 1, no answers, no backup
    assert journal.generation(journal_path(db)) == 1
    db.unlink()
    assert not list(tmp_path.glob("p.json.bak")) and not list(log_dir(db).iterdir())
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.message == (
        "the progress snapshot is missing (its journal and review log are here)"
    )
    assert caught.value.hint == f"run `quizzer doctor --db {db}` to rebuild it from the backup"
    assert not db.exists()


@pytest.mark.parametrize("left", ["backup", "review log"])
def test_a_missing_snapshot_with_only_its_backup_or_its_review_log_left_is_damage(
    tmp_path: Path, left: str
) -> None:
    db = tmp_path / "p.json"
    for day in range(2):
        with sb.open_db(db) as store:
            store.record(sb.card(1), 3, sb.SEPTEMBER + timedelta(days=day))
    db.unlink()
    journal_path(db).unlink()
    if left == "backup":
        shutil.rmtree(log_dir(db))
    else:
        backup_path(db).unlink()
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.message.startswith("the progress snapshot is missing")
    assert not db.exists()


def test_a_reader_of_a_store_not_made_yet_sees_it_empty_and_makes_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "not yet" / "p.json"
    with sb.open_db(db, read_only=True) as ro:
        assert len(ro) == 0 and ro.replayed == 0 and ro.reviews() == []
    assert not db.parent.exists()
    db.parent.mkdir()
    with sb.open_db(db, read_only=True) as ro:
        assert len(ro) == 0
    assert list(db.parent.iterdir()) == []  # not even a journal


def test_a_journal_cut_before_the_end_its_writer_saved_is_missing_answers(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db):
        pass
    _pending(db, 3)
    jpath = journal_path(db)
    raw = jpath.read_bytes()
    last = raw.rstrip(b"\n").rfind(b"\n") + 1  # the last answer's line
    with open(jpath, "r+b") as fh:
        fh.truncate(last)
    with pytest.raises(StoreError) as caught:
        sb.open_db(db, read_only=True)
    assert caught.value.message == (
        f"the journal ends at byte {last}, but its writer had saved answers up to byte "
        f"{len(raw)}: answers are missing"
    )
    assert caught.value.path == jpath
