"""An old store's file that the system won't let quizzer read or move says so in words.

The file, what happened (the system's words, never Python's ``[Errno …]`` text) and what to
do; exit code 3 like every trouble with the store; nothing written beside the file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

import quizzer.progress.upgrade as upgrade
from quizzer.errors import StoreError
from quizzer.progress import open_store

NOW = datetime(2026, 12, 5, 9, tzinfo=UTC)
SCHEMA4 = Path(__file__).parent / "data" / "old_stores" / "schema4"


def test_an_old_store_too_big_to_read_is_refused_in_words(tmp_path: Path) -> None:
    old = tmp_path / "progress.json"
    with open(old, "wb") as fh:
        fh.truncate(3 * 2**30)  # sparse: no disk used, bigger than quizzer reads
    for command in (("stats",), ("devices",), ("doctor", "--check")):
        done = subprocess.run(
            [sys.executable, "-m", "quizzer", *command, "--db", str(old)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 3, (command, done.stderr)
        assert f"{old}: can't read this old progress store: it is larger than 2048 MB" in (
            done.stderr
        ), (command, done.stderr)
        assert "hint: check that the file is yours to read" in done.stderr
        assert "Errno" not in done.stderr and "Traceback" not in done.stderr
    with pytest.raises(StoreError, match="can't read this old progress store"):
        open_store(old, tz=UTC)
    assert [p.name for p in tmp_path.iterdir()] == ["progress.json"]
    assert old.stat().st_size == 3 * 2**30


def test_an_upgrade_the_system_refuses_says_what_and_keeps_the_old_files(
    tmp_path: Path,
) -> None:
    store = tmp_path / "progress.json"
    for source in SCHEMA4.iterdir():
        copy = shutil.copytree if source.is_dir() else shutil.copy2
        copy(source, tmp_path / source.name)
    # An upgrade cut short, and in the backup folder a folder where a journal must go.
    upgrade.migrating_path(store).write_text('{"upgrading": "quizzer-store"}\n')
    blocker = tmp_path / "progress.json.legacy-v2" / "progress.json.journal"
    blocker.mkdir(parents=True)
    (blocker / "keep").write_text("x")
    with pytest.raises(StoreError) as refused:
        upgrade.upgrade(store, NOW)
    text = str(refused.value)
    assert text.startswith(f"{store}: can't upgrade the old store: ")
    assert "Errno" not in text and "nothing was removed" in text
    assert (tmp_path / "progress.json.journal").is_file()  # left where it was
    assert upgrade.migrating_path(store).exists()
    assert os.listdir(blocker) == ["keep"]
