"""An answer is on disk when :meth:`Store.record` returns: the device log is flushed
(``fdatasync``) after its line is written, and the device folder is fsynced when the log is
made, so that the new file's name survives a power cut too (real store folder on disk; the
flush calls are watched, then done for real)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import quizzer.progress.layout as layout
from quizzer.progress.store import open_store

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
CARD = "demo/c0|en:term>en:definition"


@pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell which file a descriptor is"
)
def test_record_flushes_the_log_and_the_folder_of_a_new_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    #: (the path a flushed descriptor is open on, its size then, its folder's entries then)
    flushed: list[tuple[Path, int, list[str]]] = []

    def watched(real: Callable[[int], None]) -> Callable[[int], None]:
        def flush(fd: int) -> None:
            path = Path(os.readlink(f"/proc/self/fd/{fd}"))
            entries = sorted(os.listdir(path)) if path.is_dir() else []
            flushed.append((path, os.fstat(fd).st_size, entries))
            real(fd)

        return flush

    monkeypatch.setattr(os, "fdatasync", watched(os.fdatasync))
    monkeypatch.setattr(os, "fsync", watched(os.fsync))
    monkeypatch.setenv("QUIZZER_DEVICE", "laptop")
    with open_store(tmp_path / "store", tz=UTC) as store:
        flushed.clear()
        store.record(CARD, 3, T0)
        (folder,) = layout.device_folders(store.path)
        folder = folder.resolve()
        log = layout.log_path(folder, "2026-03")
        first = log.stat().st_size
        # The log flushed with the answer's line in it, before record() returned ...
        assert (log, first, []) in flushed
        # ... and its folder flushed once the new log's name was in it.
        assert any(path == folder and log.name in names for path, _, names in flushed)
        flushed.clear()
        store.record(CARD, 1, T0 + timedelta(days=2))
        second = log.stat().st_size
        assert second > first
        assert (log, second, []) in flushed
