"""The card browser's edit (F2, then Enter) refuses a text no deck may hold with a
notification saying what is wrong and what to do, keeps the field open and writes nothing;
and every notification it shows quotes the learner's texts as they are, never as markup
(Pilot, the real app on a real store and real deck files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input
from textual.widgets._toast import Toast

from quizzer.concepts.deck import Deck
from quizzer.concepts.textrules import MAX_TEXT_CHARS
from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.ui.screens.cards import CardsScreen
from tests.factories import concept, ru_bn_deck
from tests.ui_support import NoticedApp


def _app(tmp_path: Path, deck: Deck | None) -> tuple[NoticedApp, Path]:
    decks = tmp_path / "decks"
    decks.mkdir()
    if deck is not None:
        write_deck(deck, decks / f"{deck.id}.toml")
    store = open_store(tmp_path / "p.json")
    return NoticedApp(StudyService(store, open_shelf(decks))), decks


async def _browse(pilot: Pilot[Any], deck: str, search: str) -> CardsScreen:
    await pilot.app.push_screen(CardsScreen(deck))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, CardsScreen)
    screen.query_one("#cards-search", Input).value = search
    await pilot.pause()
    assert screen.rows, f"no card holds {search!r}"
    return screen


def _toasts(pilot: Pilot[Any]) -> list[str]:
    """The text of each notification on screen, as it is drawn."""
    return [str(toast.render()) for toast in pilot.app.screen.query(Toast)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("x" * (MAX_TEXT_CHARS + 1), "10,001 characters long", id="overlong"),
        pytest.param("ab\x1b[31mc", "U+001B (a control character)", id="escape"),
    ],
)
@pytest.mark.parametrize("deck", ["mine", "training-efficiency"])
async def test_a_bad_edit_is_refused_with_a_notification_and_nothing_written(
    tmp_path: Path, deck: str, text: str, message: str
) -> None:
    app, decks = _app(tmp_path, ru_bn_deck("mine", 3))
    before = (decks / "mine.toml").read_bytes()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _browse(pilot, deck, "পরিভাষা 1" if deck == "mine" else "লোরা")
        await pilot.press("down", "f2")
        await pilot.pause()
        field = screen.query_one("#cards-edit", Input)
        assert field.has_focus
        field.value = text
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and app.screen is screen
        (notice,) = app.notices
        assert notice.severity == "error"
        assert message in notice.message and "hint:" in notice.message
        # The field stays open with the text, to be put right or left with Esc.
        assert field.display and field.value == text
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.query_one("#cards-edit", Input).display
    assert (decks / "mine.toml").read_bytes() == before
    assert not (decks / "overrides").exists()


async def test_notifications_show_texts_that_look_like_markup_as_they_are(
    tmp_path: Path,
) -> None:
    tricky = Deck(
        id="tricky",
        name="Tricky",
        concepts=(concept("tricky", "loud", {"en": ("[bold]loud[/]", "a [red]red[/] herring")}),),
    )
    app, decks = _app(tmp_path, tricky)
    # Notifications drawn (run_test leaves them out unless asked).
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await _browse(pilot, "tricky", "loud")
        await pilot.press("down", "ctrl+s")
        await pilot.pause()
        assert screen.rows[0].status == "suspended"
        assert any("[bold]loud[/]" in toast for toast in _toasts(pilot)), _toasts(pilot)
        await pilot.press("f2")
        await pilot.pause()
        screen.query_one("#cards-edit", Input).value = "[/] closed [bold]twice[/]"
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running
        assert any("[/] closed [bold]twice[/]" in toast for toast in _toasts(pilot)), _toasts(pilot)
    assert "[/] closed [bold]twice[/]" in (decks / "tricky.toml").read_text(encoding="utf-8")
