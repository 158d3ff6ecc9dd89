"""Persian, Urdu, Hindi, Japanese and Chinese cards as tmux draws them, at 60×20 and 120×40:
right-to-left text joined and in visual order with its marks, Devanagari clusters whole,
Chinese and Japanese two cells a character, and every box's right border in one column."""

from __future__ import annotations

import shutil
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from quizzer.concepts.deck import Deck
from quizzer.library.decks import read_deck
from quizzer.ui.textshape import clusters, display_text
from tests.e2e.tmux_support import border_columns, needs_tmux, terminal_width, tmux_pane

pytestmark = [pytest.mark.slow, needs_tmux]

DECK_FILE = Path(__file__).parent / "decks" / "scripts-test.toml"
LANGS = ("fa", "ur", "hi", "ja", "zh")
SIZES = [pytest.param((60, 20), id="60x20"), pytest.param((120, 40), id="120x40")]


@pytest.fixture
def decks_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(DECK_FILE, folder / DECK_FILE.name)
    return folder


def _deck() -> Deck:
    return read_deck(DECK_FILE)


def _letters(text: str) -> Counter[str]:
    """The letters and marks of ``text``, presentation forms folded back to their letters."""
    folded = unicodedata.normalize("NFKC", text)
    return Counter(ch for ch in folded if unicodedata.category(ch)[0] in "LM")


def _inside(rows: list[tuple[int, int, str]]) -> list[str]:
    return [line.strip().strip("│").strip() for _row, _col, line in rows]


def _check_box(screen: str, width: int) -> list[tuple[int, int, str]]:
    rows = border_columns(screen)
    assert rows, f"no box on screen:\n{screen}"
    columns = {col for _row, col, _line in rows}
    detail = "\n".join(f"{row:2d} col {col:3d} {line}" for row, col, line in rows)
    assert len(columns) == 1, f"right borders in columns {sorted(columns)}:\n{detail}"
    for line in screen.splitlines():
        assert sum(terminal_width(ch) for ch in line) <= width, f"line wider than the pane: {line}"
    return rows


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_a_card_in_each_script(lang: str, size: tuple[int, int], decks_dir: Path) -> None:
    width, height = size
    concepts = {c.id: c for c in _deck().concepts}
    args = ["study", "scripts-test", "--from", f"{lang}:term", "--to", f"{lang}:definition"]
    env = {"QUIZZER_DECKS": str(decks_dir), "QUIZZER_DB": str(decks_dir.parent / "db")}
    with tmux_pane(width, height) as pane:
        pane.run([*args, "--mode", "flip", "--rtl", "app"], env)
        pane.wait_for(lambda t: " 0 done " in t or "0 done" in t, "the first card")
        pane.keys("Space")
        screen = pane.wait_for(lambda t: "Again" in t, "the answer")
    rows = _check_box(screen, width)
    inside = _inside(rows)
    shown = [
        c for c in concepts.values() if display_text(c.text(lang, "term") or "") in set(inside)
    ]
    assert len(shown) == 1, f"the term isn't on a line of its own, in visual order:\n{screen}"
    definition = shown[0].text(lang, "definition") or ""
    # Every letter and mark of the definition is on screen (shaped forms folded back).
    missing = _letters(definition) - _letters(" ".join(inside))
    assert not missing, f"lost from the definition: {missing}\n{screen}"
    if lang in ("fa", "ur"):
        forms = sum(0xFB50 <= ord(ch) <= 0xFEFF for ch in screen)
        assert forms >= len(definition) // 2, f"letters not joined:\n{screen}"
    else:
        # Logical order: the definition reads on, row after row (spaces aside).
        flat = "".join(line.replace(" ", "") for line in inside)
        assert definition.replace(" ", "") in flat, screen
    if lang == "hi":
        for line in inside:
            if line:
                assert not unicodedata.category(line[0]).startswith("M"), line
                assert clusters(line)[-1][-1] != "\u094d", f"a conjunct cut at: {line}"


@pytest.mark.parametrize("width", [60, 120])
def test_quizzer_show_draws_every_script_within_the_width(width: int, decks_dir: Path) -> None:
    with tmux_pane(width, 40) as pane:
        pane.run(["show", "scripts-test", "--rtl", "app"], {"QUIZZER_DECKS": str(decks_dir)})
        pane.wait_for(lambda t: "QUIZZER-EXITED-0" in t, "quizzer show to finish")
        screen = pane.screen(history=True)
    for line in screen.splitlines():
        assert sum(terminal_width(ch) for ch in line) <= width, line
    for concept in _deck().concepts:
        for lang in LANGS:
            text = concept.text(lang, "definition") or ""
            missing = _letters(text) - _letters(screen)
            assert not missing, (lang, missing)
            if lang in ("fa", "ur"):
                assert display_text(concept.text(lang, "term") or "") in screen
