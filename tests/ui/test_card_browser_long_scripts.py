"""The card browser with long Bengali and Arabic texts, at 60x20 and 80x24: the F2 edit field
draws its Bengali value exactly as wide as the field (its right border stays in line), and
the detail pane's prompt → answer stays within three lines, its scroll bar shown or not
(Pilot, the real app on a real store and a real deck file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from quizzer.concepts.deck import Deck
from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.ui.screens.cards import CardsScreen
from quizzer.ui.textshape import cells
from tests.factories import concept
from tests.ui_support import NoticedApp, choice

SIZES = [(60, 20), (80, 24)]
BN_TERM = "লো-র্যাঙ্ক অ্যাডাপ্টেশন প্রশিক্ষণযোগ্য নিম্ন-র্যাঙ্ক ম্যাট্রিক্স"
BN_DEFINITION = (
    "একটি পিইএফটি পদ্ধতি যা ট্রান্সফরমার স্তরে প্রশিক্ষণযোগ্য নিম্ন-র্যাঙ্ক ম্যাট্রিক্স যুক্ত করে,"
    " ফলে সম্পূর্ণ মডেল পুনঃপ্রশিক্ষণ ছাড়াই দক্ষ সূক্ষ্ম-সমন্বয় সম্ভব হয় এবং স্মৃতি ও গণনার খরচ"
    " অনেক কমে যায়।"
)
AR_TERM = "التكيّف منخفض الرتبة للنماذج اللغوية الكبيرة"
AR_DEFINITION = (
    "طريقةٌ للضبط الدقيق الفعّال تُدخِل مصفوفاتٍ قابلةً للتدريب منخفضةَ الرتبة في طبقات"
    " المحوِّل، فتُتيح ضبطاً دقيقاً فعّالاً من دون إعادة تدريب النموذج كاملاً، وتُقلِّل كلفة"
    " الذاكرة والحساب كثيراً."
)


def _app(tmp_path: Path, direction: str) -> NoticedApp:
    decks = tmp_path / "decks"
    decks.mkdir()
    texts = {"ar": (AR_TERM, AR_DEFINITION), "bn": (BN_TERM, BN_DEFINITION)}
    deck = Deck(id="long", name="Long", concepts=(concept("long", "lora", texts),))
    write_deck(deck, decks / "long.toml")
    service = StudyService(open_store(tmp_path / "p.json"), open_shelf(decks))
    # A card never studied is listed in the direction last chosen.
    service.remember(choice("long", direction, "flip"))
    return NoticedApp(service)


async def _browse(pilot: Pilot[Any]) -> CardsScreen:
    """The browser on the deck's one card, highlighted."""
    await pilot.app.push_screen(CardsScreen("long"))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, CardsScreen)
    assert len(screen.rows) == 1
    await pilot.press("down")
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_edit_field_holds_bengali_within_its_border(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    async with _app(tmp_path, "ar:term>bn:definition").run_test(size=size) as pilot:
        screen = await _browse(pilot)
        await pilot.press("f2")
        await pilot.pause()
        field = screen.query_one("#cards-edit", Input)
        assert field.has_focus and field.value == BN_DEFINITION
        for key in ("end", "home"):  # scrolled to its end, then back to its start
            await pilot.press(key)
            await pilot.pause()
            width = field.content_region.width
            # The line as the terminal gets it: exactly the field's width, or the border
            # after it moves.
            line = field.render_line(0).crop(0, width).text
            assert cells(line) == width, line
        assert line.startswith("একটি পিইএফটি")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    "direction", ["ar:definition>bn:definition", "bn:definition>ar:definition"]
)
@pytest.mark.parametrize("editing", [False, True], ids=["reading", "editing"])
async def test_prompt_and_answer_keep_to_three_lines(
    tmp_path: Path, size: tuple[int, int], direction: str, editing: bool
) -> None:
    async with _app(tmp_path, direction).run_test(size=size) as pilot:
        screen = await _browse(pilot)
        if editing:  # the edit field takes room: the pane scrolls, a bar beside its lines
            await pilot.press("f2")
            await pilot.pause()
        history = screen.query_one("#cards-history", Static)
        width = history.content_region.width
        drawn = [
            history.render_line(y).crop(0, width).text.rstrip()
            for y in range(history.virtual_size.height)
        ]
        card_id = next(i for i, line in enumerate(drawn) if "long/lora|" in line)
        assert card_id <= 3, drawn
        assert drawn[card_id - 1].endswith("…") or card_id < 3
