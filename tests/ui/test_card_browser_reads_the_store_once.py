"""The card browser works out what every search and every card's history need once per
screen: moving the cursor over cards and typing a search neither re-reads the store's device
logs (their names come from the device folders, listed once) nor copies every card state
again per keystroke (only after a change: a suspension shows at once). Pilot, the real app
on a real store on disk with answers from two devices."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Static

import quizzer.progress.devices as devices_module
import quizzer.services.cards as cards_service
from quizzer.cards.card import CardKey, Pair
from quizzer.progress import Store, open_store
from quizzer.progress.layout import device_folders
from quizzer.scheduling.answer import Answer
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.ui.screens.cards import CardsScreen
from tests.ui_support import NoticedApp

PAIR = Pair("en", "term", "bn", "term")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CONCEPTS = ("peft", "lora", "adapters", "flash-attention", "dynamic-token-pruning")


def _answer_on(db: Path, device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers to the first cards of training-efficiency on the device named ``device``."""
    monkeypatch.setenv("QUIZZER_DEVICE", device)
    with open_store(db, rng=random.Random(1)) as store:
        for i, concept in enumerate(CONCEPTS):
            key = CardKey(f"training-efficiency/{concept}", PAIR)
            store.record(key, 3, T0 + timedelta(minutes=i), Answer(duration_ms=1000 + i))


class Counted:
    """How often each of a few store reads ran."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}

    def wrap(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return func(*args, **kwargs)

        return counted


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    counts = Counted()
    monkeypatch.setattr(Store, "cards", counts.wrap("cards", Store.cards))
    monkeypatch.setattr(
        devices_module, "list_devices", counts.wrap("devices", devices_module.list_devices)
    )
    monkeypatch.setattr(
        cards_service,
        "device_folders",
        counts.wrap("device_folders", device_folders),
        raising=False,
    )
    yield counts


async def test_cursor_moves_and_keystrokes_read_the_store_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: Counted
) -> None:
    db = tmp_path / "p.json"
    _answer_on(db, "laptop", monkeypatch)
    _answer_on(db, "phone", monkeypatch)
    decks = tmp_path / "decks"
    decks.mkdir()
    store = open_store(db)
    app = NoticedApp(StudyService(store, open_shelf(decks)))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(CardsScreen("training-efficiency"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardsScreen)
        screen.set_focus(screen.query_one("#cards-list", OptionList))
        histories = set()
        for _ in range(4):
            await pilot.press("down")
            await pilot.pause()
            histories.add(str(screen.query_one("#cards-history", Static).content))
        # Each card's answers, by the device that gave them.
        assert len(histories) == 4
        assert all("laptop" in h and "phone" in h for h in histories), histories
        screen.set_focus(screen.query_one("#cards-search", Input))
        await pilot.press(*"lora")
        await pilot.pause()
        assert "lora" in {row.card.concept_id for row in screen.rows}
        assert counted.calls.get("devices", 0) == 0  # the logs are never read for names
        assert counted.calls["device_folders"] == 1
        assert counted.calls["cards"] == 1
        # A change is seen at once: the states are copied again, once.
        screen.set_focus(screen.query_one("#cards-list", OptionList))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.rows[0].status == "suspended"
        assert counted.calls["cards"] == 2
