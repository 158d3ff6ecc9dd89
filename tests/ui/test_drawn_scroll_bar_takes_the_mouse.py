"""The scroll bar a list draws in its own lines (DrawnOptionList) takes the mouse: its thumb
is dragged, and a click on the track pages; a click on the bar chooses no option."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from quizzer.ui.screens.cards import CardsScreen
from quizzer.ui.widgets.drawn import DrawnOptionList
from tests.ui_support import choice, make_app


async def _card_list(pilot: Pilot[Any]) -> DrawnOptionList:
    """The card browser's list of a Bengali pair, longer than the 60×20 screen shows."""
    await pilot.pause()
    await pilot.press("space", "3")  # one answer: the browser lists this pair's cards
    await pilot.pause()
    pilot.app.push_screen(CardsScreen("quantization"))
    await pilot.pause()
    listed = pilot.app.screen.query_one("#cards-list", DrawnOptionList)
    assert listed.max_scroll_y > 0  # it scrolls
    return listed


def _bar(listed: DrawnOptionList, line: int) -> tuple[int, int]:
    """The offset (from the list's corner, as Pilot takes it) of the bar's cell at ``line``
    of the lines shown."""
    content, region = listed.content_region, listed.region
    return content.right - 1 - region.x, content.y - region.y + line


async def test_dragging_the_thumb_scrolls_the_list(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=(60, 20)) as pilot:
        listed = await _card_list(pilot)
        highlighted = listed.highlighted
        top, size = listed.thumb()
        assert (top, listed.scroll_offset.y) == (0, 0)
        height = listed.scrollable_content_region.height
        assert size < height
        await pilot.mouse_down(listed, _bar(listed, top))
        await pilot.hover(listed, _bar(listed, top + 2))
        await pilot.pause()
        assert listed.scroll_offset.y > 0  # two lines of thumb are more than two of list
        assert listed.thumb()[0] == 2
        await pilot.hover(listed, _bar(listed, height + 5))  # past the track's end
        await pilot.pause()
        assert listed.scroll_offset.y == listed.max_scroll_y
        await pilot.mouse_up(listed, _bar(listed, height - 1))
        await pilot.pause()
        # Let go: moving the mouse no longer scrolls, and no option was chosen.
        await pilot.hover(listed, _bar(listed, 0))
        await pilot.pause()
        assert listed.scroll_offset.y == listed.max_scroll_y
        assert listed.highlighted == highlighted
        assert isinstance(pilot.app.screen, CardsScreen)


async def test_a_click_on_the_track_pages(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=(60, 20)) as pilot:
        listed = await _card_list(pilot)
        height = listed.scrollable_content_region.height
        await pilot.click(listed, _bar(listed, height - 1))  # below the thumb
        await pilot.pause()
        assert listed.scroll_offset.y == min(height, listed.max_scroll_y)
        listed.scroll_end(animate=False)
        await pilot.pause()
        end = listed.scroll_offset.y
        await pilot.click(listed, _bar(listed, 0))  # above the thumb
        await pilot.pause()
        assert listed.scroll_offset.y == max(0, end - height)
        assert isinstance(pilot.app.screen, CardsScreen)
