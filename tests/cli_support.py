"""Helpers for the command tests: write a file, run `quizzer` in-process."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.cli.main import main

#: A small English glossary: title, subtitle, two entries.
EN_GLOSSARY = "Glossary\nTerms\nOne\nIt is the first.\nTwo\nIt is the second.\n"


def write(path: Path, text: str = EN_GLOSSARY) -> Path:
    """Write ``text`` (UTF-8) to ``path`` and return the path."""
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`quizzer ARGS...`: its exit code, stdout and stderr."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err
