"""Both directions at once (``b`` on the home screen, ``--both``): the home screen and the
session's end say how many cards wait for their first direction, and a session serves only
the cards the store's due queue serves (Pilot, real store, 60×20 and 80×24)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Static

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.study.selection import StudyChoice
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen
from quizzer.ui.widgets.picker import Picker
from tests.factories import ru_bn_deck
from tests.ui_support import card_of, make_app, reviews

DECK = ru_bn_deck("demo", 5)
FIRST = Pair("ru", "term", "bn", "term")
REVERSE = Pair("bn", "term", "ru", "term")
SIZES = [(60, 20), (80, 24)]


def _shown(widget: Static) -> bool:
    return bool(widget.display)


@pytest.mark.parametrize("size", SIZES)
async def test_home_says_how_many_wait_for_their_first_direction(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "p.json", decks=[DECK])
    async with app.run_test(size=size) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        for name, value in (("from-lang", "ru"), ("to-lang", "bn"), ("to-side", "term")):
            home.query_one(f"#{name}", Picker).value = value
        await pilot.pause()
        waiting = home.query_one("#waiting", Static)
        assert not _shown(waiting)  # one direction: nothing waits
        await pilot.press("b")
        await pilot.pause()
        assert _shown(waiting)
        assert "5 wait for their first direction" in str(waiting.content)
        assert waiting.region.bottom <= size[1] - 1, "the line shows above the footer"
        choice = home.current_choice()
        assert choice is not None and choice.pairs == (FIRST, REVERSE)
        await pilot.press("b")
        await pilot.pause()
        assert not _shown(waiting)


@pytest.mark.parametrize(
    ("size", "ladder_days", "said"),
    [
        # Easy makes a new card's stability FSRS-6's w[3], 8.3 days (its interval, fuzzed,
        # 6 to 10 days, which is what a store read from disk can tell today): known at 5,
        # so each reverse comes tomorrow (one card of a concept a day); not yet at 30.
        ((60, 20), 5, "5 siblings tomorrow"),
        ((80, 24), 30, "5 wait for their first direction"),
    ],
)
async def test_a_session_on_both_serves_the_first_direction_and_says_why(
    tmp_path: Path, size: tuple[int, int], ladder_days: int, said: str
) -> None:
    db = tmp_path / "p.json"
    with open_store(db) as store:
        store.set_settings(replace(store.settings, ladder_days=ladder_days))
    app = make_app(db, StudyChoice("demo", FIRST, "flip", (REVERSE,)), decks=[DECK])
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown: list[CardKey] = []
        while isinstance(app.screen, StudyScreen) and len(shown) < 20:
            shown.append(card_of(app.screen))
            await pilot.press("space", "4")  # Easy: out of the session
            await pilot.pause()
        assert {card.pair for card in shown} == {FIRST}
        assert len(shown) == 5
        screen = app.screen
        assert isinstance(screen, SummaryScreen)
        line = screen.query_one("#summary-waiting", Static)
        assert str(line.content) == f"Waiting: {said}"
        assert line.region.bottom <= size[1] - 1
        await pilot.press("enter")
    assert len(reviews(db)) == 5
    with open_store(db, read_only=True) as store:
        last = store.reviews()[-1].reviewed_at
        queue = store.due_cards(DECK, [FIRST, REVERSE], last)
        assert len(queue.ladder if ladder_days == 30 else queue.siblings) == 5
        assert queue.cards == ()
