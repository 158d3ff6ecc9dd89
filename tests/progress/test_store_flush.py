"""An answer is folded into memory before the journal's flush, and a failed flush stops writing.

:meth:`OpenedStore._append <quizzer.progress.opening.OpenedStore._append>` writes the
line, folds it in, then flushes. Still every answer is on disk when ``record`` returns; a flush
that fails leaves the answer's fate to the file, so the store stops writing and a reopen
reads what the file holds.
"""

from __future__ import annotations

import errno
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.errors import StoreError
from quizzer.progress import doctor, journal, journal_path
from tests.progress.conftest import OpenDb

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
KEY = CardKey("demo/c1", Pair("ru", "term", "bn", "definition"))
KEY2 = CardKey("demo/c2", Pair("ru", "term", "bn", "definition"))


def test_the_answer_is_in_memory_when_its_line_is_flushed_and_on_disk_on_return(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    seen: list[tuple[int | None, int]] = []
    with open_db(db) as store:
        real = journal._sync

        def sync(fd: int) -> None:
            state = store.card(KEY)
            seen.append((state.reps if state else None, os.fstat(fd).st_size))
            real(fd)

        monkeypatch.setattr(journal, "_sync", sync)
        store.record(KEY, 3, NOW)
        store.record(KEY, 3, NOW + timedelta(minutes=10))
        size = journal_path(db).stat().st_size
        assert [reps for reps, _ in seen] == [1, 2]  # folded in before each flush
        assert seen[-1][1] == size  # the whole journal flushed before record returned


def test_a_failed_flush_stops_writing_and_the_file_decides(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    store = open_db(db)
    first = store.record(KEY, 3, NOW)

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal, "_sync", failing)
    with pytest.raises(StoreError, match="can't save the journal to disk: Input/output error"):
        store.record(KEY2, 1, NOW + timedelta(minutes=1))
    monkeypatch.undo()
    with pytest.raises(StoreError, match="stopped writing after a failed flush of its journal"):
        store.record(KEY, 3, NOW + timedelta(minutes=2))
    store.close()  # no compaction of a journal whose last line may not be on disk
    with open_db(db) as again:
        # Its bytes were written (the kernel still had them): the file says it was given.
        assert [r.card_id for r in again.reviews()] == [first.card_id, KEY2.id]
    assert doctor.check(db).healthy
