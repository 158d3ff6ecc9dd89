"""Arabic typed into the answer field reads as on the card while it is typed: letters joined,
marks kept, right to left, aligned right; the answer checked is what was typed, in typing
order."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from quizzer.ui.textshape import display_text
from quizzer.ui.widgets.script_input import ScriptInput
from tests.ui_support import choice, make_app, reviews, texts_of


def _field_line(field: ScriptInput) -> str:
    """The cells of the field's line that are on screen."""
    return field.render_line(0).crop(0, field.scrollable_content_region.width).text


async def _type(pilot: Pilot[Any], field: ScriptInput, text: str) -> None:
    """Key presses as a terminal sends them: Pilot's ``press`` can't make a combining mark
    (it looks the character up by a key name like ``arabic_shadda`` and finds none)."""
    for ch in text:
        field.post_message(events.Key(unicodedata.name(ch).lower().replace(" ", "_"), ch))
        await pilot.pause()


@pytest.mark.parametrize("size", [(60, 20), (100, 30)])
async def test_arabic_is_shaped_and_right_to_left_while_typed(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ar:term", "typed"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        _concept, _prompt, answer = texts_of(pilot.app.screen)
        typed = ""
        for ch in "تحسّن":
            await _type(pilot, field, ch)
            typed += ch
            line = _field_line(field)
            # The visual form of what is typed so far, at the right edge (after it, the
            # cursor's cell at the left end of the Arabic, where the next letter goes).
            assert line.rstrip().endswith(display_text(typed)), (typed, line)
            assert line.startswith(" ") and not line.rstrip().endswith(typed[::-1] + " ")
        assert field.value == "تحسّن"  # the value stays in typing order
        assert "\u0651" in _field_line(field)  # the shadda is drawn
        field.value = ""
        await pilot.press(*answer, "enter")
        await pilot.pause()
    (review,) = reviews(tmp_path / "p.json")
    assert review.grade >= 3  # the logical-order text was checked, and it was right


async def test_the_cursor_is_drawn_on_its_letter_after_reordering(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ar:term", "typed"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        await _type(pilot, field, "سلام")
        await pilot.press("home")  # the cursor on the first letter typed: the rightmost
        await pilot.pause()
        runs = field.visual_runs()
        cursor = field.get_component_rich_style("input--cursor")
        styled = [text for text, style in runs if style == cursor]
        assert styled == ["\ufeb3"]  # س in its initial form
        assert runs[-1][1] == cursor  # rightmost, as س is in سلام


async def test_terminal_mode_and_latin_text_draw_as_textual_does(tmp_path: Path) -> None:
    app = make_app(
        tmp_path / "p.json",
        choice("quantization", "en:term>ar:term", "typed"),
        rtl_mode="terminal",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        await _type(pilot, field, "سلام")
        assert not field.shaped()
        assert _field_line(field).startswith("سلام")
        field.rtl_mode = "app"
        field.value = "bits"
        assert not field.shaped()


async def test_left_and_right_move_the_cursor_as_they_point_on_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ar:term", "typed"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        await _type(pilot, field, "سلام")
        assert field.cursor_position == 4  # after the last letter: the left end on screen
        await pilot.press("right")  # rightwards on screen: back into the word
        assert field.cursor_position == 3
        await pilot.press("right", "right", "right")
        assert field.cursor_position == 0  # the first letter, at the right end
        await pilot.press("left")
        assert field.cursor_position == 1
        field.value = "bits"
        field.cursor_position = 4
        await pilot.press("left")  # Latin text: as Textual does
        assert field.cursor_position == 3
