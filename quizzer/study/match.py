"""Match: a timed game pairing each prompt with its answer, like Quizlet's.

Up to eight pairs (six when one side is a definition, which takes room) are drawn from
a deck in one direction. Prompts are labelled 1–8 and answers a–h, each column shuffled;
the learner picks one of each (keys or clicks, in either order). A right pair leaves the
board, a wrong one adds :data:`PENALTY_SECONDS` to the time. The game is over when every
pair is matched; the time is the clock's plus the penalties.

Match is practice: nothing here touches a card's schedule. The clock is an argument
(``now``) and the shuffles take an ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Literal

from quizzer.cards.card import Pair
from quizzer.concepts.concept import Concept

#: Seconds a wrong pair adds to the time.
PENALTY_SECONDS = 2.0
#: Pairs on the board when both sides are terms, and when one is a definition.
TERM_PAIRS = 8
DEFINITION_PAIRS = 6
#: Fewer pairs than this and there is no game.
MIN_PAIRS = 2

LEFT_KEYS = "12345678"
RIGHT_KEYS = "abcdefgh"

Column = Literal["left", "right"]


class Outcome(StrEnum):
    """What a pick did."""

    SELECTED = "selected"
    MATCHED = "matched"
    WRONG = "wrong"
    IGNORED = "ignored"


@dataclass(frozen=True, slots=True)
class MatchPair:
    """One prompt and its answer (of the concept ``concept_uid``)."""

    prompt: str
    answer: str
    concept_uid: str = ""


@dataclass(frozen=True, slots=True)
class Tile:
    """A text on the board: its key label and the pair it belongs to."""

    key: str
    text: str
    pair: int


def board_size(pair: Pair) -> int:
    """How many pairs go on the board for direction ``pair``."""
    if "definition" in (pair.prompt_side, pair.answer_side):
        return DEFINITION_PAIRS
    return TERM_PAIRS


def match_pairs(
    concepts: Sequence[Concept], pair: Pair, rng: random.Random, size: int | None = None
) -> tuple[MatchPair, ...]:
    """Up to ``size`` (default :func:`board_size`) concepts with both texts of ``pair``,
    drawn at random. A concept whose two texts are the same ("LLM.int8()" in English and
    in Russian) is left out, a pair with nothing to recall; and two concepts with the
    same prompt or answer text are never both drawn, since the board couldn't tell
    them apart."""
    wanted = board_size(pair) if size is None else size
    candidates = []
    for concept in concepts:
        prompt = concept.text(pair.prompt_lang, pair.prompt_side)
        answer = concept.text(pair.answer_lang, pair.answer_side)
        if prompt and answer and prompt.casefold() != answer.casefold():
            candidates.append(MatchPair(prompt, answer, concept.uid))
    rng.shuffle(candidates)
    chosen: list[MatchPair] = []
    prompts: set[str] = set()
    answers: set[str] = set()
    for item in candidates:
        if item.prompt in prompts or item.answer in answers:
            continue
        chosen.append(item)
        prompts.add(item.prompt)
        answers.add(item.answer)
        if len(chosen) == wanted:
            break
    return tuple(chosen)


@dataclass
class MatchGame:
    """The board and the clock of one game (see the module docstring)."""

    pairs: tuple[MatchPair, ...]
    started: datetime
    left: tuple[Tile, ...] = field(init=False)
    right: tuple[Tile, ...] = field(init=False)
    matched: set[int] = field(default_factory=set)
    wrong: int = 0
    #: The pairs a wrong pick involved (either of its two tiles).
    missed: set[int] = field(default_factory=set)
    selected: dict[Column, int] = field(default_factory=dict)
    ended: datetime | None = None

    @classmethod
    def deal(cls, pairs: Sequence[MatchPair], rng: random.Random, now: datetime) -> MatchGame:
        """A new game on ``pairs``, both columns shuffled, the clock started at ``now``."""
        if not MIN_PAIRS <= len(pairs) <= len(LEFT_KEYS):
            raise ValueError(f"a match needs {MIN_PAIRS}–{len(LEFT_KEYS)} pairs, not {len(pairs)}")
        game = cls(tuple(pairs), now)
        order = list(range(len(pairs)))
        rng.shuffle(order)
        game.left = tuple(Tile(LEFT_KEYS[i], pairs[p].prompt, p) for i, p in enumerate(order))
        rng.shuffle(order)
        game.right = tuple(Tile(RIGHT_KEYS[i], pairs[p].answer, p) for i, p in enumerate(order))
        return game

    @property
    def finished(self) -> bool:
        """Whether every pair is matched."""
        return len(self.matched) == len(self.pairs)

    def seconds(self, now: datetime) -> float:
        """The time so far (the final time once finished), penalties included."""
        end = self.ended or now
        return (end - self.started).total_seconds() + PENALTY_SECONDS * self.wrong

    def grades(self) -> list[tuple[str, int]]:
        """Each pair's concept and grade as practice: Good when matched at the first try,
        Again when a wrong pick involved it."""
        return [(p.concept_uid, 1 if i in self.missed else 3) for i, p in enumerate(self.pairs)]

    def tiles(self, column: Column) -> tuple[Tile, ...]:
        """The tiles of ``column``."""
        return self.left if column == "left" else self.right

    def find(self, key: str) -> tuple[Column, int] | None:
        """The tile labelled ``key`` (``"3"``, ``"c"``), if on the board."""
        for column in ("left", "right"):
            for index, tile in enumerate(self.tiles(column)):
                if tile.key == key:
                    return column, index
        return None

    def pick(self, column: Column, index: int, now: datetime) -> Outcome:
        """Pick tile ``index`` of ``column``: selects it, or with a tile of the other
        column selected, tries the pair. Matched tiles and a finished game ignore picks;
        picking a selected tile again unselects it."""
        tiles = self.tiles(column)
        if self.finished or not 0 <= index < len(tiles) or tiles[index].pair in self.matched:
            return Outcome.IGNORED
        if self.selected.get(column) == index:
            del self.selected[column]
            return Outcome.IGNORED
        self.selected[column] = index
        other: Column = "right" if column == "left" else "left"
        if other not in self.selected:
            return Outcome.SELECTED
        a = self.left[self.selected["left"]]
        b = self.right[self.selected["right"]]
        self.selected.clear()
        if a.pair != b.pair:
            self.wrong += 1
            self.missed.update((a.pair, b.pair))
            return Outcome.WRONG
        self.matched.add(a.pair)
        if len(self.matched) == len(self.pairs):  # (not self.finished: mypy narrowed it)
            self.ended = now
        return Outcome.MATCHED
