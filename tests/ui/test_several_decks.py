"""Several decks in one session: marked with Space on the home screen, or named on the
command line (`quizzer study A B`); each deck keeps its own cards and daily limits (Pilot,
real store, 60×20 and 80×24)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.concepts.deck import Deck
from quizzer.paths import machine_file
from quizzer.progress import open_store
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen
from tests.factories import concept, ru_bn_deck
from tests.ui_support import card_of, make_app, reviews, texts_of

A = ru_bn_deck("alpha", 3)
# The same concept ids as alpha's (c0, c1), other texts.
B = Deck(
    id="beta",
    name="Beta",
    concepts=tuple(
        concept("beta", f"c{i}", {"ru": (f"бета {i}", "б"), "bn": (f"বিটা {i}", "ব")})
        for i in range(2)
    ),
)
PAIR = Pair("ru", "term", "bn", "term")


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_decks_marked_on_home_are_studied_together(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, decks=[A, B])
    async with app.run_test(size=size) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        await pilot.press("space", "down", "space")
        await pilot.pause()
        assert "2 decks together" in str(home.query_one("#waiting", Static).content)
        choice = home.current_choice()
        assert choice is not None and choice.decks == ("alpha", "beta")
        await pilot.press("enter")
        await pilot.pause()
        shown: list[CardKey] = []
        while isinstance(app.screen, StudyScreen) and len(shown) < 20:
            shown.append(card_of(app.screen))
            # Both decks use the ids c0, c1…: each card shows its own deck's texts.
            _concept, prompt, _answer = texts_of(app.screen)
            deck = A if shown[-1].deck == "alpha" else B
            concept = next(c for c in deck.concepts if c.uid == shown[-1].concept_uid)
            assert prompt == concept.text("ru", "term")
            await pilot.press("space", "4")
            await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "Alpha + Beta" in str(app.screen.query_one("#summary-where", Static).content)
        await pilot.press("enter")
        await pilot.pause()
    assert sorted(k.deck for k in shown) == ["alpha"] * 3 + ["beta"] * 2
    assert len({k.id for k in shown}) == 5
    assert len(reviews(db)) == 5


def test_quizzer_study_a_b_serves_both_decks_with_their_own_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    with open_store(db) as store:
        from dataclasses import replace

        store.set_settings(replace(store.settings, new_per_day=2))
    seen: dict[str, Any] = {}
    real_run = QuizzerApp.run

    async def look(pilot: Any) -> None:
        await pilot.pause()
        shown = []
        while isinstance(pilot.app.screen, StudyScreen):
            shown.append(card_of(pilot.app.screen))
            await pilot.press("space", "4")
            await pilot.pause()
        seen["shown"] = shown
        await pilot.press("enter")

    def headless_run(self: QuizzerApp, **kwargs: Any) -> Any:
        return real_run(self, headless=True, size=(80, 24), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    argv = ["study", "quantization", "training-efficiency", "--from", "en:term", "--to", "bn:term"]
    assert main([*argv, "--db", str(db)]) == 0
    decks = [k.deck for k in seen["shown"]]
    # Two new cards a deck a day: each deck's own limit.
    assert decks == ["quantization"] * 2 + ["training-efficiency"] * 2
    prefs = json.loads(machine_file(db, ".ui.json").read_text(encoding="utf-8"))
    assert prefs["ui.last_choice"]["more_decks"] == ["training-efficiency"]
