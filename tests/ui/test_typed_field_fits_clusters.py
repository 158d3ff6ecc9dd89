"""The typed-answer field draws its value per grapheme cluster in the cells a terminal gives
it (a Bengali or Hindi vowel sign a cell, a CJK character two): its line is exactly as wide
as the field, so the border after it stays in line; it scrolls a cluster at a time to keep
the cursor in view, and the cursor, Left and Right and a click take whole clusters."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from quizzer.ui.textshape import cells, clusters
from quizzer.ui.widgets.script_input import ScriptInput, cluster_starts
from tests.ui_support import choice, make_app

SIZES = [(60, 20), (80, 24), (120, 40)]
BENGALI = choice("quantization", "en:definition>bn:term", "typed")
#: Long enough to scroll in the field at 60 columns (about 90 cells as a terminal draws it).
LONG = "মডেল প্রশিক্ষণ হিন্দী 中文字 প্রশিক্ষণ মডেল প্রশিক্ষণ মডেল 中文 প্রশিক্ষণ শেষ"


async def _type(pilot: Pilot[Any], field: ScriptInput, text: str) -> None:
    """Key presses as a terminal sends them, a character at a time (Pilot's ``press``
    looks a character up by a key name, and Bengali vowel signs have none it knows)."""
    for ch in text:
        field.post_message(events.Key(unicodedata.name(ch).lower().replace(" ", "_"), ch))
        await pilot.pause()


def _shown(field: ScriptInput) -> str:
    """The field's line as the terminal gets it (cut where Textual cuts it, at the field's
    width by Rich's count); it must be exactly as wide as the field where the terminal draws
    it, or the border after it moves."""
    width = field.content_region.width
    line = field.render_line(0).crop(0, width)
    assert cells(line.text) == width, line.text
    return line.text


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_typed_bengali_fills_the_field_exactly(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json", BENGALI)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        typed = ""
        for word in ("মডেল", " প্রশিক্ষণ", " হিন্দী", " 中文"):
            await _type(pilot, field, word)
            typed += word
            assert _shown(field).startswith(typed)  # whole, from the field's left edge
        assert field.value == typed


async def test_a_long_value_scrolls_a_cluster_at_a_time(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", BENGALI)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        await _type(pilot, field, LONG)
        assert cells(LONG) > field.content_region.width
        shown = _shown(field).strip()
        # The end, where the cursor is, in view; the start scrolled off between clusters.
        assert LONG.endswith(shown), shown
        assert clusters(shown)[-3:] == clusters(LONG)[-3:]
        assert len(LONG) - len(shown) in cluster_starts(LONG)
        await pilot.press("home")
        shown = _shown(field)
        assert LONG.startswith(shown.rstrip()) and shown.startswith("মডেল প্রশিক্ষণ")


async def test_cursor_keys_and_a_click_take_whole_clusters(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", BENGALI)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = pilot.app.screen.query_one(ScriptInput)
        await _type(pilot, field, "মডেল প্রশিক্ষণ")
        await pilot.press("home", "right")
        assert field.cursor_position == 1
        cursor = field.get_component_rich_style("input--cursor")
        assert [text for text, style in field.visual_runs() if style == cursor] == ["ডে"]
        await pilot.press("right")
        assert field.cursor_position == 3  # over ডে, a consonant and its vowel sign
        await pilot.press("end", "left")
        assert field.value[field.cursor_position :] == "ক্ষণ"[-1]
        await pilot.press("left")
        assert field.value[field.cursor_position :] == "ক্ষণ"  # a conjunct is one cluster
        # Drawn: ম ডে ল and a space take 5 cells (Rich counts 4); the 6th is প্র.
        content = field.content_region
        await pilot.click(field, (content.x - field.region.x + 5, content.y - field.region.y))
        assert field.cursor_position == len("মডেল ")
        assert [text for text, style in field.visual_runs() if style == cursor] == ["প্র"]
        field.value = ""
        await _type(pilot, field, "ি")  # a vowel sign with no letter: on a dotted circle
        assert _shown(field).startswith("◌ি ")
