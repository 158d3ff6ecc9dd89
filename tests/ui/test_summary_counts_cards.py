"""The session summary counts distinct cards as "Cards studied" (the rule of the home
screen, the header and the statistics), and the correct share out of every answer."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from quizzer.concepts.deck import Deck
from quizzer.ui.screens.summary import SummaryScreen
from tests.factories import concept
from tests.ui_support import choice, make_app, reviews

ONE_CARD = Deck(
    id="one",
    name="One",
    concepts=(concept("one", "lora", {"en": ("LoRA", "Low-rank adapters.")}),),
)


async def test_a_card_answered_twice_is_one_card_studied(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("one", "en:definition>en:term", "flip"), decks=[ONE_CARD])
    async with app.run_test(size=(80, 24)) as pilot:
        for grade in ("1", "3"):  # Again brings the card back within the session
            await pilot.pause()
            await pilot.press("space", grade)
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SummaryScreen)
        summary = screen.summary
        assert (summary.studied, summary.answered, summary.correct) == (1, 2, 1)
        figures = str(screen.query_one("#summary-figures", Static).content)
        assert "Cards studied  1" in figures
        assert "50% (1 of 2 answers)" in figures
        await pilot.press("enter")
    assert len(reviews(db)) == 2
