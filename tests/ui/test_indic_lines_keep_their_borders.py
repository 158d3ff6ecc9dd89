"""Hindi and Bengali lines keep the borders after them where a terminal draws them: a vowel
sign takes a cell there, none in Rich's count, and Rich is not patched. A list draws its
own scroll bar (Textual's would cut its lines by Rich's count)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rich.cells import cell_len

from quizzer.ui.screens.cards import CardsScreen
from quizzer.ui.textshape import cells
from quizzer.ui.widgets.drawn import DrawnOptionList
from tests.e2e.tmux_support import needs_tmux, terminal_width, tmux_pane
from tests.ui_support import choice, make_app

SIZES = [(60, 20), (80, 24), (120, 40)]


def _drawn(line: str) -> int:
    return sum(terminal_width(ch) for ch in line)


async def test_the_card_list_draws_its_scroll_bar_in_its_own_lines(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("space", "3")  # one answer: the browser lists this pair's cards
        await pilot.pause()
        app.push_screen(CardsScreen("quantization"))
        await pilot.pause()
        listed = app.screen.query_one("#cards-list", DrawnOptionList)
        assert listed.option_count > listed.scrollable_content_region.height  # it scrolls
        assert listed.show_vertical_scrollbar
        assert listed.styles.scrollbar_visibility == "hidden"  # no bar widget over the lines
        width = listed.content_region.width
        lines = [listed.render_line(y) for y in range(listed.size.height)]
        bengali = [line for line in lines if cells(line.text) != cell_len(line.text)]
        assert bengali
        assert all(cells(line.text) == width for line in lines)
        # The last cell is the bar: the thumb at the top, then the track.
        thumb = [line.text and list(line)[-1].style for line in lines]
        assert thumb[0] != thumb[-1]
        listed.scroll_end(animate=False)
        await pilot.pause()
        moved = [list(listed.render_line(y))[-1].style for y in range(listed.size.height)]
        assert moved[-1] == thumb[0] and moved[0] == thumb[-1]


@pytest.mark.slow
@needs_tmux
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_tmux_card_list_rows_end_in_one_column(tmp_path: Path, size: tuple[int, int]) -> None:
    """In tmux the card browser's rows (Bengali answers, a scroll bar beside them at 60×20)
    all end with the list's border in the same column."""
    env = {"QUIZZER_DB": str(tmp_path / "p.json")}
    with tmux_pane(*size) as pane:
        pane.run(["study", "quantization", "--from", "en", "--to", "bn", "--mode", "flip"], env)
        pane.wait_for(lambda t: "Space: show the answer" in t, "the first card")
        pane.keys("Space")
        pane.wait_for(lambda t: "Again" in t, "the grades")
        pane.keys("3", "q")
        pane.wait_for(lambda t: "Session over" in t, "the summary")
        pane.keys("Enter")
        pane.wait_for(lambda t: "QUIZZER-EXITED-0" in t, "quizzer to exit")
        pane.run([], env)
        pane.wait_for(lambda t: "Start (Enter" in t, "the home screen")
        pane.keys("/")
        screen = pane.wait_for(lambda t: "en→bn" in t and "Cards ·" in t, "the card list")
        # The list fits its rows to its width once laid out: read the settled screen.
        for _ in range(50):
            time.sleep(0.2)
            settled, screen = screen, pane.screen()
            if screen == settled:
                break
        rows = [line for line in screen.splitlines() if line.startswith("▊")]
        bengali = [line for line in rows if any("\u0980" <= ch <= "\u09ff" for ch in line)]
        assert len(bengali) >= 3, screen
        ends = {_drawn(line.rstrip()) for line in rows}
        assert ends == {size[0]}, screen
