"""Learn mode as a :class:`~quizzer.study.flow.StudyFlow`: rounds of new concepts, one by one.

:class:`LearnFlow` runs the planned rounds (:func:`quizzer.study.learn.learn_rounds`)
one :class:`~quizzer.study.learn.LearnRound` after the other, and sends each
round's records, buries and undos to a :class:`~quizzer.study.session.Scheduler`
(the store's, in the app) as they happen.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import datetime

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.concept import Concept
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import GRADE_NAMES, Grade
from quizzer.study.flow import (
    AnswerVerdict,
    ChoiceOutcome,
    FlowSummary,
    Progress,
    Stage,
    TypedOutcome,
    Undone,
)
from quizzer.study.learn import LearnRound
from quizzer.study.learn_record import LearnQuestion
from quizzer.study.multiple_choice import ChoiceSet
from quizzer.study.session import MAX_ANSWER_MS
from quizzer.study.session_scheduler import Scheduler


class LearnFlow(AnswerVerdict):
    """:class:`~quizzer.study.flow.StudyFlow` over learn rounds of ``rounds`` (concept tuples).

    ``pool`` supplies distractors and answer checks (the deck), ``rng`` the
    options; a round whose concepts all lack a text of ``pair`` is skipped.
    """

    def __init__(
        self,
        rounds: Iterable[Sequence[Concept]],
        pool: Sequence[Concept],
        pair: Pair,
        rng: random.Random,
        scheduler: Scheduler,
    ) -> None:
        #: The rounds not started yet.
        self.rounds: list[tuple[Concept, ...]] = [tuple(r) for r in rounds]
        self.round_count = len(self.rounds)
        self.round_no = 0
        self.round: LearnRound | None = None
        self.question: LearnQuestion | None = None
        #: Ids of the cards recorded (concepts saved) so far.
        self.learn_cards: set[str] = set()
        self.pool = pool
        self.pair = pair
        self.rng = rng
        self.scheduler = scheduler
        #: (answered, correct) of the rounds already finished.
        self._rounds_done = (0, 0)
        super().__init__()
        self._next_round()

    # -- state -----------------------------------------------------------------

    @property
    def card(self) -> CardKey | None:
        """See :attr:`StudyFlow.card`."""
        return self.question.card if self.question is not None else None

    @property
    def stage(self) -> Stage | None:
        """See :attr:`StudyFlow.stage`: choice until right once, then typed."""
        return self.question.stage if self.question is not None else None

    @property
    def choices(self) -> ChoiceSet | None:
        """See :attr:`StudyFlow.choices`."""
        return self.question.choices if self.question is not None else None

    @property
    def finished(self) -> bool:
        """See :attr:`StudyFlow.finished`: no round left to ask."""
        return self.round is None

    def counts(self) -> tuple[int, int]:
        """(questions answered, answered correctly), all rounds so far."""
        answered, correct = self._rounds_done
        if self.round is not None:
            answered += self.round.tally.answered
            correct += self.round.tally.correct
        return answered, correct

    # -- showing -----------------------------------------------------------------

    def next(self, now: datetime) -> bool:
        """See :meth:`StudyFlow.next`: the next question, starting the next round if needed."""
        self._check = None
        self._overridden = False
        if self.round is None or self.round.complete:
            self._next_round()
        if self.round is None:
            return False
        self.question = self.round.question
        assert self.question is not None
        return True

    def reveal(self) -> None:
        """Learn mode has no card to flip."""
        raise RuntimeError("learn mode asks no flip cards")

    def grade(self, grade: Grade, now: datetime) -> None:
        """Learn mode grades its answers itself."""
        raise RuntimeError("learn mode asks no flip cards")

    # -- answers -------------------------------------------------------------------

    def choose(self, index: int, now: datetime, duration_ms: int) -> ChoiceOutcome:
        """See :meth:`StudyFlow.choose`: nothing is recorded until the concept is typed right."""
        assert self.round is not None
        right = self.round.answer_choice(index, now, duration_ms)
        return ChoiceOutcome(right, "now type it" if right else "it comes back soon")

    def type_answer(self, text: str, now: datetime, duration_ms: int) -> TypedOutcome:
        """See :meth:`StudyFlow.type_answer`: typed right, the concept is recorded."""
        assert self.round is not None
        before = len(self.round.records)
        check = self.round.answer_typed(text, now, duration_ms)
        self._record(before)
        self._check = check
        can_override = check.can_override and self.round.can_override
        return TypedOutcome(check, can_override, "learned" if check.right else "it comes back soon")

    def override(self, now: datetime) -> bool:
        """See :meth:`StudyFlow.override`: the near miss completes its concept."""
        if not self.may_override or self.round is None or not self.round.can_override:
            return False
        before = len(self.round.records)
        self.round.override()
        self._record(before)
        self._overridden = True
        return True

    def undo(self) -> Undone:
        """See :meth:`StudyFlow.undo`: within the current round, the store following."""
        if self.round is None or not self.round.can_undo:
            return Undone(False, "Nothing to undo in this round.")
        step = self.round.undo()
        if step.store_undo:
            self.scheduler.undo()
        if step.record is not None:
            self.learn_cards.discard(step.record.card.id)
        if step.action == "bury":
            return Undone(True, "Bury taken back: the concept is back in this round.")
        if step.record is not None:
            grade = GRADE_NAMES[step.record.grade]
            return Undone(True, f"Answer taken back (its record, {grade}, too).")
        return Undone(True, "Answer taken back.")

    def bury(self, now: datetime) -> str | None:
        """See :meth:`StudyFlow.bury`: the concept leaves the round and is buried."""
        if self.round is None or self.question is None:
            return None
        card = self.round.bury(self.question.concept.uid)
        self.scheduler.bury(card, now)
        return "Buried until tomorrow: out of this round."

    # -- counts --------------------------------------------------------------------

    def progress(self) -> Progress:
        """See :meth:`StudyFlow.progress`: concepts saved, concepts left, the round."""
        left = sum(len(r) for r in self.rounds)
        if self.round is not None:
            left += self.round.total - self.round.mastered
        return Progress(len(self.learn_cards), left, f"round {self.round_no}/{self.round_count}")

    @property
    def unsaved(self) -> int:
        """See :attr:`StudyFlow.unsaved`: this round's concepts past choice, not typed right."""
        return 0 if self.round is None else len(self.round.in_progress)

    def summary(self, now: datetime, sitting_seconds: float) -> FlowSummary:
        """See :meth:`StudyFlow.summary`: questions answered, over the wall time of the sitting."""
        studied, correct = self.counts()
        next_due = self.scheduler.next_due(now)
        return FlowSummary(
            studied,
            correct,
            sitting_seconds,
            next_due,
            questions=True,
            saved=len(self.learn_cards),
            unsaved=self.unsaved,
        )

    # -- internals -----------------------------------------------------------------

    def _next_round(self) -> None:
        self._rounds_done = self.counts()
        self.round = None
        while self.rounds:
            concepts = self.rounds.pop(0)
            self.round_no += 1
            try:
                self.round = LearnRound(concepts, self.pool, self.pair, self.rng)
                return
            except ValueError:
                continue

    def _record(self, before: int) -> None:
        """Send the round's records from index ``before`` on to the scheduler."""
        assert self.round is not None
        for record in self.round.records[before:]:
            answer = Answer(
                mode="learn",
                duration_ms=min(record.duration_ms, MAX_ANSWER_MS),
                typed=record.typed,
                correct=record.correct,
                overridden=record.overridden,
            )
            self.scheduler.record(record.card, record.grade, record.at, answer)
            self.learn_cards.add(record.card.id)
