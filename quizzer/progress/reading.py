"""Reading an open store: card states, due cards, today's counts, previews and the review log."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.progress.opening import OpenedStore
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.limits import TodayCounts, count_today
from quizzer.scheduling.queue import DueQueue, QueueFacts, due_queue_of_facts
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

if TYPE_CHECKING:
    from tinydb import TinyDB

    from quizzer.concepts.deck import Deck


def card_key(card: CardKey | str) -> CardKey:
    """``card`` as a :class:`CardKey` (a card id string is parsed)."""
    return card if isinstance(card, CardKey) else CardKey.parse(card)


class ReadingStore(OpenedStore):
    """An open store's reading methods (see :class:`~quizzer.progress.store.Store`)."""

    @property
    def settings(self) -> SchedulerSettings:
        """The scheduling settings stored with this progress."""
        return self.state.settings

    def tz_at(self, now: datetime) -> tzinfo:
        """The time zone study days are counted in (kept for callers that pass a moment)."""
        return self.tz

    def card(self, card: CardKey | str) -> CardState | None:
        """A card's state (a copy), ``None`` if it was never studied."""
        st = self.state.get(card_key(card).id)
        return st.copy() if st else None

    def cards(self) -> Iterator[CardState]:
        """Every studied card's state (copies)."""
        for card_id in list(self.state.raw):
            st = self.state.get(card_id)
            if st is not None:
                yield st.copy()

    def __len__(self) -> int:
        return len(self.state.raw)

    def today(self, deck: str, now: datetime) -> TodayCounts:
        """Answers given in ``deck`` during the study day of ``now``."""
        answers = ((r[1], datetime.fromisoformat(r[2]), r[3]) for r in self.state.recent)
        return count_today(answers, deck, now, self.tz_at(now), self.settings)

    def due_cards(
        self,
        deck: Deck,
        pairs: Iterable[Pair],
        now: datetime,
        candidates: Sequence[CardKey] | None = None,
    ) -> DueQueue:
        """What to study now in ``deck`` for the given directions, honouring limits and burying.

        Cards exist for every concept that has both texts of a pair, and they differ
        (:func:`quizzer.cards.card.has_card`); those never studied count as new.
        ``candidates`` are those cards in deck order when the caller knows them.
        """
        pairs = list(pairs)
        if candidates is None:
            candidates = [
                CardKey(concept.uid, pair)
                for concept in deck.concepts
                for pair in pairs
                if has_card(concept, pair)
            ]
        ids = [key.id for key in candidates]
        recent = [entry[1] for entry in self.state.recent]
        # One parse of the records these cards and today's answers need (a lazy table).
        self.state.raw.prefetch(ids + recent)
        # Only what the queue reads of each card (checked); the cards queued are then read
        # whole, so a damaged one stops the session before it shows.
        facts: dict[str, QueueFacts] = {}
        for card_id in (*ids, *recent):
            if card_id not in facts:
                found = self.state.facts(card_id)
                if found is not None:
                    facts[card_id] = found
        queue = due_queue_of_facts(
            candidates,
            facts,
            now,
            self.tz_at(now),
            self.settings,
            self.today(deck.id, now),
            ids,
        )
        for key in queue.cards:
            self.state.get(key.id)
        return queue

    def preview(self, card: CardKey | str, now: datetime) -> dict[int, timedelta]:
        """The interval each grade 1-4 would give ``card`` at ``now`` (no fuzz)."""
        key = card_key(card)
        st = self.state.get(key.id) or CardState.new(key, now)
        return scheduling.preview(st, now, self.settings, tz=self.tz_at(now))

    def reviews(self, card: CardKey | str | None = None) -> list[Review]:
        """The review log, oldest first (undone answers removed); only ``card``'s if given.

        The first call reads the month files of the log and the journal since the
        last compaction; later calls are served from memory.
        """
        # The month files' reader: the statistics and the doctor read the log, the quiz doesn't.
        from quizzer.progress.history import read_log

        with self._mutex:
            if self._reviews is None:
                self._reviews = read_log(self.path, self.state.gen, self.state.months)
                self._reviews_last = None  # read in time order: set below
            elif self._reviews_last is None:
                self._reviews.sort()  # an answer recorded out of time order
            log = self._reviews.values()
            if self._reviews_last is None and log:
                self._reviews_last = log[-1].reviewed_at
            if card is None:
                return list(log)
            card_id = card_key(card).id
            return [r for r in log if r.card_id == card_id]

    def reviews_db(self) -> TinyDB:
        """The review log as a read-only TinyDB database (table ``reviews``), for queries::

        from tinydb import Query
        store.reviews_db().table("reviews").search(Query().grade == 1)
        """
        # TinyDB's query layer and the log's reader: only for queries over the whole log.
        from tinydb import TinyDB

        from quizzer.progress.history import ReviewLogStorage

        log = self.reviews()
        return TinyDB(storage=ReviewLogStorage, reviews=[r.to_dict() for r in log])

    def without_undone(
        self, reviews: Iterable[Review], slack: timedelta = timedelta(0)
    ) -> list[Review]:
        """``reviews`` less the answers undone in this store, which a merge must not bring back.

        An undone answer is known by its id, or, come back through another program under
        an id of its own (an Anki package), as an answer to its card at its time, up to
        ``slack`` later (that program may have moved it a little to keep its ids apart).
        """
        undone = self.state.undone
        if not undone:
            return list(reviews)
        ids = {entry[0] for entry in undone}
        times: dict[str, list[datetime]] = defaultdict(list)
        for _, card_id, at in undone:
            times[card_id].append(datetime.fromisoformat(at))
        # Times in other programs are often whole milliseconds, cut down from ours.
        early = timedelta(milliseconds=1)
        return [
            r
            for r in reviews
            if r.id not in ids
            and not any(t - early <= r.reviewed_at <= t + slack for t in times.get(r.card_id, ()))
        ]

    @property
    def undo_depth(self) -> int:
        """How many answers and buries :meth:`undo` can still take back."""
        return len(self.state.undo)
