"""Where a journal stands next to its snapshot (``progress.generations``), case by case.

The
store-level damage tests reach these rules only through whole stores; here each rule
and each message is held on its own.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress import journal
from quizzer.progress.files import journal_path
from quizzer.progress.generations import (
    Standing,
    is_v2_journal,
    journal_problem,
    standing,
    v2_backup_path,
)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "progress.json"


def test_a_header_of_an_older_or_the_same_generation_is_fine(store: Path) -> None:
    journal.start_new(journal_path(store), 3)
    assert journal_problem(store, 3) is None
    assert standing(store, 3) == Standing(3, False)
    assert standing(store, 4) == Standing(3, True)


def test_a_journal_newer_than_its_snapshot_is_damage(store: Path) -> None:
    journal.start_new(journal_path(store), 5)
    problem = journal_problem(store, 4)
    assert problem == "the journal (generation 5) is newer than the snapshot (generation 4)"
    with pytest.raises(StoreError) as caught:
        standing(store, 4)
    assert caught.value.hint == f"run `quizzer doctor --db {store}`"
    assert str(caught.value.path) == str(journal_path(store))


def test_nothing_absorbed_yet_replays_whatever_is_there(store: Path) -> None:
    # Generation 0: no compaction yet, so a journal without a header is just the first one.
    journal_path(store).write_bytes(b"not a header\n")
    assert journal_problem(store, 0) is None
    assert standing(store, 0) == Standing(0, False)


def test_a_missing_journal_after_a_compaction_is_damage(store: Path) -> None:
    problem = journal_problem(store, 1)
    assert problem == (
        "the journal is missing (the snapshot has absorbed generation 1; answers "
        "given since its last compaction, if any, are gone: how many can't be told, only the "
        "journal held them)"
    )


def test_an_empty_journal_after_a_compaction_is_damage(store: Path) -> None:
    journal_path(store).write_bytes(b"")
    assert journal_problem(store, 1) == (
        "the journal is empty (its header and any answers given since the last compaction are "
        "gone: how many can't be told, only the journal held them)"
    )


def test_a_damaged_header_after_a_compaction_is_damage(store: Path) -> None:
    journal.start_new(journal_path(store), 1)
    data = bytearray(journal_path(store).read_bytes())
    data[3] ^= 0x01
    journal_path(store).write_bytes(bytes(data))
    assert journal_problem(store, 1) == (
        "the journal's header line is damaged (its checksummed lines are kept by the doctor)"
    )


def test_the_kept_version_2_journal_is_absorbed(store: Path) -> None:
    content = b'{"op": "r"}\n'
    journal_path(store).write_bytes(content)
    v2_backup_path(store).write_bytes(content)
    assert is_v2_journal(store)
    assert journal_problem(store, 1) is None
    assert standing(store, 1) == Standing(0, True)


def test_a_journal_equal_to_the_kept_one_only_in_size_and_time_is_not_it(store: Path) -> None:
    jpath, kept = journal_path(store), v2_backup_path(store)
    jpath.write_bytes(b"aaaa\n")
    kept.write_bytes(b"bbbb\n")
    stat = jpath.stat()
    os.utime(kept, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    # Same size and modification time: only comparing the bytes tells them apart.
    assert not is_v2_journal(store)
    assert journal_problem(store, 2) is not None


def test_standing_is_a_frozen_slotted_value() -> None:
    value = Standing(1, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.stale = True  # type: ignore[misc]
    assert not hasattr(value, "__dict__")
