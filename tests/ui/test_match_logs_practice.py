"""A finished Match game is logged as practice (mode match): one answer per pair, Again for a
pair a wrong pick involved, Good for the others; no card gets a state or a review."""

from __future__ import annotations

from pathlib import Path

from quizzer.progress import open_store
from quizzer.ui.screens.match import MatchScreen
from tests.ui.test_match_screen import TERMS, _solve_by_keys
from tests.ui_support import make_app


async def test_a_game_is_logged_as_practice(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, TERMS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _solve_by_keys(pilot, wrong_first=True)
        screen = app.screen
        assert isinstance(screen, MatchScreen) and screen.game is not None
        game = screen.game
        assert game.finished and len(game.missed) == 2
        uids = {p.concept_uid for p in game.pairs}
        missed = {game.pairs[i].concept_uid for i in game.missed}
        await pilot.press("enter")
    with open_store(db, read_only=True) as store:
        practice = store.practice()
        assert store.reviews() == [] and list(store.cards()) == []
    assert [p.mode for p in practice] == ["match"] * 8
    assert {p.card.split("|")[0] for p in practice} == uids
    assert {p.card.split("|")[1] for p in practice} == {TERMS.pair.code}
    assert {p.card.split("|")[0] for p in practice if p.grade == 1} == missed
    assert sum(p.grade == 3 for p in practice) == 6
