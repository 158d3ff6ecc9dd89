"""The Match screen: at least six pairs on a 60×20 and an 80×24 board, played to the end
by keys and by clicks, a wrong pair costing time, the best time kept per deck and
direction and shown; nothing recorded in the progress store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from quizzer.study.match import PENALTY_SECONDS, MatchGame
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.match import MatchScreen
from quizzer.ui.widgets.match_tile import MatchTile
from quizzer.ui.widgets.picker import Picker
from tests.ui_support import choice, make_app, reviews

SIZES = [pytest.param((60, 20), id="60x20"), pytest.param((80, 24), id="80x24")]
TERMS = choice("quantization", "en:term>ru:term", "match")
DEFINITIONS = choice("training-efficiency", "en:term>en:definition", "match")


def _game(pilot: Pilot[Any]) -> MatchGame:
    screen = pilot.app.screen
    assert isinstance(screen, MatchScreen) and screen.game is not None
    return screen.game


def _status(pilot: Pilot[Any]) -> str:
    return str(pilot.app.screen.query_one("#match-status", Static).content)


async def _solve_by_keys(pilot: Pilot[Any], *, wrong_first: bool = False) -> None:
    game = _game(pilot)
    if wrong_first:
        right = next(t for t in game.right if t.pair != game.left[0].pair)
        await pilot.press(game.left[0].key, right.key)
    for tile in game.left:
        partner = next(t for t in game.right if t.pair == tile.pair)
        await pilot.press(tile.key, partner.key)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
async def test_every_tile_is_on_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    for pick in (TERMS, DEFINITIONS):
        app = make_app(tmp_path / "p.json", pick)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            tiles = list(pilot.app.screen.query(MatchTile))
            assert len(tiles) >= 12  # six pairs at least
            screen = pilot.app.screen.region
            for tile in tiles:
                assert tile.region.height >= 1 and screen.contains_region(tile.region)


async def test_keys_finish_the_game_with_a_time_and_keep_the_best(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, TERMS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert len(_game(pilot).pairs) == 8
        await _solve_by_keys(pilot, wrong_first=True)
        game = _game(pilot)
        assert game.finished and game.wrong == 1
        assert game.seconds(game.ended) >= PENALTY_SECONDS  # type: ignore[arg-type]
        assert "All matched in" in _status(pilot) and "a new best!" in _status(pilot)
        assert all(t.has_class("-matched") for t in pilot.app.screen.query(MatchTile))
        first = game.seconds(game.ended)  # type: ignore[arg-type]
        await pilot.press("enter")
    assert reviews(db) == []  # practice: nothing recorded
    again = make_app(db, TERMS)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.service.best_match_seconds("quantization", TERMS.pair) == round(first, 1)
        assert "best 0:" in _status(pilot)
        other = DEFINITIONS.pair
        assert again.service.best_match_seconds("training-efficiency", other) is None


async def test_clicks_play_too(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", TERMS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = _game(pilot)
        tile = game.left[0]
        partner = next(t for t in game.right if t.pair == tile.pair)
        await pilot.click(f"#tile-{tile.key}")
        assert pilot.app.screen.query_one(f"#tile-{tile.key}").has_class("-selected")
        await pilot.click(f"#tile-{partner.key}")
        await pilot.pause()
        assert game.matched == {tile.pair}


async def test_the_home_screen_offers_match(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m", "m", "m", "m")  # flip → choice → typed → learn → match
        await pilot.pause()
        assert pilot.app.screen.query_one("#mode", Picker).value == "match"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(pilot.app.screen, MatchScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HomeScreen)


async def _start(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    game = _game(pilot)
    partner = next(t for t in game.right if t.pair == game.left[0].pair)
    await pilot.press(game.left[0].key, partner.key, game.left[1].key)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, MatchScreen) and screen.clock_timer is not None
    screen.clock_timer.stop()  # the clock frozen, for a picture that repeats
    screen.query_one("#match-status", Static).update("0:07.5 · 1 of 8 · 1–8 then a–h")


@pytest.mark.parametrize("size", SIZES)
def test_match_snapshot(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json", TERMS)
    assert snap_compare(app, run_before=_start, terminal_size=size)
