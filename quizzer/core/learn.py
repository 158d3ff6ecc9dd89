"""Learn mode: small rounds that take a concept from recognising it to typing it.

A round holds about :data:`ROUND_SIZE` concepts. Each concept is asked as
multiple choice until answered right once, then typed. A miss sends the
concept back :data:`RETRY_GAP` questions later in the same round (it stays in
the mode it was missed in). The round is complete when every concept has been
typed right.

What reaches the scheduler: one :class:`LearnRecord` per concept per round,
made when the concept is typed right, because a dozen same-minute answers
would tell FSRS little about memory. Its grade sums up the round: no miss →
Good; one miss (a near miss counts as one) → Hard; two or more misses → Again. An
"I was right" override (:meth:`LearnRound.override`) turns the last typed answer
into a right one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from quizzer.core.answers import AnswerCheck, check_answer, other_texts
from quizzer.core.cards import CardKey, Pair
from quizzer.core.choices import ChoiceSet, make_choices
from quizzer.core.concept import Concept
from quizzer.core.review import Grade

#: Concepts per round, about.
ROUND_SIZE = 7
#: A missed concept comes back after this many other questions (or at the round's end).
RETRY_GAP = 3

Stage = Literal["choice", "typed"]


def plan_rounds(
    concepts: Sequence[Concept], size: int = ROUND_SIZE
) -> tuple[tuple[Concept, ...], ...]:
    """Split ``concepts`` (in order) into rounds of about ``size``, sizes differing by at most one.

    16 concepts with size 7 give rounds of 6, 5 and 5 rather than 7, 7 and 2.
    """
    if size < 1:
        raise ValueError("round size must be at least 1")
    items = list(concepts)
    if not items:
        return ()
    count = math.ceil(len(items) / size)
    base, extra = divmod(len(items), count)
    rounds: list[tuple[Concept, ...]] = []
    start = 0
    for index in range(count):
        end = start + base + (1 if index < extra else 0)
        rounds.append(tuple(items[start:end]))
        start = end
    return tuple(rounds)


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
    this round; ``overridden`` whether the learner said "I was right".
    """

    card: CardKey
    grade: Grade
    at: datetime
    duration_ms: int
    typed: str
    misses: int
    overridden: bool = False


@dataclass(slots=True)
class _Progress:
    concept: Concept
    stage: Stage = "choice"
    misses: int = 0
    done: bool = False
    time_ms: int = 0
    choices: ChoiceSet | None = None


@dataclass(slots=True)
class LearnRound:
    """One learn round over ``concepts`` in the direction ``pair``.

    ``pool`` supplies distractors (usually the whole deck). Concepts missing the
    prompt or answer text are left out. Use :attr:`question`, then
    :meth:`answer_choice` or :meth:`answer_typed`; collect :attr:`records`.
    """

    concepts: Sequence[Concept]
    pool: Sequence[Concept]
    pair: Pair
    rng: random.Random
    retry_gap: int = RETRY_GAP
    records: list[LearnRecord] = field(default_factory=list)
    _progress: dict[str, _Progress] = field(default_factory=dict)
    _order: list[str] = field(default_factory=list)
    _last_typed: tuple[str, AnswerCheck, datetime, int] | None = None

    def __post_init__(self) -> None:
        p = self.pair
        for concept in self.concepts:
            has_prompt = concept.text(p.prompt_lang, p.prompt_side) is not None
            if has_prompt and concept.text(p.answer_lang, p.answer_side) is not None:
                self._progress[concept.uid] = _Progress(concept)
                self._order.append(concept.uid)
        if not self._order:
            raise ValueError("no concept in this round has both texts of the pair")

    # -- state -----------------------------------------------------------------

    @property
    def complete(self) -> bool:
        """Every concept has been typed right."""
        return all(p.done for p in self._progress.values())

    @property
    def total(self) -> int:
        """Concepts in the round."""
        return len(self._progress)

    @property
    def mastered(self) -> int:
        """Concepts typed right so far."""
        return sum(p.done for p in self._progress.values())

    @property
    def recognised(self) -> int:
        """Concepts past multiple choice (typed stage or done)."""
        return sum(p.stage == "typed" for p in self._progress.values())

    @property
    def question(self) -> LearnQuestion | None:
        """The question to ask now, ``None`` when the round is complete."""
        if not self._order:
            return None
        prog = self._progress[self._order[0]]
        p = self.pair
        concept = prog.concept
        if prog.stage == "choice" and prog.choices is None:
            # Drawn once per ask so the options don't reshuffle on a redraw.
            prog.choices = make_choices(concept, self.pool, p.answer_lang, p.answer_side, self.rng)
        return LearnQuestion(
            concept=concept,
            card=CardKey(concept.uid, p),
            stage=prog.stage,
            prompt=concept.text(p.prompt_lang, p.prompt_side) or "",
            expected=concept.text(p.answer_lang, p.answer_side) or "",
            choices=prog.choices if prog.stage == "choice" else None,
        )

    # -- answers ---------------------------------------------------------------

    def answer_choice(self, index: int, now: datetime, duration_ms: int = 0) -> bool:
        """Pick option ``index`` (0-based) of the current choice question; True when right."""
        prog = self._current("choice")
        assert prog.choices is not None
        right = prog.choices.is_correct(index)
        prog.time_ms += duration_ms
        prog.choices = None
        if right:
            prog.stage = "typed"
            self._requeue(self.retry_gap)
        else:
            prog.misses += 1
            self._requeue(self.retry_gap)
        self._last_typed = None
        return right

    def answer_typed(self, text: str, now: datetime, duration_ms: int = 0) -> AnswerCheck:
        """Check ``text`` for the current typed question and move on.

        Right (exact or accepted) completes the concept and adds its
        :class:`LearnRecord`; a near miss or wrong answer counts as a miss and the
        concept comes back later (unless :meth:`override` follows).
        """
        prog = self._current("typed")
        p = self.pair
        expected = prog.concept.text(p.answer_lang, p.answer_side) or ""
        others = other_texts(prog.concept, self.pool, p.answer_lang, p.answer_side)
        check = check_answer(
            text,
            expected,
            p.answer_lang,
            acronym=prog.concept.acronym,
            others=others,
            side=p.answer_side,
        )
        prog.time_ms += duration_ms
        if check.correct:
            self._finish(prog, text, now, overridden=False)
            self._order.pop(0)
            self._last_typed = None
        else:
            prog.misses += 1
            self._last_typed = (prog.concept.uid, check, now, duration_ms)
            self._requeue(self.retry_gap)
        return check

    @property
    def can_override(self) -> bool:
        """Whether the last answer was a typed miss the learner may claim was right."""
        return self._last_typed is not None

    def override(self) -> LearnRecord:
        """ "I was right": count the last typed miss as right, completing that concept."""
        if self._last_typed is None:
            raise RuntimeError("no typed miss to override")
        uid, check, at, _duration = self._last_typed
        prog = self._progress[uid]
        prog.misses -= 1
        self._order.remove(uid)
        self._last_typed = None
        return self._finish(prog, check.typed, at, overridden=True)

    # -- internals -------------------------------------------------------------

    def _current(self, stage: Stage) -> _Progress:
        if not self._order:
            raise RuntimeError("the round is complete")
        prog = self._progress[self._order[0]]
        if prog.stage != stage:
            raise RuntimeError(f"the current question is {prog.stage}, not {stage}")
        return prog

    def _requeue(self, gap: int) -> None:
        uid = self._order.pop(0)
        self._order.insert(min(gap, len(self._order)), uid)

    def _finish(
        self, prog: _Progress, typed: str, now: datetime, *, overridden: bool
    ) -> LearnRecord:
        prog.done = True
        if prog.misses >= 2:
            grade: Grade = 1
        elif prog.misses == 1:
            grade = 2
        else:
            grade = 3
        record = LearnRecord(
            card=CardKey(prog.concept.uid, self.pair),
            grade=grade,
            at=now,
            duration_ms=prog.time_ms,
            typed=typed,
            misses=prog.misses,
            overridden=overridden,
        )
        self.records.append(record)
        return record
