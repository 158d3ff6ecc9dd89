"""A named pipe where a store file belongs never hangs a command.

A plain ``open`` of a FIFO waits for a writer for ever: `quizzer devices`, `stats` and
`doctor` used to hang on one in the store folder. Store files are opened without blocking
and checked to be regular files: each command ends with no traceback; `devices` and `doctor`
name the file, say what it is and what to do (`stats` counts what reads, as it does past a
damaged line, unless the store's marker itself is the pipe).
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

import quizzer.progress.layout as layout
from quizzer.progress import open_store

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
CARD = "demo/c1|en:term>fr:term"
COMMANDS = (("devices",), ("doctor", "--check"), ("stats",))


def _quizzer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *args],
        capture_output=True,
        text=True,
        timeout=60,  # a hang fails the test instead of blocking the suite
        check=False,
    )


@pytest.mark.parametrize(
    "where", ["devices/desk/2026-02.log", "devices/desk/2025-12.json", "quizzer-store.json"]
)
def test_a_fifo_in_the_store_folder_is_reported_never_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.setenv("QUIZZER_DEVICE", "desk")
    store = tmp_path / "store"
    with open_store(store, tz=UTC) as opened:
        opened.record(CARD, 3, T0)
    fifo = store / where
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    for command in COMMANDS:
        done = _quizzer(*command, "--db", str(store))
        said = done.stdout + done.stderr
        assert "Traceback" not in said, said
        if command == ("stats",) and done.returncode == 0:
            assert "│ All    │       1 │" in said, said  # the answer in the other month
            continue
        assert fifo.name in said and "named pipe (FIFO)" in said, (command, said)
        assert "move it out of the folder" in said, (command, said)
    assert layout.device_folders(store) == [store / "devices" / "desk"]
