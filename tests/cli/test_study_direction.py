"""Which direction `quizzer study` asks: --from/--to with their side prefixes, and the
defaults a deck in one language gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.cards.card import Pair
from quizzer.cli.main import main
from quizzer.cli.study_cmd import parse_side, resolve_pair
from quizzer.concepts.languages import parse_side as parse_side_name
from quizzer.errors import InputError
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.study import StudyScreen
from tests.cli_support import run, write

FR = (
    "Glossaire\nIA\nQuantification\nLa réduction de la précision des poids du modèle.\n"
    "Élagage\nLa suppression des poids qui comptent le moins dans le réseau.\n"
)


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("t", "term"),
        ("term", "term"),
        ("TERM", "term"),
        ("d", "definition"),
        ("def", "definition"),
        ("definition", "definition"),
    ],
)
def test_a_side_may_be_abbreviated(text: str, side: str) -> None:
    assert parse_side_name(text) == side
    assert parse_side(f"en:{text}", "--from", "term") == ("en", side)


@pytest.mark.parametrize("text", ["", "x", "terms", "definitions", "word"])
def test_a_side_that_is_no_prefix_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="unknown side"):
        parse_side_name(text)
    with pytest.raises(InputError, match="unknown side"):
        parse_side(f"en:{text}", "--to", "term")


def test_study_from_en_def_is_the_definition() -> None:
    assert resolve_pair("en:def", "ru:t", None) == resolve_pair("en:definition", "ru:term", None)


def test_resolve_pair_for_a_french_only_deck() -> None:
    french = Pair("fr", "term", "fr", "definition")
    assert resolve_pair(None, None, None, ("fr",)) == french
    # A last direction the deck has no text for is not reused.
    last = Pair("en", "definition", "en", "term")
    assert resolve_pair(None, None, last, ("fr",)) == french
    assert resolve_pair("fr:definition", None, last, ("fr",)) == Pair(
        "fr", "definition", "fr", "term"
    )
    # A deck with English keeps the English default.
    assert resolve_pair(None, None, None, ("en", "fr")) == last


def test_study_a_french_only_deck_without_from_and_to(
    decks: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    glossary = write(tmp_path / "fr.txt", FR)
    code, _out, err = run(capsys, "import", str(glossary), "--deck", "mots", "--lang", "fr")
    assert code == 0, err
    db = str(tmp_path / "p.json")
    seen: dict[str, object] = {}
    real_run = QuizzerApp.run

    async def look(pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        seen["screen"] = type(screen).__name__
        if isinstance(screen, StudyScreen):
            seen["prompt"] = str(screen.query_one("#prompt").render())
        await pilot.press("q", "enter")

    def headless_run(self, **kwargs):
        seen["pair"] = self.start.pair if self.start else None
        return real_run(self, headless=True, size=(100, 30), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    french = Pair("fr", "term", "fr", "definition")
    # First with no last choice; then after an English session on another deck, whose
    # direction the French deck has no text for.
    for argv, pair in (
        (["study", "mots"], french),
        (["study", "quantization", "--from", "en:def", "--to", "en:term"], None),
        (["study", "mots"], french),
    ):
        seen.clear()
        code = main([*argv, "--db", db])
        assert code == 0
        assert seen["screen"] == "StudyScreen"
        if pair is not None:
            assert seen["pair"] == pair
            assert "Quantification" in str(seen["prompt"]) or "Élagage" in str(seen["prompt"])
