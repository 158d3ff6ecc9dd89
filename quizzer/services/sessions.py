"""A study session on the progress store: the flow a study screen drives, recording as it goes.

:class:`StoreScheduler` implements the core's ``Scheduler`` protocol on the store, so every
answer is on disk when the next card shows. The study screen imports this module when it is
pushed; the home screen, which only counts cards, never needs the study engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.progress import Bury
from quizzer.progress.events import Practice
from quizzer.scheduling.grades import GRADE_NAMES, Grade
from quizzer.scheduling.queue import DueQueue, next_due
from quizzer.scheduling.review import Review
from quizzer.scheduling.scheduler import format_interval
from quizzer.services.study import StudyService, utcnow
from quizzer.study.flow import SessionFlow, StudyFlow, queue_kinds
from quizzer.study.selection import StudyChoice
from quizzer.study.session import Session

if TYPE_CHECKING:
    from quizzer.progress import Store
    from quizzer.scheduling.answer import Answer


class StoreScheduler:
    """The core ``Scheduler`` protocol on the progress store, for one deck and one pair (or
    several, ``pairs``, in the order picked).

    Answers and buries go to the store, durably; undo is the store's own.
    """

    def __init__(self, store: Store, deck: Deck, pair: Pair, pairs: Sequence[Pair] = ()) -> None:
        self.store = store
        self.deck = deck
        self.pair = pair
        self.pairs: tuple[Pair, ...] = tuple(pairs) or (pair,)
        #: Called with (card, suspended) when an answer makes ``card`` a leech.
        self.on_leech: Callable[[CardKey, bool], None] | None = None
        #: What :meth:`undo` took back last: the store's Review or Bury.
        self.last_undone: Review | object | None = None
        # The last queue and its moment: starting a session asks for the same queue twice
        # (its cards, and their kinds for the header); any change forgets it.
        self._queue: tuple[datetime, DueQueue] | None = None

    #: The deck's cards in this direction (``None``: the store finds them in the deck).
    cards: Callable[[datetime], DueQueue] | None = None

    def due_queue(self, now: datetime) -> DueQueue:
        """The due queue at ``now``: learning, review and new cards (daily limits applied)."""
        if self._queue is None or self._queue[0] != now:
            due = self.cards or (lambda at: self.store.due_cards(self.deck, self.pairs, at))
            self._queue = (now, due(now))
        return self._queue[1]

    def due(self, now: datetime) -> Sequence[CardKey]:
        """Due learning cards, due reviews, then new cards (daily limits applied)."""
        return list(self.due_queue(now).cards)

    def record(self, card: CardKey, grade: Grade, now: datetime, answer: Answer) -> Review:
        """Record durably through the store; tell :attr:`on_leech` if the answer made a leech."""
        self._queue = None
        outcome = self.store.record_outcome(card, grade, now, answer)
        if outcome.leech and self.on_leech is not None:
            self.on_leech(card, bool(outcome.suspended))
        return outcome.review

    def bury(self, card: CardKey, now: datetime) -> None:
        """Hide ``card`` until the next study day."""
        self._queue = None
        self.store.bury(card, now)

    def undo(self) -> None:
        """Take back the last record or bury; :attr:`last_undone` says which it was."""
        self._queue = None
        self.last_undone = self.store.undo()

    def undone_message(self) -> str:
        """What the last :meth:`undo` took back, for the learner."""
        undone = self.last_undone
        if isinstance(undone, Bury):
            return "Bury taken back: the card is here again."
        if isinstance(undone, Review):
            return f"Answer taken back ({GRADE_NAMES.get(undone.grade, undone.grade)})."
        return "Taken back."

    def next_due(self, now: datetime) -> datetime | None:
        """The earliest due time after ``now`` among this deck's cards for the pairs.

        Looks up the deck's cards one by one (O(deck)), not every card in the store.
        """
        states = (
            self.store.card(CardKey(c.uid, pair)) for c in self.deck.concepts for pair in self.pairs
        )
        return next_due((s for s in states if s is not None), now)


class CramScheduler:
    """The core ``Scheduler`` protocol for practice ("cram"): it serves ``cards`` until each
    is answered right once (an Again brings the card back a minute later), logs each answer
    as practice (mode ``cram``) and changes no card's state, due date or FSRS fit. Undo takes
    back the last practice answer; burying only moves on (a bury would change the schedule).
    """

    def __init__(self, store: Store, cards: Sequence[CardKey]) -> None:
        self.store = store
        self.cards = list(cards)
        self._answered = 0
        #: One entry per answer (``True``) and bury (``False``) of this session, for undo.
        self._steps: list[bool] = []
        self._taken: object = None

    def due(self, now: datetime) -> Sequence[CardKey]:
        """Every card of the practice, in order."""
        return list(self.cards)

    def record(self, card: CardKey, grade: Grade, now: datetime, answer: Answer) -> Review:
        """Log ``grade`` as practice; the review says when the card comes back (Again: in a
        minute, within the session), else that it is done."""
        self.store.record_practice(card, grade, now, answer, "cram")
        self._steps.append(True)
        self._answered += 1
        return Review(
            id=f"practice-{self._answered}",
            card_id=card.id,
            reviewed_at=now,
            grade=grade,
            mode=answer.mode,
            duration_ms=answer.duration_ms,
            due=now + AGAIN_IN if grade == 1 else None,
            typed=answer.typed,
            correct=answer.correct,
            overridden=answer.overridden,
        )

    def bury(self, card: CardKey, now: datetime) -> None:
        """Nothing in the store: practice changes no schedule (the session moves on)."""
        self._steps.append(False)

    def undo(self) -> None:
        """Take back the last step: a practice answer is taken back in the store (a tombstone,
        as for any answer); a bury wrote nothing, so there is nothing to take back."""
        self._taken = None
        if self._steps and self._steps.pop():
            self._taken = self.store.undo()

    def undone_message(self) -> str:
        """What :meth:`undo` took back, for the learner."""
        if isinstance(self._taken, Practice):
            return "Practice answer taken back."
        return "Taken back."

    def next_due(self, now: datetime) -> datetime | None:
        """No schedule: practice has no next due time."""
        return None


def record_match(
    service: StudyService, pair: Pair, grades: Sequence[tuple[str, int]], now: datetime
) -> None:
    """Log a finished Match game as practice (mode ``match``): each concept's card in
    ``pair`` with its grade. No schedule changes."""
    for concept_uid, grade in grades:
        if concept_uid:
            card = CardKey(concept_uid, pair)
            service.store.record_practice(card, cast(Grade, grade), now, None, "match")


#: When a card answered Again in practice comes back.
AGAIN_IN = timedelta(minutes=1)


def store_scheduler(service: StudyService, choice: StudyChoice) -> StoreScheduler:
    """A store-backed scheduler for ``choice``, serving the service's due cards."""
    deck = service.deck_for(choice)
    scheduler = StoreScheduler(service.store, deck, choice.pair, choice.pairs)
    scheduler.cards = lambda now: service.queue_for(choice, now)
    return scheduler


def start_flow(
    service: StudyService,
    choice: StudyChoice,
    now: datetime,
    on_leech: Callable[[CardKey, bool], None] | None = None,
) -> StudyFlow:
    """The study flow for ``choice`` at ``now``, recording to the store as it goes.

    Learn mode gets rounds over today's new concepts (due reviews are for flip,
    choice and typed modes); the others a session over what is due.
    ``on_leech`` hears of an answer that made a card a leech.
    """
    if choice.cram is not None:
        deck = service.deck_for(choice)
        cram = CramScheduler(service.store, service.cram_cards(choice, now))
        asked: Any = "flip" if choice.mode in ("learn", "match") else choice.mode
        session = Session.start(cram, now, asked)
        # No kinds: practice has no new, learning or due cards, only done and left.
        return SessionFlow(session, deck, asked, service.rng, cram.undone_message)
    scheduler = store_scheduler(service, choice)
    scheduler.on_leech = on_leech
    deck = scheduler.deck
    if choice.mode == "learn":
        # Learn mode's modules (its multiple choice and typed-answer matching, with
        # rapidfuzz) are imported when a learn session starts: a flip session's first
        # card does without them (5% of its instructions, 50k deck + 100k-card store).
        from quizzer.study.flow_learn import LearnFlow
        from quizzer.study.learn_plan import learn_rounds

        queue = service.queue_for(choice, now)
        # A round asks one direction: the first picked that has new cards today (a later
        # one's come once the ladder lets them, in a later session).
        pair = next((p for p in choice.pairs if any(k.pair == p for k in queue.new)), choice.pair)
        queue = replace(queue, new=tuple(k for k in queue.new if k.pair == pair))
        rounds = learn_rounds(queue, deck.concepts)
        return LearnFlow(rounds, deck.concepts, pair, service.rng, scheduler)

    stage: Any = choice.mode
    # The queue tells learning from due cards, for the header's counts.
    kinds = queue_kinds(scheduler.due_queue(now))
    session = Session.start(scheduler, now, stage)
    return SessionFlow(session, deck, stage, service.rng, scheduler.undone_message, kinds=kinds)


def intervals(service: StudyService, card: CardKey, now: datetime | None = None) -> dict[int, str]:
    """The interval label each grade would give ``card`` now."""
    preview = service.store.preview(card, now or utcnow())
    return {grade: format_interval(delta) for grade, delta in preview.items()}
