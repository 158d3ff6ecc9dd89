"""Typed feedback appears under the answer field, and the card stays where it was: the
answer is told below the field ("answer: …"), not added to the card, which grew and was
scrolled up on a short screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from quizzer.ui.widgets.card_view import CardView
from tests.ui_support import choice, make_app, texts_of

SIZES = [pytest.param((60, 20), id="60x20"), pytest.param((80, 24), id="80x24")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("typed", ["something else entirely", "Paremeter-Efficient Fine-Tuning"])
async def test_the_card_does_not_move_when_feedback_appears(
    tmp_path: Path, size: tuple[int, int], typed: str
) -> None:
    app = make_app(
        tmp_path / "p.json", choice("training-efficiency", "en:definition>en:term", "typed")
    )
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        card = screen.query_one(CardView)
        before = card.region
        _concept, _prompt, answer = texts_of(screen)
        await pilot.press(*typed, "enter")
        await pilot.pause()
        assert card.region == before
        told = screen.query_one("#right-answer", Static)
        assert str(told.render()) == f"answer: {answer}"
        assert screen.region.contains_region(told.region)
