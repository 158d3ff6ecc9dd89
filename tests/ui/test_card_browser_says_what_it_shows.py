"""The card browser says what a new learner would otherwise wonder about: which deck it
lists (by the deck's name, as the home screen does); a card found by a
text the row doesn't show (its Arabic, while it asks English → Bangla) says where the search
found it; F2 names the text being edited and the keys that keep or leave it; a history longer
than the pane shows says how many earlier answers there are (Pilot, real store on disk)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.widgets import Input, Static

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.ui.screens.cards import HISTORY_LINES, CardsScreen
from quizzer.ui.textshape import display_text
from tests.ui_support import NoticedApp

LORA = CardKey("training-efficiency/lora", Pair("en", "term", "bn", "term"))
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


async def test_where_it_was_found_what_is_edited_and_earlier_answers(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    answers = HISTORY_LINES + 3
    with open_store(db, rng=random.Random(1)) as store:
        for i in range(answers):
            store.record(LORA, 3, T0 + timedelta(days=i), Answer(duration_ms=1500))
    (tmp_path / "decks").mkdir()
    app = NoticedApp(StudyService(open_store(db), open_shelf(tmp_path / "decks")))
    async with app.run_test(size=(60, 20)) as pilot:
        await app.push_screen(CardsScreen("training-efficiency"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardsScreen)
        screen.query_one("#cards-search", Input).value = "لورا"
        await pilot.pause()
        assert [row.card for row in screen.rows] == [LORA]
        filters = str(screen.query_one("#cards-filters", Static).content)
        assert filters == "1 card · Training efficiency · state: any"  # the deck's name
        detail = str(screen.query_one("#cards-history", Static).content)
        # At 60 columns the language is named in English and in itself, the name drawn
        # joined and right to left.
        assert f"found in {display_text('Arabic · العربية')} term: " in detail
        assert "3 earlier answers, then:" in detail
        assert detail.count("Good") == HISTORY_LINES
        # Found by its Bangla text, which the row shows: nothing more to say.
        screen.query_one("#cards-search", Input).value = "লোরা"
        await pilot.pause()
        assert "found in" not in str(screen.query_one("#cards-history", Static).content)
        await pilot.press("enter", "f2")
        await pilot.pause()
        label = screen.query_one("#cards-edit-label", Static)
        assert label.display and label.region.height == 1
        # Both names would not fit 60 columns: the language is named in itself.
        assert str(label.content) == "Edit the বাংলা term: Enter keeps it, Esc leaves it"
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.query_one("#cards-edit-label", Static).display
