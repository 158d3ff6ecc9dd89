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


def test_a_fifo_in_this_devices_folder_stops_studying_with_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer seals the months before this one: a pipe named as one of them is refused
    by name (nothing written), never waited on."""
    monkeypatch.setenv("QUIZZER_DEVICE", "desk")
    store = tmp_path / "store"
    with open_store(store, tz=UTC) as opened:
        opened.record(CARD, 3, T0)
    os.mkfifo(store / "devices" / "desk" / "2026-02.log")
    code = (
        "import sys\nfrom datetime import UTC, datetime\nfrom quizzer.progress import open_store\n"
        f"with open_store({str(store)!r}, tz=UTC) as store:\n"
        f"    store.record({CARD!r}, 3, datetime(2026, 3, 3, 9, tzinfo=UTC))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 0
    assert "2026-02.log is a named pipe (FIFO)" in done.stderr, done.stderr
    assert "move it out of the folder" in done.stderr
    with open_store(store, tz=UTC, read_only=True) as opened:
        assert len(opened.reviews()) == 1  # the answer refused was not written
