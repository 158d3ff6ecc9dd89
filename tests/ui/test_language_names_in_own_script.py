"""Where the app names a language for the learner to pick, it names it in its own script
too, drawn as it reads: Persian and Urdu joined and right to left, Hindi, Japanese and
Chinese as written."""

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
