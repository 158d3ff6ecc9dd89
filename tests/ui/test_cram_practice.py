"""Practice without rescheduling (``--cram``, ``p`` on the home screen): the session serves
its cards until each is answered right once, logs every answer as practice (mode cram),
leaves every card's state and due date as they were, takes an answer back with undo, and its
end screen says nothing of the schedule (Pilot, real store, 60×20 and 80×24)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.services.stats import stats_from_store
from quizzer.stats.figures import SourceCount
from quizzer.study.selection import StudyChoice
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen
from quizzer.ui.stats_render import sources_table
from tests.factories import ru_bn_deck
from tests.ui_support import card_of, make_app

DECK = ru_bn_deck("demo", 4)
PAIR = Pair("ru", "term", "bn", "term")
SIZES = [(60, 20), (80, 24)]


def _studied(db: Path) -> dict[str, Any]:
    """Two cards answered days ago (one failed today), two never: their states as stored."""
    now = datetime.now(UTC)
    with open_store(db, rng=random.Random(2)) as store:
        store.record(CardKey("demo/c0", PAIR), 3, now - timedelta(days=3))
        store.record(CardKey("demo/c1", PAIR), 3, now - timedelta(days=3))
        store.record(CardKey("demo/c1", PAIR), 1, now - timedelta(minutes=30))
        return _states(store)


def _states(store: Any) -> dict[str, Any]:
    return {s.card_id: s.to_dict() for s in store.cards()}


@pytest.mark.parametrize("size", SIZES)
async def test_cram_logs_practice_and_changes_no_card(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    db = tmp_path / "p.json"
    before = _studied(db)
    app = make_app(db, StudyChoice("demo", PAIR, "flip", cram="all"), decks=[DECK])
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown: list[CardKey] = []
        grades = iter("1" + "3" * 10)  # the first card missed once: it comes back
        while isinstance(app.screen, StudyScreen) and len(shown) < 12:
            shown.append(card_of(app.screen))
            await pilot.press("space", next(grades))
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, SummaryScreen)
        title = str(screen.query_one("#summary-title", Static).content)
        figures = str(screen.query_one("#summary-figures", Static).content)
        assert title == "Practice over"
        assert "Next card due" not in figures and "due" not in figures
        assert screen.query_one("#summary-practice").region.bottom <= size[1] - 1
        await pilot.press("enter")
    # Every card of the deck, the missed one twice, then done.
    assert len(shown) == 5 and len(set(shown)) == 4
    assert shown.count(shown[0]) == 2
    with open_store(db, read_only=True) as store:
        assert _states(store) == before
        assert len(store.reviews()) == 3  # only the answers given before
        practice = store.practice()
        assert [p.mode for p in practice] == ["cram"] * 5
        assert [p.grade for p in practice] == [1, 3, 3, 3, 3]
        # The statistics show them as practice, apart from the three scheduled answers.
        stats = stats_from_store(store, [DECK])
        assert stats.total_reviews == 3
        assert stats.practice == (SourceCount("cram", 5, 5, 4),)
        assert stats.to_dict()["practice"] == {"cram": {"answers": 5, "recent": 5, "passed": 4}}
        console = Console(width=100, record=True)
        console.print(sources_table(stats))
        assert "Practice: cram" in console.export_text()


async def test_cram_failed_serves_todays_failures_and_undo_takes_practice_back(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    before = _studied(db)
    app = make_app(db, StudyChoice("demo", PAIR, "flip", cram="failed"), decks=[DECK])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StudyScreen)
        assert card_of(screen) == CardKey("demo/c1", PAIR)
        await pilot.press("space", "1")
        await pilot.pause()
        await pilot.press("u")  # undo the practice answer
        await pilot.pause()
        assert card_of(screen) == CardKey("demo/c1", PAIR)
        await pilot.press("space", "3")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
    c1 = CardKey("demo/c1", PAIR).id
    with open_store(db, read_only=True) as store:
        # The undo changed no card (it never takes back a scheduled answer instead) ...
        assert _states(store) == before
        assert len(store.reviews()) == 3
        practice = [(p.card, p.grade) for p in store.practice()]
    # ... and took the practice answer back: only the answer given after it stays.
    assert practice == [(c1, 3)]
    assert "Practice answer taken back." in [n.message for n in app.notices]


async def test_undo_of_a_bury_in_practice_keeps_the_practice_answers(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    _studied(db)
    app = make_app(db, StudyChoice("demo", PAIR, "flip", cram="all"), decks=[DECK])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StudyScreen)
        await pilot.press("space", "3")
        await pilot.pause()
        buried = card_of(screen)
        await pilot.press("b")  # moves on, writes nothing
        await pilot.pause()
        await pilot.press("u")  # takes the bury back, not the practice answer before it
        await pilot.pause()
        assert card_of(screen) == buried
    with open_store(db, read_only=True) as store:
        assert [p.grade for p in store.practice()] == [3]


async def test_p_on_home_starts_a_practice(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    _studied(db)
    app = make_app(db, decks=[DECK])
    async with app.run_test(size=(60, 20)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        for name, value in (("from-lang", "ru"), ("to-lang", "bn"), ("to-side", "term")):
            home.query_one(f"#{name}").value = value  # type: ignore[attr-defined]
        await pilot.press("p")
        await pilot.pause()
        line = str(home.query_one("#waiting", Static).content)
        assert "Practice (p): every card, no schedule change" in line
        await pilot.press("p")
        await pilot.pause()
        choice = home.current_choice()
        assert choice is not None and choice.cram == "failed"
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StudyScreen) and screen.choice.cram == "failed"
        assert card_of(screen) == CardKey("demo/c1", PAIR)
