"""The durability promises, observed on the real write path.

An answer is on the disk when ``record()`` returns: its journal line was flushed
(``fdatasync``, or ``fsync`` without it) before the call came back, and the flush covered
the line. A file replaced atomically (the snapshot at compaction, any ``atomic_write_bytes``)
was flushed before the rename, and its directory was flushed after it, so that the rename
itself survives a power cut. The tests wrap ``os.fsync`` / ``os.fdatasync``, note which file
each flush was for and what that file held at that moment, and let the real call run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizzer.fsutil import atomic_write_bytes
from quizzer.progress import journal_path
from tests.progress import store_builder
from tests.progress.conftest import OpenDb

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="names a flushed file through /proc/self/fd"
)

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
KEY = store_builder.card(1)


@dataclass(frozen=True)
class Flush:
    """One flush: the file (or directory) it was for, and that file's bytes at the time."""

    call: str
    path: Path
    content: bytes | None  # None for a directory


def _watch(monkeypatch: pytest.MonkeyPatch) -> list[Flush]:
    """Record every ``os.fsync`` / ``os.fdatasync`` from now on (the real call still runs)."""
    flushes: list[Flush] = []

    def wrap(name: str) -> None:
        real: Callable[[int], None] = getattr(os, name)

        def flush(fd: int) -> None:
            path = Path(os.readlink(f"/proc/self/fd/{fd}"))
            content = None if path.is_dir() else os.pread(fd, 1 << 24, 0)
            flushes.append(Flush(name, path, content))
            real(fd)

        monkeypatch.setattr(os, name, flush)

    wrap("fsync")
    if hasattr(os, "fdatasync"):
        wrap("fdatasync")
    return flushes


def test_an_answer_is_flushed_to_the_journal_before_record_returns(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        journal = journal_path(db).resolve()
        flushes = _watch(monkeypatch)
        review = store.record(KEY, 3, NOW)
        after = list(flushes)  # what had been flushed when record() returned
        written = journal.read_bytes()
        assert review.id.encode() in written
        ours = [f for f in after if f.path == journal]
        assert ours, "record() returned without flushing the journal"
        # The flush came after the answer's line was written: it is what made it durable.
        assert ours[-1].content == written


def test_without_fdatasync_the_journal_is_flushed_with_fsync(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        journal = journal_path(db).resolve()
        monkeypatch.delattr(os, "fdatasync", raising=False)  # as on macOS and Windows
        flushes = _watch(monkeypatch)
        store.record(KEY, 3, NOW)
        assert [f.content for f in flushes if f.path == journal] == [journal.read_bytes()]


def test_every_change_is_flushed_before_its_call_returns(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        journal = journal_path(db).resolve()
        flushes = _watch(monkeypatch)
        for change in (
            lambda: store.bury(KEY, NOW),
            lambda: store.undo(),
            lambda: store.set_suspended(KEY, True, NOW),
        ):
            flushes.clear()
            change()
            assert [f.content for f in flushes if f.path == journal][-1:] == [journal.read_bytes()]


def _replaced_then_directory_flushed(flushes: list[Flush], target: Path, new: bytes) -> None:
    """The new bytes were flushed before they had the target's name, and the directory was
    flushed once they had it."""
    directory = target.parent
    data = [i for i, f in enumerate(flushes) if f.content == new and f.path != target]
    assert data, f"the new {target.name} was not flushed before its rename"
    dirs = [i for i, f in enumerate(flushes) if f.path == directory and i > data[-1]]
    assert dirs, f"{directory} was not flushed after {target.name} was renamed into it"


def test_an_atomic_write_flushes_the_file_then_its_directory_after_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = (tmp_path / "deck.toml").resolve()
    target.write_bytes(b"old")
    renamed: list[bytes] = []
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        real_replace(src, dst)
        renamed.append(Path(dst).read_bytes())

    monkeypatch.setattr(os, "replace", replace)
    flushes = _watch(monkeypatch)
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and renamed == [b"new"]
    _replaced_then_directory_flushed(flushes, target, b"new")
    # Only after the rename: the directory's flush is what makes the new name durable.
    assert flushes[-1].path == tmp_path.resolve()


def test_compaction_flushes_the_new_snapshot_and_its_directory(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = (tmp_path / "p.json").resolve()
    store = open_db(db)
    store.record(KEY, 3, NOW)
    flushes = _watch(monkeypatch)
    store.close()  # compacts: a new snapshot, month file and journal, each renamed in
    _replaced_then_directory_flushed(flushes, db, db.read_bytes())
    journal = journal_path(db).resolve()
    _replaced_then_directory_flushed(flushes, journal, journal.read_bytes())
