"""Temp files left by killed imports and exports are cleaned up by later runs.

A kill between ``mkstemp`` and the rename leaves ``.NAME.toml.XXXXXXXX.tmp`` (or
``.x.apkg.XXXXXXXX.tmp``, up to megabytes); later writes into the same folder remove
them, but only files recognisably ours and too old to belong to a running writer.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.fsutil import STALE_TEMP_SECONDS, remove_stale_temps
from quizzer.progress import open_store
from tests.cli_support import write


def leftover(path: Path, age: float = STALE_TEMP_SECONDS + 60) -> Path:
    path.write_bytes(b"half a file")
    old = time.time() - age
    os.utime(path, (old, old))
    return path


def plant(folder: Path, suffix: str) -> tuple[list[Path], list[Path]]:
    """Stale temp files of ours, and look-alikes that must stay."""
    ours = [
        leftover(folder / f".mine{suffix}.k3j_x9qa.tmp"),
        leftover(folder / f".other deck{suffix}.abcdefgh.tmp"),
    ]
    keep = [
        leftover(folder / f".mine{suffix}.fresh123.tmp", age=1),  # a running writer's
        leftover(folder / f".mine{suffix}.short.tmp"),  # not mkstemp's 8 characters
        leftover(folder / f"mine{suffix}.k3j_x9qa.tmp"),  # no leading dot
        leftover(folder / f".mine{suffix}.K3J_X9QA.tmp"),  # mkstemp writes lower case
        leftover(folder / ".mine.txt.k3j_x9qa.tmp"),  # another kind of file
        leftover(folder / "notes.tmp"),
    ]
    link = folder / f".link{suffix}.abcdefgh.tmp"
    link.symlink_to(keep[-1])
    directory = folder / f".dir{suffix}.abcdefgh.tmp"
    directory.mkdir()
    return ours, [*keep, link, directory]


def test_an_import_removes_a_killed_imports_temp_files_only(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = write(tmp_path / "g.txt")
    assert main(["import", str(glossary), "--deck", "mine"]) == 0
    ours, keep = plant(decks, ".toml")
    assert main(["import", str(glossary), "--deck", "mine", "--dry-run"]) == 0
    assert all(p.exists() for p in ours)  # a dry run writes (and removes) nothing
    assert main(["import", str(glossary), "--deck", "mine"]) == 0  # unchanged: no write
    assert not any(p.exists() for p in ours)
    assert all(p.is_symlink() or p.exists() for p in keep)


def test_an_export_removes_a_killed_exports_temp_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "progress.json"
    with open_store(db):
        pass
    out = tmp_path / "out"
    out.mkdir()
    ours, keep = plant(out, ".apkg")
    code = main(["export", "anki", "--out", str(out / "x.apkg"), "--db", str(db)])
    assert code == 0, capsys.readouterr().err
    assert (out / "x.apkg").is_file()
    assert not any(p.exists() for p in ours)
    assert all(p.is_symlink() or p.exists() for p in keep)


def test_remove_stale_temps_reports_what_it_removed(tmp_path: Path) -> None:
    stale = leftover(tmp_path / ".d.toml.abcdefgh.tmp")
    assert remove_stale_temps(tmp_path, ".toml") == [stale]
    assert remove_stale_temps(tmp_path / "missing", ".toml") == []
