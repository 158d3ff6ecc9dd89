"""Opening a store whose journal is absorbed, short, cut or damaged, or whose lock file went.

On the ``db`` fixture of ``conftest.py`` (a store of generation 3 with three answers left
in its journal, ``P.journal.prev`` of generation 2), damaged or left one way each.
"""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from quizzer.errors import StoreError
from quizzer.progress import journal
from quizzer.progress.files import journal_path, lock_path, previous_journal_path
from tests.progress import store_builder as sb


@pytest.mark.parametrize("read_only", [True, False], ids=["reader", "writer"])
def test_a_journal_the_snapshot_absorbed_is_not_replayed_nor_kept_as_torn(
    db: Path, read_only: bool
) -> None:
    # A compaction cut short after writing its snapshot: the old journal is still there.
    shutil.copyfile(previous_journal_path(db), journal_path(db))
    with sb.open_db(db, read_only=read_only) as store:
        assert (store.replayed, store.torn_bytes) == (0, 0)
        assert store.stale_journal
    assert not journal_path(db).with_name("p.json.journal.torn").exists()
    if not read_only:  # the writer finished the compaction: a journal of the snapshot's own
        assert journal.header(journal_path(db)) == 3


def test_a_journal_shorter_than_the_snapshot_says_names_the_doctor(db: Path) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    size = journal_path(db).stat().st_size
    doc["meta"]["1"]["journal_offset"] = size + 1
    db.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.hint == f"run `quizzer doctor --db {db}`"
    assert caught.value.path == journal_path(db)


def test_a_journal_missing_only_its_final_newline_loses_nothing(db: Path) -> None:
    jpath = journal_path(db)
    raw = jpath.read_bytes()
    jpath.write_bytes(raw[:-1])  # its writer's mark says the full length
    with sb.open_db(db, read_only=True) as store:
        assert (store.replayed, store.torn_bytes) == (3, 0)


def test_a_journal_cut_before_its_writers_mark_names_the_doctor(db: Path) -> None:
    jpath = journal_path(db)
    raw = jpath.read_bytes()
    jpath.write_bytes(raw[: raw.rstrip(b"\n").rfind(b"\n") + 1])  # the last answer gone
    with pytest.raises(StoreError) as caught:
        sb.open_db(db)
    assert caught.value.hint == f"run `quizzer doctor --db {db}`"


def test_a_checksummed_journal_line_with_a_bad_value_is_damage_naming_the_doctor(
    db: Path,
) -> None:
    jpath = journal_path(db)
    lines = jpath.read_bytes().splitlines(keepends=True)
    event: Any = journal.decode(lines[2])
    event["review"]["grade"] = 9
    lines[2] = journal.encode(event)  # its checksum verifies, its grade doesn't
    jpath.write_bytes(b"".join(lines))
    with pytest.raises(StoreError) as caught:
        sb.open_db(db, read_only=True)
    review = event["review"]
    assert caught.value.message == (
        f'the journal is damaged (journal event "{event["op"]}" for answer {review["id"]} of card '
        f"{review['card_id']} is invalid: in its answer, grade is 9, not 1 to 4)"
    )
    assert caught.value.hint == f"run `quizzer doctor --db {db}` (a copy is kept)"
    assert caught.value.path == jpath


def test_a_lock_file_removed_after_the_last_answer_stops_the_compaction(db: Path) -> None:
    store = sb.open_db(db)
    store.record(sb.card(7), 3, sb.LATER)
    snapshot = db.read_bytes()
    lock_path(db).unlink()
    with pytest.raises(StoreError) as caught:
        store.compact()
    assert caught.value.message == (
        "the store's lock file was removed or replaced while this process wrote it"
    )
    assert db.read_bytes() == snapshot  # nothing compacted by a writer that lost its lock
    sb.abandon(store)
    with sb.open_db(db, read_only=True) as reader:
        assert reader.replayed == 4  # the answer is still in the journal


def test_a_new_journal_that_cant_be_started_stops_writing_with_a_clear_error(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = sb.open_db(db)

    def disk_full(path: Path, gen: int) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(journal, "start_new", disk_full)
    with pytest.raises(StoreError) as caught:
        store.compact()
    assert caught.value.message == "can't start a new journal: No space left on device"
    assert caught.value.hint == "close and reopen the store (every answer so far is saved)"
    monkeypatch.undo()
    with pytest.raises(StoreError) as refused:
        store.record(sb.card(7), 3, sb.LATER)
    assert refused.value.message == "the progress store stopped writing after a failed compaction"
    assert refused.value.hint == "close and reopen it (every answer so far is saved)"
    sb.abandon(store)
    with sb.open_db(db, read_only=True) as reader:
        assert len(reader.reviews()) == 9


def test_a_lock_file_removed_between_two_answers_refuses_the_second(db: Path) -> None:
    store = sb.open_db(db)
    store.record(sb.card(7), 3, sb.LATER)
    journal_bytes = journal_path(db).read_bytes()
    lock_path(db).unlink()
    with pytest.raises(StoreError) as caught:
        store.record(sb.card(8), 3, sb.LATER)
    assert caught.value.message == (
        "the store's lock file was removed or replaced while this process wrote it"
    )
    assert journal_path(db).read_bytes() == journal_bytes  # nothing written without the lock
    sb.abandon(store)


def test_each_event_written_takes_the_next_sequence_number(db: Path) -> None:
    def seqs() -> list[int]:
        lines = journal_path(db).read_bytes().splitlines(keepends=True)[1:]
        return [journal.decode(line)["seq"] for line in lines]  # type: ignore[index]

    before = seqs()
    assert before == list(range(before[0], before[0] + 3))
    with sb.open_db(db) as store:
        store.record(sb.card(7), 3, sb.LATER)
        assert seqs() == [*before, before[-1] + 1]
    assert json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["seq"] == before[-1] + 1


def test_a_journal_write_that_fails_is_a_clear_error_and_changes_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(self: journal.JournalWriter, event: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with sb.open_db(db) as store:
        monkeypatch.setattr(journal.JournalWriter, "append_nosync", disk_full)
        with pytest.raises(StoreError) as caught:
            store.record(sb.card(7), 3, sb.LATER)
        monkeypatch.undo()
        assert caught.value.message == "can't write the journal: No space left on device"
        assert caught.value.hint == "check free disk space and permissions"
        assert store.card(sb.card(7)) is None
