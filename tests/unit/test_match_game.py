"""Match: the board drawn from a deck, picks in either order, wrong pairs costing time,
the end when every pair is matched."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from quizzer.cards.card import Pair
from quizzer.study.match import (
    PENALTY_SECONDS,
    MatchGame,
    MatchPair,
    Outcome,
    board_size,
    match_pairs,
)
from tests.factories import bundled

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
TERMS = Pair("en", "term", "bn", "term")


def _game(n: int = 6) -> MatchGame:
    pairs = [MatchPair(f"p{i}", f"a{i}") for i in range(n)]
    return MatchGame.deal(pairs, random.Random(3), T0)


def _right_of(game: MatchGame, left: int) -> int:
    return next(i for i, t in enumerate(game.right) if t.pair == game.left[left].pair)


def test_the_board_has_eight_term_pairs_or_six_with_definitions() -> None:
    deck = bundled("quantization")
    pairs = match_pairs(deck.concepts, TERMS, random.Random(1), size=20)
    same = [c for c in deck.concepts if c.text("en", "term") == c.text("bn", "term")]
    assert same and len(pairs) == len(deck.concepts) - len(same)
    pairs = match_pairs(deck.concepts, TERMS, random.Random(1))
    assert len(pairs) == 8 == board_size(TERMS)
    by_prompt = {c.text("en", "term"): c.text("bn", "term") for c in deck.concepts}
    assert all(by_prompt[p.prompt] == p.answer for p in pairs)
    assert all(p.prompt != p.answer for p in pairs)  # "GPTQ" in both: left out
    definitions = Pair("en", "term", "en", "definition")
    assert len(match_pairs(deck.concepts, definitions, random.Random(1))) == 6


def test_labels_and_shuffles() -> None:
    game = _game(8)
    assert [t.key for t in game.left] == list("12345678")
    assert [t.key for t in game.right] == list("abcdefgh")
    assert sorted(t.pair for t in game.right) == list(range(8))
    assert game.find("c") == ("right", 2) and game.find("9") is None


@pytest.mark.parametrize("right_first", [False, True])
def test_a_right_pair_matches_in_either_order(right_first: bool) -> None:
    game = _game()
    j = _right_of(game, 0)
    picks = [("right", j), ("left", 0)] if right_first else [("left", 0), ("right", j)]
    assert game.pick(*picks[0], T0) is Outcome.SELECTED  # type: ignore[arg-type]
    assert game.pick(*picks[1], T0) is Outcome.MATCHED  # type: ignore[arg-type]
    assert game.matched == {game.left[0].pair} and not game.selected
    assert game.pick("left", 0, T0) is Outcome.IGNORED  # matched tiles are off the board


def test_a_wrong_pair_costs_time_and_the_game_ends_when_all_match() -> None:
    game = _game()
    wrong = (_right_of(game, 0) + 1) % 6
    assert game.pick("left", 0, T0) is Outcome.SELECTED
    assert game.pick("right", wrong, T0) is Outcome.WRONG
    assert game.wrong == 1 and not game.selected
    assert game.seconds(T0 + timedelta(seconds=5)) == 5 + PENALTY_SECONDS
    end = T0 + timedelta(seconds=10)
    for i in range(6):
        game.pick("left", i, end)
        assert game.pick("right", _right_of(game, i), end) is Outcome.MATCHED
    assert game.finished and game.ended == end
    assert game.seconds(end + timedelta(hours=1)) == 10 + PENALTY_SECONDS  # the clock stopped
    assert game.pick("left", 0, end) is Outcome.IGNORED


def test_picking_a_selected_tile_again_unselects_it() -> None:
    game = _game()
    game.pick("left", 2, T0)
    assert game.pick("left", 2, T0) is Outcome.IGNORED and not game.selected


def test_too_few_pairs_is_no_game() -> None:
    with pytest.raises(ValueError, match="needs"):
        MatchGame.deal([MatchPair("p", "a")], random.Random(1), T0)
