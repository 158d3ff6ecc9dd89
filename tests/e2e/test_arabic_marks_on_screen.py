"""Every Arabic vowel mark of the bundled decks reaches the screen: tanween, shadda, damma and
kasra (مسبقًا، تحسّن، المُحسِّن), drawn by tmux, in the app and in `quizzer show`."""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from quizzer.library.decks import find_deck
from quizzer.ui.textshape import display_text
from tests.e2e.tmux_support import arabic_marks, needs_tmux, tmux_pane

pytestmark = [pytest.mark.slow, needs_tmux]

DECKS = ("quantization", "training-efficiency")


def _arabic_texts(deck_id: str) -> dict[str, tuple[str, str]]:
    """Concept id → (Arabic term, Arabic definition)."""
    out: dict[str, tuple[str, str]] = {}
    for concept in find_deck(deck_id).deck.concepts:
        term, definition = concept.text("ar", "term"), concept.text("ar", "definition")
        if term and definition:
            out[concept.id] = (term, definition)
    return out


def test_the_bundled_decks_have_marks_to_lose() -> None:
    # Guards the tests below against passing on texts without any mark.
    marks = [m for d in DECKS for t, s in _arabic_texts(d).values() for m in arabic_marks(t + s)]
    assert len(marks) >= 17
    assert {"\u064b", "\u0651", "\u064f", "\u0650"} <= set(marks)


@pytest.mark.parametrize("deck_id", DECKS)
def test_every_mark_of_every_arabic_card_is_on_screen(deck_id: str, tmp_path: Path) -> None:
    texts = _arabic_texts(deck_id)
    args = ["study", deck_id, "--from", "ar:term", "--to", "ar:definition", "--mode", "flip"]
    seen: set[str] = set()
    lost: list[str] = []
    with tmux_pane(110, 34) as pane:
        pane.run([*args, "--rtl", "app"], {"QUIZZER_DB": str(tmp_path / "db")})
        for n in range(len(texts)):
            pane.wait_for(partial(_asked, f" {n} done "), f"card {n + 1}")
            pane.keys("Space")
            screen = pane.wait_for(lambda t: " definition" in t and "Again" in t, "answer")
            lines = {line.strip(" │") for line in screen.splitlines()}
            shown = [cid for cid, (term, _d) in texts.items() if display_text(term) in lines]
            assert len(shown) == 1, f"which concept is this?\n{screen}"
            term, definition = texts[shown[0]]
            expected = Counter(arabic_marks(term + definition))
            on_screen = Counter(arabic_marks(screen))
            if on_screen != expected:
                lost.append(f"{shown[0]}: expected {expected}, on screen {on_screen}\n{screen}")
            seen.add(shown[0])
            pane.keys("3")
    assert not lost, "\n".join(lost)
    assert seen == set(texts)


@pytest.mark.parametrize("deck_id", DECKS)
def test_quizzer_show_draws_every_mark(deck_id: str) -> None:
    deck = find_deck(deck_id).deck
    expected: Counter[str] = Counter()
    for concept in deck.concepts:
        for lang, _side, text in concept.texts():
            if lang == "ar":  # `show` prints a corrected text's seed original too
                expected.update(arabic_marks(text.text + (text.source.original or "")))
    assert expected
    with tmux_pane(120, 40) as pane:
        pane.run(["show", deck_id, "--rtl", "app"], {})
        pane.wait_for(lambda t: "QUIZZER-EXITED-0" in t, "quizzer show to finish")
        screen = pane.screen(history=True)
    assert Counter(arabic_marks(screen)) == expected


def _asked(done: str, screen: str) -> bool:
    """Whether ``screen`` asks the card whose progress reads ``done`` (the answer not shown)."""
    return done in screen and "Again" not in screen


def test_arabic_typed_in_the_terminal_shows_joined_right_to_left_with_its_marks(
    tmp_path: Path,
) -> None:
    args = ["study", "quantization", "--from", "en:term", "--to", "ar:term", "--mode", "typed"]
    typed = "تحسّن مسبقًا"
    with tmux_pane(100, 30) as pane:
        pane.run([*args, "--rtl", "app"], {"QUIZZER_DB": str(tmp_path / "db")})
        pane.wait_for(lambda t: "type the answer" in t, "the typed field")
        pane.type_text(typed)  # as the terminal sends it: letters and marks one by one
        screen = pane.wait_for(lambda t: display_text(typed) in t, "the typed text, shaped")
    field = next(line for line in screen.splitlines() if display_text(typed) in line)
    assert Counter(arabic_marks(field)) == Counter(arabic_marks(typed))
    # Right-aligned in the field: only the field's padding and edge after it.
    assert field.rstrip(" ▎▕▏│┃").endswith(display_text(typed)), field
    assert typed not in screen  # never drawn in typing order
