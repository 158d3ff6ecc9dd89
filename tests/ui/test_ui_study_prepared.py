"""The study screen takes a card's FSRS step while it shows, so that answering only writes.

Flip mode does it when the card is revealed (the grade buttons' intervals); choice and
typed answers are recorded the moment they are given, so those modes do it when the card
appears (issue 12, goal 4). The answers recorded are the same either way
(tests/progress/test_store_prepared.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.ui.screens.study import StudyScreen
from tests.ui_support import choice, make_app, reviews

SIZE = (100, 30)


@pytest.mark.parametrize("mode", ["choice", "typed"])
async def test_a_choice_or_typed_card_has_its_step_taken_when_it_shows(
    tmp_path: Path, mode: str
) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", mode))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StudyScreen)
        card = screen.flow.card if screen.flow is not None else None
        assert card is not None
        kept = app.service.store._prepared
        assert kept is not None and kept[0] == card.id
        if mode == "choice":
            await pilot.press(str(screen.flow.choices.answer_index + 1))
        else:
            await pilot.press("x", "enter")
        await pilot.pause()
        assert screen.phase == "feedback"
        await pilot.press("escape")
        await pilot.press("q", "enter")
    assert [r.card_id for r in reviews(db)] == [card.id]
