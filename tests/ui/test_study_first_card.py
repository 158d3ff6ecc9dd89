"""The study screen's first card as the learner sees it: the header's lines and the focus.

The snapshots pin the header at 80×24 and 60×20 (narrow); these pin where its parts go on
one line and on two, and what gives way first. The focus on the first card is Textual's
auto-focus, which the body only allows once it shows a card.
"""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Region
from textual.widgets import Input, Label

from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.widgets.card_view import CaptionedText
from quizzer.ui.widgets.choice_list import ChoiceList
from quizzer.ui.widgets.progress_header import BAR_WIDTH, ProgressHeader
from quizzer.ui.widgets.study_body import StudyBody
from tests.ui_support import choice, make_app

FLIP = choice("quantization", "en:term>bn:term", "flip")
PAIR = "en term → bn term · flip"


async def _header(tmp_path: Path, width: int) -> dict[str, Region]:
    """Where the header's parts are drawn at ``width`` columns (and its counts' text)."""
    app = make_app(tmp_path / "p.json", FLIP)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(ProgressHeader)
        assert header.counts.startswith("0 done · new ")
        assert str(header.query_one("#pair", Label).render()) == PAIR
        parts = {name: header.query_one(f"#{name}").region for name in PARTS}
        return {"header": header.region, **parts}


PARTS = ("where", "pair", "counts", "bar")


async def test_header_on_one_line_keeps_the_counts_and_bar_at_the_right(tmp_path: Path) -> None:
    at = await _header(tmp_path, 120)
    assert at["header"].height == 1
    assert {at[name].y for name in PARTS} == {at["header"].y}
    assert at["where"].right < at["pair"].x < at["counts"].x < at["bar"].x
    assert at["bar"].width == BAR_WIDTH and at["bar"].right == 120 - 2
    assert at["where"].width >= len("Quantization")


async def test_header_on_two_lines_when_narrow(tmp_path: Path) -> None:
    at = await _header(tmp_path, 80)
    assert at["header"].height == 2
    assert at["where"].y == at["pair"].y == at["header"].y
    assert at["counts"].y == at["bar"].y == at["header"].y + 1
    assert at["pair"].right == at["bar"].right == 80 - 2


async def test_header_gives_the_deck_name_up_first(tmp_path: Path) -> None:
    at = await _header(tmp_path, 40)
    # The pair and mode keep their width; the deck name gets what is left (cut with "…").
    assert at["pair"].width == len(PAIR)
    assert 0 < at["where"].width < len("Quantization")


async def test_first_flip_card_leaves_the_body_focused_to_scroll(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", FLIP)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen) and app.screen.card is not None
        assert isinstance(app.focused, StudyBody)


async def test_first_flip_card_from_home_leaves_the_body_focused(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen) and app.screen.card is not None
        assert isinstance(app.focused, StudyBody)


async def test_first_choice_and_typed_cards_focus_their_answer(tmp_path: Path) -> None:
    for mode, kind in (("choice", ChoiceList), ("typed", Input)):
        app = make_app(tmp_path / f"{mode}.json", choice("quantization", "en:term>ru:term", mode))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.focused, kind), (mode, app.focused)


async def test_card_prompt_draws_its_caption_above_it_as_one_content(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", FLIP)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        prompt = app.screen.query_one("#prompt", CaptionedText)
        assert prompt.caption == "English term"
        lines = prompt.render_lines(Region(0, 0, prompt.size.width, 2))
        rows = [strip.text for strip in lines]
        assert rows[0].rstrip() == "English term"
        assert rows[1].strip() == prompt.text == "Quantization"
        # What a mouse selection reads is what is drawn, the caption included.
        assert [line.rstrip() for line in str(prompt.render()).splitlines()] == [
            row.rstrip() for row in rows
        ]
