"""`quizzer show` on a big deck: piped, the valid deck's cached parse is printed as it is
(the same text as from the loaded deck, with or without the cache); in a terminal, the
first concepts and how to see the rest, unless --all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from quizzer.cli import decks_cmd
from quizzer.cli.main import main
from quizzer.concepts.concept import Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.library.decks import read_deck, write_deck
from quizzer.library.summary import read_summary
from tests.cli.test_show_wrap import show_in_terminal
from tests.factories import concept

SIZE = decks_cmd.SHOW_LIMIT + 30


def _big_deck(directory: Path) -> Path:
    concepts = [
        concept("gen", f"c{i}", {"en": (f"Term {i}", f"Definition {i}."), "ar": ("نموذج", "تعريف")})
        for i in range(SIZE)
    ]
    # One corrected seed text and an acronym: every kind of line show prints.
    fixed = Text(
        "Fixed term",
        Provenance("corrected", file="g.txt", line=3, original="Fixd term", reason="typo"),
    )
    first = concepts[0]
    concepts[0] = first.with_entry("en", Entry(fixed, first.entries["en"].definition))
    concepts[1] = concept("gen", "c1", {"fr": ("Élagage", "Suppression.")}, acronym="ELG")
    path = directory / "gen.toml"
    write_deck(Deck(id="gen", name="Generated", concepts=tuple(concepts)), path)
    read_summary(path)  # validated and cached, as after an import or a first listing
    return path


def _show(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["show", *args]) == 0
    return capsys.readouterr().out


def test_piped_show_prints_the_cached_parse_as_the_loaded_deck_would(
    decks: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _big_deck(decks)
    expected = decks_cmd.render_deck(read_deck(path)).plain
    assert f"Generated  (gen, {SIZE} concepts)" in expected and "was: Fixd term" in expected
    with monkeypatch.context() as patch:

        def refuse(path: Path) -> Deck:
            raise AssertionError("the deck was loaded")

        patch.setattr(decks_cmd, "read_deck", refuse)
        assert _show(capsys, "gen") == expected  # from the cache, no concept built
    # Without the cache (deleted), the deck is loaded and the text is the same.
    for entry in (Path(os.environ["QUIZZER_CACHE"]) / "decks").glob("*.json"):
        entry.unlink()
    assert _show(capsys, "gen") == expected


def test_a_terminal_shows_the_first_concepts_and_how_to_see_the_rest(decks: Path) -> None:
    _big_deck(decks)
    lines = show_in_terminal("gen", 100, decks)
    ids = [line.strip() for line in lines if line.strip().startswith("c")]
    assert ids[0] == "c0" and f"c{decks_cmd.SHOW_LIMIT - 1}" in ids
    assert f"c{decks_cmd.SHOW_LIMIT}" not in ids
    assert lines[0].split() == ["Generated", "(gen,", str(SIZE), "concepts)"]  # the whole size
    tail = " ".join(lines[-3:])
    assert "30 more concepts" in tail and "quizzer show gen --all" in tail
    every = show_in_terminal("gen", 100, decks, "--all")
    assert f"c{SIZE - 1}" in [line.strip() for line in every]
    assert "more concepts" not in " ".join(every)


@pytest.mark.parametrize(
    ("source", "label"),
    [
        (Provenance("authored", file="notes.txt"), "[authored notes.txt]"),
        (Provenance("authored", line=7), "[authored 7]"),
    ],
)
def test_an_authored_text_with_a_file_or_a_line_alone_is_shown(
    decks: Path, capsys: pytest.CaptureFixture[str], source: Provenance, label: str
) -> None:
    """Only seed texts need both; show printed a KeyError for an authored one with one."""
    text = Text("Hand-written term", source)
    first = concept("own", "c0", {"en": ("Term", "Definition.")})
    deck = Deck(
        id="own",
        name="Own",
        concepts=(first.with_entry("en", Entry(text, first.entries["en"].definition)),),
    )
    path = decks / "own.toml"
    write_deck(deck, path)
    read_summary(path)
    piped = _show(capsys, "own")
    assert f"Hand-written term  {label}" in piped
    assert piped == decks_cmd.render_deck(read_deck(path)).plain
