"""A study session: the queue of cards due now, answering, burying, skipping, undo, a summary.

The session only orders cards and keeps counts; scheduling and persistence sit
behind the small :class:`~quizzer.study.session_scheduler.Scheduler` protocol
(:mod:`quizzer.study.session_scheduler`, with :class:`FsrsScheduler`, its in-memory
FSRS-6 implementation).

Queue: learning cards whose step is due, then due reviews, then new cards (daily
limits applied by the scheduler). After an answer, a card due again within
:data:`LEARN_AHEAD` (a missed card's relearning step, a new card's learning
step) comes back later in the same session: as soon as it is due, or early when
nothing else is left, like Anki's learn-ahead.

Every method that acts takes ``now`` (an aware UTC datetime); nothing here reads
the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from quizzer.cards.card import CardKey
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade, Mode
from quizzer.scheduling.review import Review
from quizzer.study.session_scheduler import Scheduler

#: Cards due again within this much of an answer return in the same session.
LEARN_AHEAD = timedelta(minutes=20)
#: Longer thinking times are counted as this much (Anki's "maximum answer seconds").
MAX_ANSWER_MS = 60_000


@dataclass(frozen=True, slots=True)
class Summary:
    """What the end-of-session screen shows.

    ``correct_pct`` is 0–100 over ``answers`` (a typed/choice answer counts by
    whether it was right or overridden; a flip answer by not being Again), or
    ``None`` before any answer. ``time_spent`` adds up answer times (each capped at
    :data:`MAX_ANSWER_MS`). ``next_due`` is when the next card is due after ``now``.
    """

    cards_studied: int
    answers: int
    correct: int
    correct_pct: float | None
    time_spent: timedelta
    next_due: datetime | None


@dataclass(frozen=True, slots=True)
class _Pending:
    """A card answered in the session that comes back at ``due``."""

    due: datetime
    card: CardKey


@dataclass(slots=True)
class _Snapshot:
    kind: Literal["answer", "bury", "skip"]
    queue: list[CardKey]
    later: list[_Pending]
    current: CardKey | None
    shown_at: datetime | None
    revealed: bool
    answered: int


def _counts_as_correct(review: Review) -> bool:
    if review.overridden:
        return True
    if review.correct is not None:
        return review.correct
    return review.passed


@dataclass(slots=True)
class Session:
    """One sitting of study. Build with :meth:`start`.

    The UI shows :attr:`current`; calls :meth:`reveal`, then :meth:`answer` (or
    :meth:`bury`, :meth:`skip`); :meth:`undo` steps back one action; ``done`` and
    ``left`` feed the progress bar; :meth:`summary` ends it.
    """

    scheduler: Scheduler
    mode: Mode
    started_at: datetime
    queue: list[CardKey] = field(default_factory=list)
    later: list[_Pending] = field(default_factory=list)
    current: CardKey | None = None
    revealed: bool = False
    shown_at: datetime | None = None
    reviews: list[Review] = field(default_factory=list)
    _history: list[_Snapshot] = field(default_factory=list)

    @classmethod
    def start(cls, scheduler: Scheduler, now: datetime, mode: Mode = "flip") -> Session:
        """A session over what ``scheduler`` says is due at ``now``."""
        session = cls(scheduler=scheduler, mode=mode, started_at=now)
        seen: set[str] = set()
        for card in scheduler.due(now):
            if card.id not in seen:
                seen.add(card.id)
                session.queue.append(card)
        session._advance(now)
        return session

    # -- state -----------------------------------------------------------------

    @property
    def done(self) -> int:
        """Answers given in this session (a card that came back counts again)."""
        return len(self.reviews)

    @property
    def left(self) -> int:
        """Cards still to show, the current one and those coming back included."""
        return len(self.queue) + len(self.later) + (1 if self.current is not None else 0)

    @property
    def finished(self) -> bool:
        """Nothing left to study."""
        return self.current is None

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` has something to revert."""
        return bool(self._history)

    # -- actions ---------------------------------------------------------------

    def show(self, now: datetime) -> None:
        """The current card just appeared on screen: start its answer timer at ``now``."""
        self.shown_at = now

    def reveal(self) -> None:
        """Flip the current card (flip mode) or mark the answer as shown."""
        self._require_card()
        self.revealed = True

    def answer(
        self,
        grade: Grade,
        now: datetime,
        *,
        typed: str | None = None,
        correct: bool | None = None,
        overridden: bool = False,
        mode: Mode | None = None,
    ) -> Review:
        """Grade the current card at ``now`` and move on; returns the recorded review.

        A card due again within :data:`LEARN_AHEAD` comes back later in the session.
        """
        card = self._require_card()
        self._snapshot("answer")
        duration = 0
        if self.shown_at is not None:
            duration = int((now - self.shown_at).total_seconds() * 1000)
        answer = Answer(
            mode=mode or self.mode,
            duration_ms=max(0, min(duration, MAX_ANSWER_MS)),
            typed=typed,
            correct=correct,
            overridden=overridden,
        )
        review = self.scheduler.record(card, grade, now, answer)
        self.reviews.append(review)
        self.current = None
        if review.due is not None and review.due - now <= LEARN_AHEAD:
            self.later.append(_Pending(review.due, card))
        self._advance(now)
        return review

    def override(self, grade: Grade, now: datetime) -> Review:
        """ "I was right": take the last answer back and record it again as ``grade``,
        judged correct and marked overridden, with the same typed text.

        Raises ``ValueError`` when the last step wasn't an answer or was already overridden.
        """
        if not self._history or self._history[-1].kind != "answer" or not self.reviews:
            raise ValueError("there is no answer to override")
        last = self.reviews[-1]
        if last.overridden:
            raise ValueError("the last answer was already overridden")
        self.undo()
        return self.answer(grade, now, typed=last.typed, correct=True, overridden=True)

    def bury(self, now: datetime) -> None:
        """Hide the current card until the next study day and move on."""
        card = self._require_card()
        self._snapshot("bury")
        self.scheduler.bury(card, now)
        self.current = None
        self._advance(now)

    def skip(self, now: datetime) -> None:
        """Put the current card at the back of the queue, recording nothing."""
        card = self._require_card()
        self._snapshot("skip")
        self.current = None
        self.queue.append(card)
        self._advance(now)

    def undo(self) -> CardKey:
        """Revert the last answer, bury or skip; returns the card shown again.

        Raises ``IndexError`` when there is nothing to undo.
        """
        if not self._history:
            raise IndexError("nothing to undo")
        snap = self._history.pop()
        if snap.kind in ("answer", "bury"):
            self.scheduler.undo()
        if snap.kind == "answer":
            self.reviews.pop()
        self.queue = snap.queue
        self.later = snap.later
        self.current = snap.current
        self.shown_at = snap.shown_at
        self.revealed = snap.revealed
        assert self.current is not None
        return self.current

    def summary(self, now: datetime) -> Summary:
        """Counts for the end-of-session screen, and when the next card is due after ``now``."""
        answers = len(self.reviews)
        correct = sum(_counts_as_correct(r) for r in self.reviews)
        spent = sum(r.duration_ms for r in self.reviews)
        return Summary(
            cards_studied=len({r.card_id for r in self.reviews}),
            answers=answers,
            correct=correct,
            correct_pct=100.0 * correct / answers if answers else None,
            time_spent=timedelta(milliseconds=spent),
            next_due=self.scheduler.next_due(now),
        )

    # -- internals -------------------------------------------------------------

    def _require_card(self) -> CardKey:
        if self.current is None:
            raise RuntimeError("the session has no current card")
        return self.current

    def _snapshot(self, kind: Literal["answer", "bury", "skip"]) -> None:
        self._history.append(
            _Snapshot(
                kind,
                list(self.queue),
                list(self.later),
                self.current,
                self.shown_at,
                self.revealed,
                len(self.reviews),
            )
        )

    def _advance(self, now: datetime) -> None:
        """Choose the next card: a returning card that is due, else the queue, else learn ahead."""
        self.revealed = False
        self.shown_at = now
        self.later.sort(key=lambda p: (p.due, p.card.id))
        if self.later and self.later[0].due <= now:
            self.current = self.later.pop(0).card
        elif self.queue:
            self.current = self.queue.pop(0)
        elif self.later:
            self.current = self.later.pop(0).card
        else:
            self.current = None
