"""Where the app names a language (for the learner to pick, on the card, over a game, in
the header, the hints and the summary), it names it in its own script too, drawn as it
reads: Arabic, Persian and Urdu joined and right to left, Bengali, Hindi, Japanese and
Chinese as written; where a line is short, in its own script only."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.library.decks import read_deck
from quizzer.ui.textshape import display_text
from quizzer.ui.widgets.picker import Picker, PickerList
from tests.factories import bundled
from tests.ui_support import make_app

DECK = Path(__file__).resolve().parents[1] / "e2e" / "decks" / "scripts-test.toml"

NATIVE = {
    "fa": ("Persian", "فارسی"),
    "ur": ("Urdu", "اردو"),
    "hi": ("Hindi", "हिन्दी"),
    "ja": ("Japanese", "日本語"),
    "zh": ("Chinese", "中文"),
    "ar": ("Arabic", "العربية"),
    "ru": ("Russian", "Русский"),
}


@pytest.mark.parametrize("size", [(60, 20), (100, 30)])
async def test_the_language_pickers_name_each_language_in_its_own_script(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    decks = [bundled("quantization"), read_deck(DECK)]
    app = make_app(tmp_path / "p.json", decks=decks)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        picker = pilot.app.screen.query_one("#from-lang", Picker)
        picker.focus()
        await pilot.press("enter")
        await pilot.pause()
        listed = pilot.app.screen.query_one(PickerList)
        shown = {
            str(listed.get_option_at_index(i).id): str(listed.get_option_at_index(i).prompt)
            for i in range(listed.option_count)
        }
        for lang, (english, native) in NATIVE.items():
            # Drawn shaped: Arabic-script names joined and in visual order.
            assert shown[lang] == display_text(f"{english} · {native}"), shown[lang]
        assert shown["en"] == "English"  # named once where both names are the same
        await pilot.press("escape")


@pytest.mark.parametrize("size", [(60, 20), (120, 40)])
async def test_the_card_captions_name_languages_in_their_own_script(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    from quizzer.ui.widgets.card_view import CaptionedText, CaptionLine
    from tests.ui_support import choice

    app = make_app(tmp_path / "p.json", choice("quantization", "ar:term>bn:definition", "flip"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        await pilot.pause()
        prompt = app.screen.query_one("#prompt", CaptionedText)
        answer = app.screen.query_one("#answer-label", CaptionLine)
        # Drawn as it reads: the Arabic name joined and in visual order.
        assert prompt.caption == display_text("Arabic · العربية term")
        assert str(answer.render()) == "Bangla · বাংলা definition"


AR = display_text("العربية")  # the Arabic name as drawn: joined, in visual order


async def test_the_match_title_names_the_languages_and_lets_the_deck_name_give_way(
    tmp_path: Path,
) -> None:
    from quizzer.ui.screens.match import MatchTitle
    from quizzer.ui.textshape import cells
    from tests.ui_support import choice

    pair = "ar:term>bn:definition"
    wide = f"Match · Quantization · Arabic · {AR} term ↔ Bangla · বাংলা definition"
    app = make_app(tmp_path / "p.json", choice("quantization", pair, "match"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert str(app.screen.query_one(MatchTitle).render()) == wide
    narrow = f"Match · Training effici… · {AR} term ↔ বাংলা definition"
    app = make_app(tmp_path / "q.json", choice("training-efficiency", pair, "match"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        title = app.screen.query_one(MatchTitle)
        # The names in themselves, and the deck's name cut so the direction shows whole.
        assert str(title.render()) == narrow
        assert cells(narrow) <= title.content_region.width


@pytest.mark.parametrize(("size", "named"), [((60, 20), "Arabic · العربية"), ((50, 20), "العربية")])
async def test_the_typed_hint_names_the_answer_language_as_the_captions_do(
    tmp_path: Path, size: tuple[int, int], named: str
) -> None:
    from quizzer.ui.widgets.fitted_line import FittedLine
    from tests.ui_support import choice

    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ar:definition", "typed"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        hint = app.screen.query_one("#hint", FittedLine)
        # Both names where the line has room (60 columns), the name in itself where not.
        expected = f"Type the {display_text(named)} definition, Enter to check"
        assert str(hint.content) == expected
        assert hint.size.height == 1


@pytest.mark.parametrize(
    ("width", "pair"),
    [
        (60, f"{AR} term → বাংলা def · flip"),
        (80, f"Arabic · {AR} term → Bangla · বাংলা def · flip"),
    ],
)
async def test_the_header_names_the_languages_not_their_codes(
    tmp_path: Path, width: int, pair: str
) -> None:
    from quizzer.ui.textshape import cells
    from quizzer.ui.widgets.progress_header import ProgressHeader
    from tests.ui_support import choice

    app = make_app(tmp_path / "p.json", choice("quantization", "ar:term>bn:definition", "flip"))
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(ProgressHeader)
        first = header.render_line(0).text
        assert first.endswith(f" {pair}"), first
        assert first.startswith("Quantization ")
        assert cells(first) == header.content_region.width  # as the terminal draws it


async def test_the_summary_names_the_languages_as_the_captions_do(tmp_path: Path) -> None:
    from textual.widgets import Static

    from quizzer.ui.screens.summary import SummaryScreen
    from tests.ui_support import choice

    app = make_app(tmp_path / "p.json", choice("quantization", "ar:term>bn:definition", "flip"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("space", "3", "escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        where = str(app.screen.query_one("#summary-where", Static).content)
        assert where == f"Quantization · Arabic · {AR} term → Bangla · বাংলা definition · flip"


async def test_the_typed_hint_picks_its_form_again_when_the_terminal_narrows(
    tmp_path: Path,
) -> None:
    from quizzer.ui.widgets.fitted_line import FittedLine
    from tests.ui_support import choice

    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ar:definition", "typed"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        hint = app.screen.query_one("#hint", FittedLine)
        assert str(hint.content).startswith(f"Type the Arabic · {AR} definition")
        await pilot.resize_terminal(50, 20)
        await pilot.pause()
        assert str(hint.content) == f"Type the {AR} definition, Enter to check"


@pytest.mark.parametrize("lang", ["bn", "ar", "ru", "fr"])
async def test_a_chosen_language_too_long_for_its_picker_shows_its_name_in_itself(
    tmp_path: Path, lang: str
) -> None:
    """At 60 columns 'Bangla · বাংলা' does not fit the picker: it shows 'বাংলা' whole, the
    arrow still at the picker's right edge, the line as wide as the picker."""
    from quizzer.concepts.languages import both_names, native_name
    from quizzer.ui.textshape import cells

    decks = [bundled("quantization"), read_deck(DECK)]
    app = make_app(tmp_path / "p.json", decks=decks)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        picker = pilot.app.screen.query_one("#to-lang", Picker)
        picker.value = lang
        await pilot.pause()
        room = picker.content_region.width - 2
        assert cells(both_names(lang)) > room  # the case this test is about
        line = picker.render_line(0).text
        assert display_text(native_name(lang)) in line, line
        assert line.rstrip().endswith("▼"), line
        assert cells(line) == picker.size.width, line
