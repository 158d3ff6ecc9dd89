"""`import --dry-run` writes nothing, also when the import would change an existing deck."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.library.importer import import_glossaries
from tests.cli_support import EN_GLOSSARY, write


def tree(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` with its bytes and modification time."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), os.stat(p).st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_dry_run_over_an_existing_deck_changes_no_file(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = write(tmp_path / "g.txt")
    assert main(["import", str(glossary), "--deck", "mine"]) == 0
    glossary.write_text(
        EN_GLOSSARY.replace("the second", "the 2nd") + "Three\nThe third.\n", "utf-8"
    )
    before = tree(decks)
    result = import_glossaries([glossary], deck="mine", dry_run=True)
    assert result.changed and not result.written
    assert main(["import", str(glossary), "--deck", "mine", "--dry-run"]) == 0
    assert "dry run: would write" in capsys.readouterr().out
    assert tree(decks) == before
    # The same import for real does change the deck: the dry run had something to write.
    assert main(["import", str(glossary), "--deck", "mine"]) == 0
    assert tree(decks) != before
