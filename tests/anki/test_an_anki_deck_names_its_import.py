"""`quizzer import` of an Anki package without `--deck`: the deck takes the name of the Anki
deck its notes are in (`Spanish::Animals` → id `spanish-animals`), and importing the package
again changes nothing, also into a deck an earlier import named otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from anki.collection import Collection

from quizzer.cli.main import main
from quizzer.library.decks import read_deck
from tests.anki_support import export_with_scheduling

WORDS = [
    ("el perro de la casa", "the dog of the house"),
    ("un gato negro", "a black cat"),
    ("la casa y el jardín", "the house and the garden"),
    ("el libro está sobre la mesa", "the book is on the table"),
]


def _package(folder: Path, decks: list[str], legacy: bool = False) -> Path:
    """An .apkg of Anki's own making: the words' notes spread over ``decks`` in turn."""
    folder.mkdir(parents=True)
    col = Collection(str(folder / "collection.anki2"))
    try:
        model = col.models.by_name("Basic (and reversed card)")
        assert model is not None
        for number, (front, back) in enumerate(WORDS):
            note = col.new_note(model)
            note["Front"], note["Back"] = front, back
            deck_id = col.decks.id(decks[number % len(decks)])
            assert deck_id is not None
            col.add_note(note, deck_id)
        return export_with_scheduling(col, folder / "export.apkg", legacy=legacy)
    finally:
        col.close()


def _import(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["import", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("legacy", [False, True], ids=["anki21b", "legacy"])
def test_the_anki_deck_names_the_imported_deck(decks, tmp_path, capsys, legacy):
    apkg = _package(tmp_path / "col", ["Spanish::Animals"], legacy=legacy)
    out = _import(capsys, str(apkg))
    assert "created deck 'spanish-animals'" in out
    deck = read_deck(decks / "spanish-animals.toml")
    assert deck.name == "Spanish::Animals"
    assert len(deck) == len(WORDS)
    before = (decks / "spanish-animals.toml").read_bytes()
    out = _import(capsys, str(apkg))
    assert "deck 'spanish-animals' unchanged" in out and "0 new, 0 updated, 4 unchanged" in out
    assert (decks / "spanish-animals.toml").read_bytes() == before
    assert [p.name for p in decks.iterdir()] == ["spanish-animals.toml"]


def test_notes_in_sub_decks_take_the_deck_they_are_all_under(decks, tmp_path, capsys):
    apkg = _package(tmp_path / "col", ["Spanish::Animals", "Spanish::Home"])
    assert "created deck 'spanish'" in _import(capsys, str(apkg))
    assert read_deck(decks / "spanish.toml").name == "Spanish"


def test_notes_in_ankis_default_deck_take_the_files_name(decks, tmp_path, capsys):
    apkg = _package(tmp_path / "col", ["Default"])
    assert "created deck 'export'" in _import(capsys, str(apkg))


def test_a_deck_named_otherwise_before_is_updated_in_place(decks, tmp_path, capsys):
    # Imported under another name (--deck, or the file's name as imports once did): the
    # notes are found there by their GUIDs, and nothing changes.
    apkg = _package(tmp_path / "col", ["Spanish::Animals"])
    _import(capsys, str(apkg), "--deck", "words")
    before = (decks / "words.toml").read_bytes()
    out = _import(capsys, str(apkg))
    assert "deck 'words' unchanged" in out
    assert (decks / "words.toml").read_bytes() == before
    assert [p.name for p in decks.iterdir()] == ["words.toml"]
