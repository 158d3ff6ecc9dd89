"""What a study session needs from scheduling and storage, and the in-memory FSRS-6 answer.

:class:`Scheduler` is the protocol a :class:`~quizzer.study.session.Session` talks
to; :class:`FsrsScheduler` implements it in memory on top of
:mod:`quizzer.scheduling` (FSRS-6); a store adapter can wrap it and persist each
review and card state it produces.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Protocol

from quizzer.cards.card import CardKey
from quizzer.scheduling import scheduler
from quizzer.scheduling.answer import Answer, answered_review, review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.limits import TodayCounts
from quizzer.scheduling.queue import DueQueue, bury_until, due_queue, next_due
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings


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
    """:class:`Scheduler` in memory, on :mod:`quizzer.scheduling` (FSRS-6).

    ``cards`` are the deck's cards for the chosen pair in deck order; ``states``
    the known card states (missing ones are new; the mapping is copied).
    ``today`` holds answers already given today, counted against the limits.
    After answers, :attr:`states` and :attr:`reviews` hold what to persist.
    """

    def __init__(
        self,
        cards: Sequence[CardKey],
        states: Mapping[str, CardState],
        settings: SchedulerSettings,
        tz: tzinfo,
        rng: random.Random,
        today: TodayCounts | None = None,
    ) -> None:
        self.cards = tuple(cards)
        self.states: dict[str, CardState] = {k: s.copy() for k, s in states.items()}
        self.settings = settings
        self.tz = tz
        self.rng = rng
        self.today = today
        self.reviews: list[Review] = []
        self._undo: list[tuple[str, CardState | None, Review | None]] = []

    def due(self, now: datetime) -> Sequence[CardKey]:
        """See :meth:`Scheduler.due`."""
        return self.due_queue(now).cards

    def due_queue(self, now: datetime) -> DueQueue:
        """The due queue split into learning, review and new cards (learn mode takes ``new``)."""
        return due_queue(self.cards, self.states, now, self.tz, self.settings, self.today)

    def _state(self, card: CardKey, now: datetime) -> CardState:
        state = self.states.get(card.id)
        return state.copy() if state is not None else CardState.new(card, now)

    def record(self, card: CardKey, grade: Grade, now: datetime, answer: Answer) -> Review:
        """See :meth:`Scheduler.record`."""
        before = self.states.get(card.id)
        outcome = scheduler.answer(
            self._state(card, now), grade, now, self.settings, self.rng, tz=self.tz
        )
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
        state.buried_until = bury_until(now, self.tz, self.settings)
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
        return next_due(self.states.values(), now)
