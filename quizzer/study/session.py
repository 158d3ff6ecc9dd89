"""A study session: the queue of cards due now, answering, burying, skipping, undo, a summary.

The session only orders cards and keeps counts; scheduling and persistence sit
behind the small :class:`Scheduler` protocol. :class:`FsrsScheduler` implements
it in memory on top of :mod:`quizzer.scheduling.scheduler` (FSRS-6); a store adapter
can wrap it and persist each review and card state it produces.

Queue: learning cards whose step is due, then due reviews, then new cards (daily
limits applied by the scheduler). After an answer, a card due again within
:data:`LEARN_AHEAD` (a missed card's relearning step, a new card's learning
step) comes back later in the same session: as soon as it is due, or early when
nothing else is left, like Anki's learn-ahead.

Every method that acts takes ``now`` (an aware UTC datetime); nothing here reads
the clock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Literal, Protocol

from quizzer.cards.card import CardKey
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.answer import Answer, answered_review, review_id
from quizzer.scheduling.review import Grade, Mode, Review

#: Cards due again within this much of an answer return in the same session.
LEARN_AHEAD = timedelta(minutes=20)
#: Longer thinking times are counted as this much (Anki's "maximum answer seconds").
MAX_ANSWER_MS = 60_000


class Scheduler(Protocol):
    """What a session needs from scheduling and storage."""

    def due(self, now: datetime) -> Sequence[CardKey]:
        """The cards to study at ``now``, in order: due learning, due reviews, new (limited)."""
        ...

    def record(self, card: CardKey, grade: Grade, now: datetime, answer: Answer) -> Review:
        """Apply and keep one answer; the returned review's ``due`` is when the card is next due."""
        ...

    def bury(self, card: CardKey, now: datetime) -> None:
        """Hide ``card`` until the next study day."""
        ...

    def undo(self) -> None:
        """Revert the last :meth:`record` or :meth:`bury` (review deleted, state restored)."""
        ...

    def next_due(self, now: datetime) -> datetime | None:
        """When the earliest card not due at ``now`` will be (``None`` if none is scheduled)."""
        ...


class FsrsScheduler:
    """:class:`Scheduler` in memory, on :mod:`quizzer.scheduling.scheduler` (FSRS-6).

    ``cards`` are the deck's cards for the chosen pair in deck order; ``states``
    the known card states (missing ones are new; the mapping is copied).
    ``today`` holds answers already given today, counted against the limits.
    After answers, :attr:`states` and :attr:`reviews` hold what to persist.
    """

    def __init__(
        self,
        cards: Sequence[CardKey],
        states: Mapping[str, scheduling.CardState],
        settings: scheduling.SchedulerSettings,
        tz: tzinfo,
        rng: random.Random,
        today: scheduling.TodayCounts | None = None,
    ) -> None:
        self.cards = tuple(cards)
        self.states: dict[str, scheduling.CardState] = {k: s.copy() for k, s in states.items()}
        self.settings = settings
        self.tz = tz
        self.rng = rng
        self.today = today
        self.reviews: list[Review] = []
        self._undo: list[tuple[str, scheduling.CardState | None, Review | None]] = []

    def due(self, now: datetime) -> Sequence[CardKey]:
        """See :meth:`Scheduler.due`."""
        return self.due_queue(now).cards

    def due_queue(self, now: datetime) -> scheduling.DueQueue:
        """The due queue split into learning, review and new cards (learn mode takes ``new``)."""
        return scheduling.due_queue(
            self.cards, self.states, now, self.tz, self.settings, self.today
        )

    def _state(self, card: CardKey, now: datetime) -> scheduling.CardState:
        state = self.states.get(card.id)
        return state.copy() if state is not None else scheduling.CardState.new(card, now)

    def record(self, card: CardKey, grade: Grade, now: datetime, answer: Answer) -> Review:
        """See :meth:`Scheduler.record`."""
        before = self.states.get(card.id)
        outcome = scheduling.answer(self._state(card, now), grade, now, self.settings, self.rng)
        rid = review_id(card.id, now, len(self.reviews))
        review = answered_review(rid, card.id, grade, now, answer, outcome)
        self.states[card.id] = outcome.state
        self.reviews.append(review)
        self._undo.append((card.id, before, review))
        return review

    def bury(self, card: CardKey, now: datetime) -> None:
        """See :meth:`Scheduler.bury`."""
        before = self.states.get(card.id)
        state = self._state(card, now)
        state.buried_until = scheduling.bury_until(now, self.tz, self.settings)
        self.states[card.id] = state
        self._undo.append((card.id, before, None))

    def undo(self) -> None:
        """See :meth:`Scheduler.undo`."""
        if not self._undo:
            raise IndexError("nothing to undo")
        card_id, before, review = self._undo.pop()
        if before is None:
            self.states.pop(card_id, None)
        else:
            self.states[card_id] = before
        if review is not None:
            self.reviews.remove(review)

    def next_due(self, now: datetime) -> datetime | None:
        """See :meth:`Scheduler.next_due`."""
        return scheduling.next_due(self.states.values(), now)


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
