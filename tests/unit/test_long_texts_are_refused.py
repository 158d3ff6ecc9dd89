"""A text longer than a flashcard's is refused where it comes in, naming file and line.

A 5-million-character term in a deck file used to load, and made `stats` take 24-32 s
on every run; glossary lines already had a limit, deck texts now have the same one.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.concepts import deck as deckfile
from quizzer.concepts.deck import DeckFormatError
from quizzer.concepts.textrules import MAX_TEXT_CHARS
from quizzer.glossary.parse import MAX_LINE_CHARS


def _deck(term: str, original: str = "Seed term") -> str:
    return f'''format = 1
id = "long"
name = "Long"

[[concepts]]
id = "a"

[concepts.en.term]
text = "Short"
source = "authored"

[concepts.en.definition]
text = "A definition."
source = "authored"

[[concepts]]
id = "b"

[concepts.en.term]
text = "{term}"
source = "corrected"
file = "g.txt"
line = 3
original = "{original}"
reason = "spelling"

[concepts.en.definition]
text = "Another definition."
source = "authored"
'''


def test_every_glossary_line_fits_in_a_deck_text() -> None:
    assert MAX_TEXT_CHARS >= MAX_LINE_CHARS


def test_a_text_of_the_longest_length_loads() -> None:
    deck = deckfile.loads(_deck("t" * MAX_TEXT_CHARS, "o" * MAX_TEXT_CHARS))
    assert deck.concepts[1].text("en", "term") == "t" * MAX_TEXT_CHARS


@pytest.mark.parametrize(
    ("term", "original", "field"),
    [
        ("t" * (MAX_TEXT_CHARS + 1), "Seed", "b.en.term.text"),
        ("Term", "o" * (MAX_TEXT_CHARS + 1), "b.en.term.original"),
    ],
    ids=["text", "original"],
)
def test_a_longer_text_is_refused_with_its_concept_line_and_field(
    term: str, original: str, field: str
) -> None:
    with pytest.raises(DeckFormatError) as caught:
        deckfile.loads(_deck(term, original))
    error = caught.value
    assert error.line == 17  # the id line of concept "b"
    assert f"{field}: is {MAX_TEXT_CHARS + 1:,} characters long" in error.message
    assert "shorten it" in error.message


def test_a_five_million_character_term_stops_no_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    path = decks / "long.toml"
    path.write_text(_deck("x" * 5_000_000), encoding="utf-8")
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))
    monkeypatch.setenv("QUIZZER_DB", str(tmp_path / "progress.json"))

    start = time.perf_counter()
    assert main(["validate", str(path)]) == 2
    assert main(["stats"]) == 0  # the deck is skipped with a warning
    elapsed = time.perf_counter() - start

    err = capsys.readouterr().err
    assert f"{path}:17: concept 'b': b.en.term.text: is 5,000,000 characters long" in err
    assert "Traceback" not in err
    assert elapsed < 10  # it took 24-32 s when the term was loaded and counted


def test_a_five_million_character_glossary_term_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = tmp_path / "long.txt"
    glossary.write_text("Title\nSubtitle\nShort\nA definition.\n" + "x" * 5_000_000 + "\nDef\n")
    decks = tmp_path / "decks"
    assert main(["import", str(glossary), "--into", str(decks)]) == 2
    err = capsys.readouterr().err
    assert f"{glossary}:5: line is 5,000,000 characters long" in err
    assert "Traceback" not in err
    assert not decks.exists()
