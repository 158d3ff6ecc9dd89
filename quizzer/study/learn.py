"""Learn mode: small rounds that take a concept from recognising it to typing it.

A round holds about :data:`ROUND_SIZE` concepts. Each concept is asked as
multiple choice until answered right once, then typed. A miss sends the
concept back :data:`RETRY_GAP` questions later in the same round (it stays in
the mode it was missed in). The round is complete when every concept has been
typed right.

What reaches the scheduler: one :class:`LearnRecord` per concept per round,
made when the concept is typed right, because a dozen same-minute answers
would tell FSRS little about memory. Its grade sums up the round: no miss →
Good; one wrong answer, or any number of near misses (typos, transliterations:
passes graded Hard, see :mod:`quizzer.study.answers`) → Hard; two or more wrong
answers → Again. A near miss is still asked again, to practise the spelling,
unless the learner says "I was right" (:meth:`LearnRound.override`, offered for
near misses only), which turns that typed answer into a right one.

Undo and bury: :meth:`LearnRound.undo` steps back the last answer, override,
bury or drop, restoring the round exactly as it was before (the random
generator's state included, so the same options come back and the round then
replays identically); it returns a :class:`LearnUndo` naming the record that
action had emitted, which the UI then takes back from its store.
:meth:`LearnRound.bury` and :meth:`LearnRound.drop` take a concept out of the
round (the UI buries the returned card in its store after ``bury``).

The plan (which concepts, in which rounds) is :mod:`quizzer.study.learn_plan`; the
values a round hands out are :mod:`quizzer.study.learn_record`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.concept import Concept
from quizzer.scheduling.grades import Grade
from quizzer.study.answers import AnswerCheck, Verdict, check_card_answer
from quizzer.study.learn_record import (
    Action,
    LearnQuestion,
    LearnRecord,
    LearnTally,
    LearnUndo,
    Stage,
)
from quizzer.study.multiple_choice import ChoiceSet, make_choices

#: A missed concept comes back after this many other questions (or at the round's end).
RETRY_GAP = 3


@dataclass(slots=True)
class _Progress:
    concept: Concept
    stage: Stage = "choice"
    misses: int = 0  # wrong or near answers
    near: int = 0  # of which near misses
    done: bool = False
    time_ms: int = 0
    choices: ChoiceSet | None = None


@dataclass(slots=True)
class _Step:
    """The round's state before one step, for :meth:`LearnRound.undo`."""

    action: Action
    concept_uid: str
    progress: dict[str, _Progress]
    order: list[str]
    records: int
    last_typed: tuple[str, AnswerCheck, datetime, int] | None
    removed: dict[str, Action]
    tally: LearnTally
    rng_state: tuple[Any, ...]


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
    _history: list[_Step] = field(default_factory=list)
    _removed: dict[str, Action] = field(default_factory=dict)
    _tally: LearnTally = field(default_factory=LearnTally)

    def __post_init__(self) -> None:
        p = self.pair
        for concept in self.concepts:
            if has_card(concept, p):
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
    def tally(self) -> LearnTally:
        """Answers given so far in this round (undo takes them back too)."""
        return self._tally

    @property
    def in_progress(self) -> tuple[Concept, ...]:
        """Concepts past multiple choice but not yet typed right, in round order.

        These would lose their progress if the learner quit now (nothing is
        recorded for a concept until it is typed right): the UI warns about them.
        """
        return tuple(
            p.concept for p in self._progress.values() if p.stage == "typed" and not p.done
        )

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` has a step to take back."""
        return bool(self._history)

    @property
    def removed(self) -> dict[str, Action]:
        """Concepts taken out of the round (uid → ``"bury"`` or ``"drop"``), in order."""
        return dict(self._removed)

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
        if prog.choices is None:
            self.question  # noqa: B018 - draws the options the learner is answering
        assert prog.choices is not None
        if not 0 <= index < len(prog.choices.options):
            raise IndexError(f"no option {index + 1}: there are {len(prog.choices.options)}")
        self._remember("choice", prog.concept.uid)
        right = prog.choices.is_correct(index)
        self._count("right" if right else "wrong")
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

        Spelled right (exact or accepted, :attr:`AnswerCheck.right`) completes
        the concept and adds its :class:`LearnRecord`; a near miss or wrong answer
        counts as a miss and the concept comes back later (unless, for a near
        miss, :meth:`override` follows).
        """
        prog = self._current("typed")
        self._remember("typed", prog.concept.uid)
        check = check_card_answer(text, prog.concept, self.pool, self.pair)
        prog.time_ms += duration_ms
        near = check.verdict is Verdict.NEAR
        self._count("right" if check.right else "near" if near else "wrong")
        if check.right:
            self._finish(prog, text, now, overridden=False)
            self._order.pop(0)
            self._last_typed = None
        else:
            prog.misses += 1
            prog.near += near
            can_override = check.can_override
            self._last_typed = (prog.concept.uid, check, now, duration_ms) if can_override else None
            self._requeue(self.retry_gap)
        return check

    @property
    def can_override(self) -> bool:
        """Whether the last answer was a typed near miss the learner may claim was right."""
        return self._last_typed is not None

    def override(self) -> LearnRecord:
        """ "I was right": count the last typed near miss as right, completing that concept."""
        if self._last_typed is None:
            raise RuntimeError("no typed near miss to override")
        uid, check, at, _duration = self._last_typed
        self._remember("override", uid)
        prog = self._progress[uid]
        prog.misses -= 1
        prog.near -= 1
        t = self._tally
        self._tally = replace(t, right=t.right + 1, near=t.near - 1)
        self._order.remove(uid)
        self._last_typed = None
        return self._finish(prog, check.typed, at, overridden=True)

    # -- undo, bury, drop ------------------------------------------------------

    def bury(self, concept: str) -> CardKey:
        """Take ``concept`` (a uid or, within the round, an id) out of the round for a bury.

        Returns its card for the UI to bury in the store. The concept is no longer
        asked and no longer counts in :attr:`total`; :meth:`undo` puts it back.
        Raises ``ValueError`` for a concept not in the round or already learned.
        """
        return self._take_out(concept, "bury")

    def drop(self, concept: str) -> CardKey:
        """Take ``concept`` out of the round without burying it (see :meth:`bury`)."""
        return self._take_out(concept, "drop")

    def undo(self) -> LearnUndo:
        """Step back the last answer, override, bury or drop.

        The round returns exactly to its state before that step (question,
        options, misses, times, records, tallies and the random generator).
        Raises ``IndexError`` when there is nothing to undo.
        """
        if not self._history:
            raise IndexError("nothing to undo")
        step = self._history.pop()
        emitted = self.records[step.records] if len(self.records) > step.records else None
        self._progress = step.progress
        self._order = step.order
        del self.records[step.records :]
        self._last_typed = step.last_typed
        self._removed = step.removed
        self._tally = step.tally
        self.rng.setstate(step.rng_state)
        return LearnUndo(
            step.action, step.concept_uid, CardKey(step.concept_uid, self.pair), emitted
        )

    # -- internals -------------------------------------------------------------

    def _resolve(self, concept: str) -> str:
        if concept in self._progress:
            return concept
        matches = [uid for uid, prog in self._progress.items() if prog.concept.id == concept]
        if len(matches) == 1:
            return matches[0]
        raise ValueError(f"{concept!r} is not in this round")

    def _take_out(self, concept: str, action: Action) -> CardKey:
        uid = self._resolve(concept)
        if self._progress[uid].done:
            raise ValueError(f"{uid} is already learned in this round")
        self._remember(action, uid)
        del self._progress[uid]
        self._order.remove(uid)
        self._removed[uid] = action
        self._last_typed = None
        return CardKey(uid, self.pair)

    def _count(self, outcome: Literal["right", "near", "wrong"]) -> None:
        t = self._tally
        self._tally = replace(t, answered=t.answered + 1, **{outcome: getattr(t, outcome) + 1})

    def _remember(self, action: Action, uid: str) -> None:
        """Keep the round's state before ``action`` so :meth:`undo` can restore it."""
        self._history.append(
            _Step(
                action=action,
                concept_uid=uid,
                progress={k: replace(v) for k, v in self._progress.items()},
                order=list(self._order),
                records=len(self.records),
                last_typed=self._last_typed,
                removed=dict(self._removed),
                tally=self._tally,
                rng_state=self.rng.getstate(),
            )
        )

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
        if prog.misses - prog.near >= 2:
            grade: Grade = 1
        elif prog.misses:
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
            correct=grade >= 2,
        )
        self.records.append(record)
        return record
