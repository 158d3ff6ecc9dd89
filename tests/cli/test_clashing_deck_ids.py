"""A user deck whose id is a bundled deck's is skipped with a warning naming both files.

Every command keeps working on the rest of the library (it used to exit 2 on each);
the bundled deck is the one used, and the warning says how to use the user's copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.library.decks import load_library
from quizzer.library.summary import library_summaries
from quizzer.paths import bundled_decks_dir


@pytest.fixture
def clash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    decks = tmp_path / "decks"
    decks.mkdir()
    mine = decks / "my-copy.toml"
    shutil.copy(bundled_decks_dir() / "quantization.toml", mine)
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))
    monkeypatch.setenv("QUIZZER_DB", str(tmp_path / "progress.json"))
    return mine


COMMANDS = {
    "decks": ["decks"],
    "show": ["show", "quantization"],
    "stats": ["stats"],
    "export": ["export", "anki", "--out", "{tmp}/out.apkg"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_skips_the_clashing_deck_with_a_warning(clash, tmp_path, command, capsys):
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in COMMANDS[command]]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "warning: skipped" in err and str(clash) in err
    assert str(bundled_decks_dir() / "quantization.toml") in err


def test_the_library_keeps_the_bundled_deck(clash, capsys):
    library = load_library()
    (item,) = [i for i in library if i.deck.id == "quantization"]
    assert item.bundled and item.path != clash
    assert [s.id for s in library_summaries()].count("quantization") == 1
    assert "my-copy.toml" in capsys.readouterr().err
