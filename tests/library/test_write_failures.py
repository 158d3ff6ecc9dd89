"""Writing a deck where the file system refuses: a clear error, exit 2, nothing half-written."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from quizzer.cli import decks_cmd
from quizzer.cli.main import main

GLOSSARY = (
    "Title\nSubtitle\nFirst term\nIt is the first definition.\nSecond term\nIt is the second.\n"
)


@pytest.fixture
def glossary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "unused"))
    monkeypatch.setenv("COLUMNS", "200")
    path = tmp_path / "terms.txt"
    path.write_text(GLOSSARY, encoding="utf-8")
    return path


def _import(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["import", *args, "--deck", "mine"])
    _out, err = capsys.readouterr()
    return code, err


def _assert_write_error(err: str, path: str) -> None:
    assert err.startswith(f"quizzer: error: {path}: can't ")
    assert "hint: choose a writable --into" in err
    assert "Traceback" not in err and "Errno" not in err


def test_into_under_a_file_is_an_input_error(
    glossary: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / "terms.txt" / "sub"
    code, err = _import(capsys, str(glossary), "--into", str(into))
    assert code == 2
    _assert_write_error(err, str(into))
    assert glossary.read_text(encoding="utf-8") == GLOSSARY


def test_into_a_folder_that_cannot_be_created(
    glossary: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = "/proc/quizzer-no-such-folder"  # /proc refuses new entries, even for root
    code, err = _import(capsys, str(glossary), "--into", into)
    assert code == 2
    _assert_write_error(err, into)
    assert not Path(into).exists()


def test_replace_failure_leaves_no_temp_file(
    glossary: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / "decks"
    (into / "mine.toml").mkdir(parents=True)  # a folder where the deck file would go
    code, err = _import(capsys, str(glossary), "--into", str(into))
    assert code == 2
    _assert_write_error(err, str(into / "mine.toml"))
    assert sorted(p.name for p in into.iterdir()) == ["mine.toml"]
    assert list((into / "mine.toml").iterdir()) == []


def test_dry_run_into_an_impossible_folder_writes_nothing(
    glossary: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / "terms.txt" / "sub"
    code, err = _import(capsys, str(glossary), "--into", str(into), "--dry-run")
    assert code == 0, err


def test_main_reports_an_unexpected_os_error_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", "/somewhere/decks")

    monkeypatch.setattr(decks_cmd, "library_summaries", refuse)
    code = main(["decks"])
    _out, err = capsys.readouterr()
    assert code == 1
    assert err == "quizzer: error: /somewhere/decks: Permission denied\n"
