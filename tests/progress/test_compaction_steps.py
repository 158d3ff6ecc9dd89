"""The first two steps of a compaction (``progress.compaction``) on their own, on real stores.

The
store tests compact on every close; here folding a journal without a snapshot's state,
into a snapshot from before manifests, and each step's failure (its message, its hint,
the generation put back) are held on their own.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress import compaction, files, reviewlog
from quizzer.progress.files import backup_path
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State
from tests.progress import store_builder as sb

HINT = "check free disk space; every answer is safe in the journal meanwhile"


def _abandoned(db: Path, n: int = 3) -> list[str]:
    """A store whose last ``n`` answers are only in its journal (the session was killed)."""
    store = sb.open_db(db)
    ids = [store.record(sb.card(i), 3, sb.SEPTEMBER).id for i in range(n)]
    sb.abandon(store)
    return ids


def _month_ids(db: Path) -> set[str]:
    raw = (files.log_dir(db) / "2026-09.json").read_bytes()
    return {r["id"] for r in json.loads(raw)["reviews"].values()}


def test_folding_without_a_state_writes_every_answer_under_a_fresh_manifest(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    ids = _abandoned(db)
    compaction.fold_journal(db)
    assert _month_ids(db) == set(ids)
    compaction.fold_journal(db)  # keyed by review id: folding again changes nothing
    assert _month_ids(db) == set(ids)


def test_folding_into_a_snapshot_from_before_manifests_starts_one(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    ids = _abandoned(db)
    state = State()
    assert not state.months
    compaction.fold_journal(db, state)
    assert state.months == {"2026-09": [len(ids), 1]}  # written by generation 1
    assert _month_ids(db) == set(ids)


def test_a_review_log_that_cannot_be_written_is_a_clear_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    _abandoned(db)
    month = files.log_dir(db) / "2026-09.json"

    def refused(self: object, *args: object) -> None:
        raise OSError(errno.EACCES, "Permission denied", str(month))

    monkeypatch.setattr(reviewlog.Fold, "write", refused)
    with pytest.raises(StoreError) as caught:
        compaction.fold_journal(db)
    assert caught.value.message == "can't write the review log: Permission denied"
    assert caught.value.hint == HINT
    assert caught.value.path == str(month)


def test_an_os_error_without_a_file_name_points_at_the_log_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    _abandoned(db)

    def full(self: object, *args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(reviewlog.Fold, "write", full)
    with pytest.raises(StoreError) as caught:
        compaction.fold_journal(db)
    assert caught.value.message == "can't write the review log: No space left on device"
    assert caught.value.path == files.log_dir(db)

    def bare(self: object, *args: object) -> None:
        raise OSError("no reason given")

    monkeypatch.setattr(reviewlog.Fold, "write", bare)
    with pytest.raises(StoreError) as caught:
        compaction.fold_journal(db)
    assert caught.value.message == "can't write the review log: no reason given"


def test_a_damaged_journal_line_stops_the_fold_naming_the_line(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    _abandoned(db)
    jpath = db.with_name("p.json.journal")
    lines = jpath.read_bytes().split(b"\n")
    lines[1] = b"garbage"
    jpath.write_bytes(b"\n".join(lines))
    with pytest.raises(StoreError) as caught:
        compaction.fold_journal(db)
    assert caught.value.message == "the journal is damaged at line 2"


def test_a_snapshot_is_the_next_generation_and_the_old_one_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.SEPTEMBER)
    old = db.read_bytes()
    state = State.from_document(json.loads(old))
    gen = state.gen
    compaction.write_snapshot(db, state, AtomicJSONStorage(db))
    assert state.gen == gen + 1
    meta = json.loads(db.read_bytes())["meta"]["1"]
    assert (meta["gen"], meta["journal_offset"]) == (gen + 1, 0)
    assert backup_path(db).read_bytes() == old


def test_a_first_snapshot_has_no_backup_to_keep(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    compaction.write_snapshot(db, State(), AtomicJSONStorage(db))
    assert json.loads(db.read_bytes())["meta"]["1"]["gen"] == 1
    assert not backup_path(db).exists()


def test_a_snapshot_that_cannot_be_written_puts_the_generation_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    storage = AtomicJSONStorage(db)
    state = State()
    state.gen = 4

    def full(data: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "write", full)
    with pytest.raises(StoreError) as caught:
        compaction.write_snapshot(db, state, storage)
    assert state.gen == 4
    assert caught.value.message == "can't write the progress snapshot: No space left on device"
    assert caught.value.hint == HINT and caught.value.path == db

    def bare(data: object) -> None:
        raise OSError("no reason given")

    monkeypatch.setattr(storage, "write", bare)
    with pytest.raises(StoreError) as caught:
        compaction.write_snapshot(db, state, storage)
    assert caught.value.message == "can't write the progress snapshot: no reason given"
    assert state.gen == 4
