"""What a learn round hands out: the question to ask, the record for the scheduler, tallies, undos.

See :mod:`quizzer.study.learn` for the round that makes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from quizzer.cards.card import CardKey
from quizzer.concepts.concept import Concept
from quizzer.scheduling.grades import Grade
from quizzer.study.multiple_choice import ChoiceSet

Stage = Literal["choice", "typed"]
#: What :meth:`LearnRound.undo` can step back.
Action = Literal["choice", "typed", "override", "bury", "drop"]


@dataclass(frozen=True, slots=True)
class LearnQuestion:
    """What to ask now: the prompt text, the stage, and the options for a choice question."""

    concept: Concept
    card: CardKey
    stage: Stage
    prompt: str
    expected: str
    choices: ChoiceSet | None


@dataclass(frozen=True, slots=True)
class LearnRecord:
    """An answer for the scheduler: record ``grade`` for ``card`` at ``at`` in mode ``learn``.

    ``typed`` is the final typed answer; ``misses`` how many tries went wrong
    this round (near misses included); ``overridden`` whether the learner said
    "I was right". ``correct`` is what to store as the review's ``correct``: it
    is exactly ``grade >= Hard`` (no miss, only near misses, one wrong answer,
    or an override with at most one other wrong answer), False for Again.
    """

    card: CardKey
    grade: Grade
    at: datetime
    duration_ms: int
    typed: str
    misses: int
    overridden: bool = False
    correct: bool = True


@dataclass(frozen=True, slots=True)
class LearnTally:
    """Answers given in a round, for a truthful summary.

    Every choice or typed answer counts once in ``answered``: ``right`` (a right
    choice, a typed answer spelled right, or a near miss the learner overrode),
    ``near`` (typed near misses, passes that are asked again) or ``wrong``.
    """

    answered: int = 0
    right: int = 0
    near: int = 0
    wrong: int = 0

    @property
    def correct(self) -> int:
        """Answers that count as correct under the near-miss policy: right + near."""
        return self.right + self.near


@dataclass(frozen=True, slots=True)
class LearnUndo:
    """What :meth:`LearnRound.undo` stepped back.

    ``action`` is the step taken back, ``concept_uid`` the concept it was about
    and ``card`` that concept's card in the round's pair. ``record`` is the
    :class:`LearnRecord` the step had emitted (a right typed answer or an
    override), now gone from :attr:`LearnRound.records`: a UI that stored it
    must take it back (``store.undo()``). :attr:`store_undo` says whether the
    step had reached the store at all (a record, or a bury).
    """

    action: Action
    concept_uid: str
    card: CardKey
    record: LearnRecord | None = None

    @property
    def store_undo(self) -> bool:
        """Whether the UI must undo one store action (the record, or the bury)."""
        return self.record is not None or self.action == "bury"
