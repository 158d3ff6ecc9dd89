"""The study screen's first card as the learner sees it: the header's lines and the focus.

The header is one widget drawing what two rows of labels would (the snapshots pin it at
80×24 and 60×20, narrow); these pin its one-line layout too, and its cutting: the deck's
name gives way first, then the direction names its languages in themselves only. The focus
on the first card is Textual's auto-focus, which the body only allows once it shows a card.
"""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Region
from textual.widgets import Input

from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.textshape import cells
from quizzer.ui.widgets.card_view import CaptionedText
from quizzer.ui.widgets.choice_list import ChoiceList
from quizzer.ui.widgets.progress_header import BAR_WIDTH, ProgressHeader
from quizzer.ui.widgets.study_body import StudyBody
from tests.ui_support import choice, make_app

FLIP = choice("quantization", "en:term>bn:term", "flip")
#: The direction with both names of each language, and with their names in themselves.
PAIR = "English term → Bangla · বাংলা term · flip"
SHORT_PAIR = "English term → বাংলা term · flip"


async def _header_lines(tmp_path: Path, width: int) -> list[str]:
    """The header's counts, then its lines as drawn at ``width`` columns."""
    app = make_app(tmp_path / "p.json", FLIP)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(ProgressHeader)
        assert header.counts.startswith("0 done · new ")
        lines = [header.render_line(y).text for y in range(header.size.height)]
        # The padding of two cells on each side, in the header's background.
        return [header.counts, *(f"  {line}  " for line in lines)]


async def test_header_on_one_line_keeps_the_counts_and_bar_at_the_right(tmp_path: Path) -> None:
    counts, line = await _header_lines(tmp_path, 120)
    bar = "━" * BAR_WIDTH
    # Padding 2, the deck name in the room left, 3 cells before the pair, the counts, the bar.
    name = 120 - 4 - 3 - cells(PAIR) - 3 - len(counts) - 3 - BAR_WIDTH
    assert line == f"  {'Quantization':<{name}}   {PAIR}   {counts}   {bar}  "
    assert cells(line) == 120


async def test_header_on_two_lines_when_narrow(tmp_path: Path) -> None:
    counts, first, second = await _header_lines(tmp_path, 80)
    assert first == f"  {'Quantization':<{80 - 4 - 1 - cells(PAIR)}} {PAIR}  "
    assert cells(first) == 80
    assert second == f"  {counts:<{80 - 4 - 1 - BAR_WIDTH}} {'━' * BAR_WIDTH}  "


async def test_header_cuts_the_deck_name_and_counts_with_an_ellipsis(tmp_path: Path) -> None:
    counts, first, second = await _header_lines(tmp_path, 40)
    # The deck's name would keep too little beside both names: the short direction.
    room = 40 - 4 - 1 - cells(SHORT_PAIR)
    assert first == f"  {'Quantization'[: room - 1]}… {SHORT_PAIR}  "
    room = 40 - 4 - 1 - BAR_WIDTH
    assert second == f"  {counts[: room - 1]}… {'━' * BAR_WIDTH}  "


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
