"""Typed and learn modes with definitions as answers: the home screen says they are long
to type and offers choice mode (``c``), which switches the mode picker to choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.widgets.picker import Picker
from tests.ui_support import make_app

SIZES = [pytest.param((60, 20), id="60x20"), pytest.param((80, 24), id="80x24")]


def _help_line(pilot: Pilot[Any]) -> str:
    return str(pilot.app.screen.query_one("#mode-help", Static).content)


async def _typed_definitions(pilot: Pilot[Any]) -> None:
    """Typed mode (flip → choice → typed), then the answer made the definition (swap)."""
    await pilot.pause()
    await pilot.press("m", "m", "x")
    await pilot.pause()


async def test_typed_definitions_get_a_word_and_c_switches_to_choice(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m", "m")  # typed, answering terms: no word
        await pilot.pause()
        assert _help_line(pilot) == "typed: type the answer"
        await pilot.press("c")  # not offered: nothing happens
        assert pilot.app.screen.query_one("#mode", Picker).value == "typed"
        await pilot.press("x")
        await pilot.pause()
        assert _help_line(pilot) == HomeScreen.LONG_ANSWERS
        await pilot.press("c")
        await pilot.pause()
        assert pilot.app.screen.query_one("#mode", Picker).value == "choice"
        assert _help_line(pilot).startswith("choice:")


async def test_learn_mode_with_definitions_gets_the_word_too(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("x", "m", "m", "m")  # definitions as answers, then learn
        await pilot.pause()
        assert pilot.app.screen.query_one("#mode", Picker).value == "learn"
        assert _help_line(pilot) == HomeScreen.LONG_ANSWERS


@pytest.mark.parametrize("size", SIZES)
def test_long_answers_word_snapshot(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json")
    assert snap_compare(app, run_before=_typed_definitions, terminal_size=size)
