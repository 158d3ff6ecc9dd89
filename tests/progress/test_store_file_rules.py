"""Each rule of "is this file a quizzer store" on its own (``progress.files``), with real files.

``test_store_signature.py`` checks the rules as a whole (a store of every version is ours, a
foreign file is refused untouched); here each table name, companion suffix and sniffing limit
is checked alone, so that a rule that stopped accepting or refusing what it should is noticed.
"""

from __future__ import annotations

import json
import os
from datetime import UTC
from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress import files, journal, open_store

#: How much of a journal or a damaged snapshot is looked at (``files._SNIFF_BYTES``).
SNIFF = 64 * 1024
EVENT = journal.encode(journal.header_event(1))
FOREIGN = b'{"name": "my-app", "version": "1.0.0"}'


def _store(tmp_path: Path, snapshot: bytes | None) -> Path:
    db = tmp_path / "p.json"
    if snapshot is not None:
        db.write_bytes(snapshot)
    return db


@pytest.mark.parametrize("table", ["meta", "settings", "cards", "reviews"])
def test_a_snapshot_of_any_one_of_our_tables_is_ours(tmp_path: Path, table: str) -> None:
    db = _store(tmp_path, json.dumps({table: {}}).encode())
    assert files.is_ours(db)
    assert files.check_store_path(db) == db


def test_a_snapshot_of_all_our_tables_and_tinydbs_default_is_ours(tmp_path: Path) -> None:
    tables = ["meta", "settings", "cards", "reviews", "_default"]
    db = _store(tmp_path, json.dumps({t: {} for t in tables}).encode())
    assert files.is_ours(db)


def test_tinydbs_default_table_goes_with_ours_but_alone_is_anyones(tmp_path: Path) -> None:
    db = _store(tmp_path, b'{"_default": {}, "cards": {}}')
    assert files.is_ours(db)
    db.write_bytes(b'{"_default": {"1": {"x": 1}}}')  # any TinyDB file of another program
    assert not files.is_ours(db)
    with pytest.raises(StoreError, match="not a quizzer progress store"):
        files.check_store_path(db)


def test_one_of_our_tables_beside_a_foreign_one_is_not_ours(tmp_path: Path) -> None:
    db = _store(tmp_path, b'{"cards": {}, "name": "my-app"}')
    assert not files.is_ours(db)


def test_our_meta_record_makes_a_snapshot_ours_whatever_else_it_holds(tmp_path: Path) -> None:
    # A newer version's snapshot may hold tables this one doesn't know: its meta names it.
    db = _store(tmp_path, b'{"meta": {"1": {"schema": 9}}, "decks_v9": {}}')
    assert files.is_ours(db)
    for not_meta in (
        b'{"meta": {"1": {"version": 9}}, "decks_v9": {}}',  # no schema in the record
        b'{"meta": {"2": {"schema": 9}}, "decks_v9": {}}',  # not the first record
        b'{"meta": {"1": 9}, "decks_v9": {}}',  # the record is not a document
        b'{"other": {"1": {"schema": 9}}, "decks_v9": {}}',  # not the meta table
    ):
        db.write_bytes(not_meta)
        assert not files.is_ours(db), not_meta


@pytest.mark.parametrize("table", ["meta", "settings", "cards", "reviews"])
def test_a_cut_short_snapshot_is_ours_by_its_first_table_name(tmp_path: Path, table: str) -> None:
    db = _store(tmp_path, b' \n{ "%s" :{"1":{"schema":3,"gen":2,"journal_of' % table.encode())
    assert files.is_ours(db)
    db.write_bytes(b'{"title": {"1":{"schema":3,"gen":2,"journal_of')
    assert not files.is_ours(db)


def test_a_damaged_snapshot_is_sniffed_only_in_its_first_64_kib(tmp_path: Path) -> None:
    head = b'{"cards":'
    db = _store(tmp_path, b" " * (SNIFF - len(head)) + head + b'{"1":[cut')
    assert files.is_ours(db)  # the table name and its colon end at the limit
    db.write_bytes(b" " * (SNIFF - len(head) + 1) + head + b'{"1":[cut')
    assert not files.is_ours(db)  # one byte later: the colon is past it


@pytest.mark.parametrize(
    "suffix", [".bak", ".journal.prev", ".log", ".v1.bak", ".v2.bak", ".journal.v2.bak"]
)
def test_each_companion_of_ours_makes_the_file_beside_it_ours(tmp_path: Path, suffix: str) -> None:
    db = _store(tmp_path, b"\x00garbled beyond recognition")
    assert not files.is_ours(db)
    companion = tmp_path / ("p.json" + suffix)
    if suffix == ".log":
        companion.mkdir()
    else:
        companion.write_bytes(b"")
    assert files.is_ours(db)
    assert files.check_store_path(db) == db


def test_a_journal_is_ours_by_any_of_its_first_50_lines(tmp_path: Path) -> None:
    db = _store(tmp_path, FOREIGN)
    jpath = files.journal_path(db)
    jpath.write_bytes(b"not ours\n" * 49 + EVENT)
    assert files.is_ours(db)
    jpath.write_bytes(b"not ours\n" * 50 + EVENT)
    assert not files.is_ours(db)
    jpath.write_bytes(EVENT + b"not ours\n" * 60)
    assert files.is_ours(db)


def test_a_journal_is_sniffed_only_in_its_first_64_kib(tmp_path: Path) -> None:
    db = _store(tmp_path, FOREIGN)
    jpath = files.journal_path(db)
    body = len(EVENT) - 1  # a line is an event without its newline too
    jpath.write_bytes(b"x" * (SNIFF - body - 1) + b"\n" + EVENT)
    assert files.is_ours(db)  # the event's last byte is the limit's last
    jpath.write_bytes(b"x" * (SNIFF - body) + b"\n" + EVENT)
    assert not files.is_ours(db)  # one byte later: the event is cut, its checksum fails
    jpath.write_bytes(b"x" * (SNIFF + 10) + b"\n" + EVENT)
    assert not files.is_ours(db)  # a first line longer than the limit hides the rest


def test_a_journal_of_someone_elses_lines_does_not_make_a_file_ours(tmp_path: Path) -> None:
    db = _store(tmp_path, FOREIGN)
    files.journal_path(db).write_bytes(EVENT[:-2] + b"\n")  # checksum fails: not an event
    assert not files.is_ours(db)


@pytest.mark.skipif(not Path("/proc/self/mem").is_file(), reason="needs Linux /proc")
def test_a_file_that_cannot_be_read_is_not_taken_for_ours(tmp_path: Path) -> None:
    # /proc/self/mem is a regular file whose first read fails (EIO), even for root, whom
    # chmod doesn't stop: it stands for any store file that can't be read.
    db = _store(tmp_path, FOREIGN)
    os.symlink("/proc/self/mem", files.journal_path(db))
    assert not files.is_ours(db)
    files.journal_path(db).unlink()
    db.unlink()
    os.symlink("/proc/self/mem", db)
    assert not files.is_ours(db)
    with pytest.raises(StoreError, match="not a quizzer progress store"):
        files.check_store_path(db)


def test_a_folder_is_never_ours_even_beside_a_companion(tmp_path: Path) -> None:
    folder = tmp_path / "p.json"
    folder.mkdir()
    (tmp_path / "p.json.bak").write_bytes(b"")
    assert not files.is_ours(folder)


def test_the_lock_of_a_store_is_the_file_named_after_it(tmp_path: Path) -> None:
    # The name people are told about (``P.lock``; the doctor's messages name it too).
    db = tmp_path / "p.json"
    assert files.lock_path(db) == tmp_path / "p.json.lock"
    with open_store(db, tz=UTC):
        assert (tmp_path / "p.json.lock").is_file()


def test_the_signature_sees_files_replaced_but_not_a_journal_appended_to(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    assert files.files_signature(db) == (None, None)
    db.write_bytes(b'{"cards": {}}')
    jpath = files.journal_path(db)
    jpath.write_bytes(EVENT)
    first = files.files_signature(db)
    assert files.files_signature(db) == first
    with open(jpath, "ab") as fh:  # a writer's answer: readers read on, it is no compaction
        fh.write(EVENT)
    assert files.files_signature(db) == first
    new = tmp_path / "new.journal"
    new.write_bytes(EVENT)
    os.replace(new, jpath)  # a compaction's new journal, by rename
    second = files.files_signature(db)
    assert second != first and second[0] == first[0]
    new = tmp_path / "new.json"
    new.write_bytes(b'{"cards": {"1": {}}}')
    os.replace(new, db)  # a compaction's new snapshot, by rename
    assert files.files_signature(db)[0] != second[0]


def test_a_reader_kept_out_by_compactions_is_told_to_try_again(tmp_path: Path) -> None:
    err = files.busy_error(tmp_path / "p.json")
    assert err.message == (
        "the progress store kept changing while it was read (another quizzer process is saving it)"
    )
    assert err.hint == "try again in a moment"
    assert err.path == tmp_path / "p.json"


def test_a_folder_given_as_the_store_is_refused_with_an_example_to_give(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    with pytest.raises(StoreError) as err:
        files.check_store_path(folder)
    assert err.value.message == "not a quizzer progress store (this is a folder)"
    assert (
        err.value.hint
        == "give the store file, e.g. --db ~/quizzer/progress.json; nothing was changed"
    )
    (folder / "progress.json").write_bytes(b"{}")  # the folder holds one: that is the example
    with pytest.raises(StoreError) as err:
        files.check_store_path(folder)
    assert (
        err.value.hint
        == f"give the store file, e.g. --db {folder / 'progress.json'}; nothing was changed"
    )


def test_someone_elses_file_is_refused_saying_it_was_left_as_it_is(tmp_path: Path) -> None:
    db = _store(tmp_path, FOREIGN)
    with pytest.raises(StoreError) as err:
        files.check_store_path(db)
    assert err.value.message == "not a quizzer progress store (this file holds no quizzer progress)"
    assert (
        err.value.hint
        == "check the path given with --db (or $QUIZZER_DB); the file was left as it is"
    )
    assert err.value.path == db


def test_a_mistyped_store_path_is_no_store_and_none_is_made(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with pytest.raises(StoreError) as err:
        files.require_store(db)
    assert err.value.message == "no progress store here"
    assert err.value.hint == (
        "check the path given with --db (or $QUIZZER_DB); a store is made when you first study"
    )
    assert list(tmp_path.iterdir()) == []
    files.journal_path(db).write_bytes(EVENT)
    assert files.require_store(db) == db


def test_a_damaged_journal_line_points_at_the_doctor(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    err = files.journal_damage_error(db, 7)
    assert err.message == "the journal is damaged at line 7"
    assert err.hint == f"run `quizzer doctor --db {db}` to repair it (a copy is kept)"
    assert (err.path, err.line) == (files.journal_path(db), 7)
