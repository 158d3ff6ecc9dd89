"""The home screen lists a big deck from its summary at once and counts it off the UI thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest
from textual.widgets import OptionList

from quizzer.cards.card import Pair
from quizzer.concepts.deck import Deck
from quizzer.library import cache as deckcache
from quizzer.library import decks as library_decks
from quizzer.library.importer import import_glossaries
from quizzer.library.summary import DeckSummary
from quizzer.progress import open_store
from quizzer.services import library as shelf_module
from quizzer.services.library import SMALL_DECK, open_shelf
from quizzer.services.study import StudyService
from quizzer.study.selection import StudyChoice
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.widgets.deck_list import DeckLines

SIZE = (100, 30)


def big_deck(folder: Path) -> None:
    lines = ["Big", "Many English terms"]
    for i in range(SMALL_DECK + 1):
        lines += [f"Term number {i}", f"It is the definition of the term and the number {i}."]
    glossary = folder / "big.txt"
    glossary.write_text("\n".join(lines), encoding="utf-8")
    import_glossaries([glossary], deck="big", into=folder / "decks")


def deck_lines(screen: HomeScreen) -> list[str]:
    options = screen.query_one("#decks", OptionList)
    prompts = [options.get_option_at_index(i).prompt for i in range(options.option_count)]
    assert all(isinstance(prompt, DeckLines) for prompt in prompts)
    return [str(prompt) for prompt in prompts]


async def test_first_paint_needs_no_big_deck_then_its_counts_arrive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big_deck(tmp_path)
    shelf = open_shelf(tmp_path / "decks")
    assert [d.id for d in shelf.listings()][-1] == "big"
    loading = threading.Event()
    real_read = library_decks.read_deck

    def slow_read(path: Path) -> Deck:  # the big deck's load waits until the test lets it go
        if path.stem == "big":
            assert loading.wait(10)
        return real_read(path)

    monkeypatch.setattr(library_decks, "read_deck", slow_read)
    service = StudyService(open_store(tmp_path / "p.json"), shelf)
    app = QuizzerApp(service)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        lines = deck_lines(home)
        assert f"{SMALL_DECK + 1} concepts · counting…" in lines[-1]
        assert all(" new · " in line for line in lines[:-1])  # the bundled decks: counted
        loading.set()
        for _ in range(200):
            await pilot.pause(0.02)
            if "counting" not in deck_lines(home)[-1]:
                break
        assert f"{SMALL_DECK + 1} concepts · " in deck_lines(home)[-1]
        assert " new · " in deck_lines(home)[-1]
        await pilot.press("q")
    service.close()


async def test_a_big_decks_kept_counts_come_with_the_first_paint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once counted, a big deck's counts are kept (quizzer.services.deck_counts): the next
    launch shows them with its first paint, without loading the deck."""
    monkeypatch.setattr(deckcache, "RACY_NS", 0)  # the deck just imported is known by its stat
    big_deck(tmp_path)
    open_store(tmp_path / "p.json").close()  # a store with a snapshot, as after any launch
    app = QuizzerApp(StudyService(open_store(tmp_path / "p.json"), open_shelf(tmp_path / "decks")))
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert "counting…" in deck_lines(home)[-1]  # nothing kept yet
        for _ in range(200):
            await pilot.pause(0.02)
            if "counting" not in deck_lines(home)[-1]:
                break
        counted = deck_lines(home)
        assert f"{SMALL_DECK + 1} concepts · 20 new · 0 due" in counted[-1]
        await pilot.press("q")

    real_load = shelf_module._load

    def refuse(summary: DeckSummary) -> tuple[Deck, bool]:
        assert summary.id != "big", "the big deck was loaded"
        return real_load(summary)

    monkeypatch.setattr(shelf_module, "_load", refuse)
    app = QuizzerApp(StudyService(open_store(tmp_path / "p.json"), open_shelf(tmp_path / "decks")))
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert deck_lines(home) == counted
        await pilot.pause(0.1)  # no worker runs to count it (it would fail: "can't be read")
        assert deck_lines(home) == counted
        await pilot.press("q")


async def test_a_highlighted_big_decks_waiting_line_comes_after_the_first_paint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The big deck last studied is highlighted, its counts kept: the first paint shows them
    without loading the deck; the deck is loaded for its waiting line only after that, in
    a worker thread."""
    monkeypatch.setattr(deckcache, "RACY_NS", 0)  # the deck just imported is known by its stat
    big_deck(tmp_path)
    pair = Pair("en", "term", "en", "definition")

    def launch(on_first_paint: Callable[[], None] | None = None) -> QuizzerApp:
        service = StudyService(open_store(tmp_path / "p.json"), open_shelf(tmp_path / "decks"))
        service.remember(StudyChoice("big", pair, "flip"))
        return QuizzerApp(service, on_first_paint=on_first_paint)

    app = launch()
    async with app.run_test(size=SIZE) as pilot:  # counts the big deck, and keeps its counts
        for _ in range(200):
            await pilot.pause(0.02)
            if "counting" not in deck_lines(cast(HomeScreen, app.screen))[-1]:
                break
        await pilot.press("q")

    events: list[str] = []
    real_load = shelf_module._load

    threads: dict[str, threading.Thread] = {}

    def load(summary: DeckSummary) -> tuple[Deck, bool]:
        events.append(f"load {summary.id}")
        threads[summary.id] = threading.current_thread()
        return real_load(summary)

    monkeypatch.setattr(shelf_module, "_load", load)
    app = launch(on_first_paint=lambda: events.append("painted"))
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert f"{SMALL_DECK + 1} concepts · 20 new · 0 due" in deck_lines(home)[-1]
        assert home.query_one("#decks", OptionList).highlighted == len(deck_lines(home)) - 1
        for _ in range(100):
            await pilot.pause(0.02)
            if "load big" in events:
                break
        assert [e for e in events if e in ("painted", "load big")] == ["painted", "load big"]
        # Off the UI thread: a 50,000-concept deck takes about a second to load, and the
        # screen takes keys meanwhile.
        assert threads["big"] is not threading.main_thread()
        await pilot.press("q")
