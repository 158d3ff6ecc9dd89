"""Special files are refused before they are read, big files unread.

``quizzer import /dev/zero`` used to read until memory ran out and a FIFO hung `import`
and `validate`: only regular files (or symlinks to them) are read, and at most a stated
size.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.glossary.parse import MAX_GLOSSARY_BYTES

DEVICES = [p for p in ("/dev/zero", "/dev/urandom") if os.path.exists(p)]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


@pytest.mark.parametrize("device", DEVICES)
def test_a_device_is_refused_unread(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], device: str
) -> None:
    link = tmp_path / "glossary.txt"
    link.symlink_to(device)
    for path in (device, str(link)):
        code, err = run(capsys, "import", path)
        assert code == 2
        assert "is a character device, not a glossary file" in err
        code, err = run(capsys, "validate", path)
        assert code == 2 and "is a character device, not a deck file" in err
    assert list(decks.iterdir()) == []


def _quizzer(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QUIZZER_DECKS": str(env_dir)}
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *args],
        capture_output=True,
        text=True,
        timeout=60,  # a hang fails the test instead of blocking the suite
        env=env,
        check=False,
    )


def test_a_fifo_is_refused_without_hanging(decks: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    deck_fifo = tmp_path / "pipe.toml"
    os.mkfifo(deck_fifo)
    imported = _quizzer("import", str(fifo), env_dir=decks)
    assert imported.returncode == 2
    assert "is a named pipe (FIFO), not a glossary file" in imported.stderr
    checked = _quizzer("validate", str(fifo), str(deck_fifo), env_dir=decks)
    assert checked.returncode == 2
    assert checked.stderr.count("is a named pipe (FIFO), not a deck file") == 2
    assert "Traceback" not in imported.stderr + checked.stderr
    assert list(decks.iterdir()) == []


def test_a_fifo_in_the_deck_folder_is_no_deck(decks: Path, tmp_path: Path) -> None:
    os.mkfifo(decks / "trap.toml")
    listed = _quizzer("decks", env_dir=decks)
    assert listed.returncode == 0, listed.stderr
    assert "training-efficiency" in listed.stdout


def test_a_glossary_over_the_size_limit_is_refused(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:  # sparse: costs no disk, only the bounded read
        fh.truncate(MAX_GLOSSARY_BYTES + 1)
    code, err = run(capsys, "import", str(big))
    assert code == 2
    assert f"larger than {MAX_GLOSSARY_BYTES // 2**20} MB" in err
    assert list(decks.iterdir()) == []


def test_a_directory_is_no_glossary(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(capsys, "import", str(tmp_path))
    assert code == 2 and "is a directory, not a glossary file" in err
