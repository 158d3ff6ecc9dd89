"""The home screen follows the terminal's size: narrower than 80 columns, its two columns
share the width."""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Size

from quizzer.ui.screens.home import HomeScreen
from tests.ui_support import make_app


async def test_home_screen_goes_narrow_when_the_terminal_shrinks(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        assert not screen.has_class("-narrow")
        await pilot.resize_terminal(70, 20)
        await pilot.pause(0.2)
        assert screen.size == Size(70, 20)
        assert screen.has_class("-narrow")
        decks, choices = screen.query_one("#deck-panel"), screen.query_one("#choice-panel")
        assert decks.region.width == choices.region.width == 35


async def test_home_screen_columns_stay_in_proportion_when_wide(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        decks, choices = screen.query_one("#deck-panel"), screen.query_one("#choice-panel")
        assert abs(decks.region.width - 2 * choices.region.width) <= 2  # (whole cells)
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.2)
        assert choices.region.width == 44  # the picker column's own width below 120
