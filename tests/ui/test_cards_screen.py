"""The card browser (``/`` on the home screen): typing a text in any language filters the
cards as answers are compared, the highlighted card's answers show beneath, Ctrl+S suspends
it and brings it back, Ctrl+O filters by state; it fits 60×20 and 80×24 (Pilot, real store,
snapshots)."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from quizzer.cards.card import CardKey, Pair
from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.ui.screens.cards import CardsScreen
from quizzer.ui.screens.home import HomeScreen
from tests.factories import ru_bn_deck
from tests.ui_support import NoticedApp, make_app

LORA = CardKey("training-efficiency/lora", Pair("en", "term", "bn", "term"))
SIZES = [(60, 20), (80, 24)]


def _answered(db: Path) -> None:
    # A fixed moment (the snapshot shows the answers' times), in UTC for every machine.
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    with open_store(db, rng=random.Random(1)) as store:
        store.record(LORA, 1, now, Answer(duration_ms=4200))
        store.record(LORA, 3, now + timedelta(minutes=2), Answer(duration_ms=2500))


async def _open_and_search(pilot: Pilot[Any], text: str) -> CardsScreen:
    await pilot.press("down")  # Training efficiency
    await pilot.press("slash")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, CardsScreen)
    screen.query_one("#cards-search", Input).value = text
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES)
async def test_search_history_and_suspend(tmp_path: Path, size: tuple[int, int]) -> None:
    db = tmp_path / "p.json"
    _answered(db)
    app = make_app(db)
    async with app.run_test(size=size) as pilot:
        screen = await _open_and_search(pilot, "لورا")
        assert [row.card for row in screen.rows] == [LORA]
        history = str(screen.query_one("#cards-history", Static).content)
        assert "Again" in history and "Good" in history and "4.2s" in history
        assert screen.query_one("#cards-history").region.bottom <= size[1] - 1
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.rows[0].status == "suspended"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.rows[0].status == "learning"
        # The state filter: suspended finds nothing now, learning finds the card.
        for _ in range(2):  # any → new → learning
            await pilot.press("ctrl+o")
        await pilot.pause()
        assert [row.card for row in screen.rows] == [LORA]
        assert "state: learning" in str(screen.query_one("#cards-filters", Static).content)
        await pilot.press("ctrl+n")  # training-efficiency is the last deck: then every deck
        await pilot.pause()
        assert "every deck" in str(screen.query_one("#cards-filters", Static).content)
        screen.query_one("#cards-search", Input).value = "no such text anywhere"
        await pilot.pause()
        assert screen.rows == []
        assert screen.query_one("#cards-list", OptionList).option_count == 0
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    with open_store(db, read_only=True) as store:
        state = store.card(LORA)
        assert state is not None and not state.suspended


@pytest.mark.parametrize("size", SIZES)
def test_cards_snapshot(
    snap_compare, tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    monkeypatch.setenv("QUIZZER_DEVICE", "laptop")  # the device name the history shows
    _answered(db)

    async def search(pilot: Pilot[Any]) -> None:
        await _open_and_search(pilot, "ранга")

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", "UTC")
        time.tzset()
        try:
            assert snap_compare(make_app(db), run_before=search, terminal_size=size)
        finally:
            patch.undo()
            time.tzset()


async def test_f2_edits_the_answer_text_in_the_deck_file(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    write_deck(ru_bn_deck("mine", 3), decks / "mine.toml")
    store = open_store(tmp_path / "p.json")
    app = NoticedApp(StudyService(store, open_shelf(decks)))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(CardsScreen("mine"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardsScreen)
        screen.query_one("#cards-search", Input).value = "পরিভাষা 1"
        await pilot.pause()
        (row,) = screen.rows
        await pilot.press("f2")
        await pilot.pause()
        field = screen.query_one("#cards-edit", Input)
        assert field.has_focus and field.value == row.concept.text(
            row.card.pair.answer_lang, row.card.pair.answer_side
        )
        field.value = "исправленный текст"
        await pilot.press("enter")
        await pilot.pause()
        assert not field.display
        assert any("mine.toml" in n.message for n in app.notices)
        await pilot.press("escape")
        await pilot.pause()
    text = (decks / "mine.toml").read_text(encoding="utf-8")
    assert "исправленный текст" in text and 'source = "corrected"' in text
