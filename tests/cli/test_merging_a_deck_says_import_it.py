"""`quizzer merge FILE` of a deck (a CSV, a Quizlet export, a glossary) instead of an Anki
package or a progress store: it says the file looks like a deck and gives the `quizzer
import` to run; exit 2, no traceback, no store made, no deck written."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.cli_support import run, write

GLOSSARY = Path(__file__).resolve().parents[2] / "data" / "000_048e4d4c80912def.txt"


@pytest.mark.parametrize(
    ("name", "text", "what"),
    [
        ("words.csv", "perro,dog\ngato,cat\ncasa,house\n", "a Quizlet export or a table"),
        ("quizlet export.txt", "perro\tdog\ngato\tcat\n", "a Quizlet export or a table"),
        ("glossary.txt", GLOSSARY.read_text(encoding="utf-8"), "a glossary"),
    ],
)
def test_merging_a_deck_says_it_is_one_and_to_import_it(decks, tmp_path, capsys, name, text, what):
    source = write(tmp_path / name, text)
    store = tmp_path / "store"
    code, out, err = run(capsys, "merge", str(source), "--db", str(store))
    assert code == 2
    assert out == ""
    assert f"{source}: this looks like a deck ({what}" in err
    assert "not an Anki package or a progress store" in err
    assert f"quizzer import {shlex.quote(str(source))}" in err
    assert "Traceback" not in err
    assert not store.exists()
    assert not list(decks.iterdir())


def test_a_json_file_is_no_deck_to_import(decks, tmp_path, capsys):
    # An old progress store's file is JSON, with commas on its lines: never a deck.
    source = write(tmp_path / "progress.json", '{"_default": {\n"1": {"card": "a", "g": 3}\n}}\n')
    code, _out, err = run(capsys, "merge", str(source), "--db", str(tmp_path / "store"))
    assert code == 2
    assert "neither an Anki package nor a quizzer progress store" in err
    assert "looks like a deck" not in err
