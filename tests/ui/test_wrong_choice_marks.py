"""A wrong multiple-choice answer marks the right option ✓ and the chosen one ✗, and the
right answer stays on screen whole at 60×20 and 80×24 (the card doesn't re-wrap and
scroll it away)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Label

from quizzer.ui.widgets.choice_list import ChoiceOption
from tests.ui_support import choice, choices_of, make_app

SIZES = [pytest.param((60, 20), id="60x20"), pytest.param((80, 24), id="80x24")]
#: Definitions as options: the longest texts a choice question has.
LONG = choice("training-efficiency", "en:term>en:definition", "choice")


async def _answer_wrong(pilot: Pilot[Any]) -> tuple[int, int]:
    await pilot.pause()
    right = choices_of(pilot.app.screen).answer_index
    wrong = (right + 1) % 4
    await pilot.press(str(wrong + 1))
    await pilot.pause()
    return right, wrong


@pytest.mark.parametrize("size", SIZES)
async def test_wrong_choice_keeps_the_marked_right_answer_in_sight(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "p.json", LONG)
    async with app.run_test(size=size) as pilot:
        right, wrong = await _answer_wrong(pilot)
        screen = pilot.app.screen
        option = screen.query_one(f"#choice-{right + 1}", ChoiceOption)
        body = screen.query_one("#study-body")
        assert option.region.height > 0
        assert body.region.contains_region(option.region), (option.region, body.region)
        keys = {
            o.index: str(o.query_one(".choice-key", Label).content)
            for o in screen.query(ChoiceOption)
        }
        assert "✓" in keys[right] and "✗" in keys[wrong]
        assert not any("✓" in k or "✗" in k for i, k in keys.items() if i not in (right, wrong))


async def test_the_marks_go_with_the_next_question(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", LONG)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer_wrong(pilot)
        await pilot.press("enter")
        await pilot.pause()
        keys = [
            str(o.query_one(".choice-key", Label).content)
            for o in pilot.app.screen.query(ChoiceOption)
        ]
        assert keys == ["1.", "2.", "3.", "4."]


@pytest.mark.parametrize("size", SIZES)
def test_wrong_choice_snapshot(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json", LONG)
    assert snap_compare(app, run_before=_answer_wrong, terminal_size=size)
