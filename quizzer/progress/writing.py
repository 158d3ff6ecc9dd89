"""Writing to an open store: answers, buries, undo, suspension and settings, each one journal line.

Every change is appended to the journal and fsynced before the method returns
(:meth:`~quizzer.progress.opening.OpenedStore._append`), then folded into memory.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from quizzer.cards.card import CardKey
from quizzer.errors import StoreError
from quizzer.progress.journal_events import Change, card_data, plain, review_data
from quizzer.progress.outcomes import Bury, RecordOutcome
from quizzer.progress.reading import ReadingStore, card_key
from quizzer.progress.state import slim_of
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.answer import Answer, answered_review, review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.queue import bury_until
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

#: Answer times the scheduler can work with: intervals up to a century must still be dates.
_EARLIEST, _LATEST = datetime(1970, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC)


def _answer_time(now: datetime) -> datetime:
    """``now`` in UTC; ``ValueError`` for a naive time or one no schedule can follow."""
    if not isinstance(now, datetime):
        raise ValueError(f"now must be a datetime, got {type(now).__name__}")
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be a timezone-aware datetime (UTC)")
    if not _EARLIEST <= now < _LATEST:
        raise ValueError(f"now must lie between 1970 and 9000, got {now.isoformat()}")
    return now.astimezone(UTC)


def _salt() -> str:
    """A random salt for a review id (two processes may answer a card in the same ms)."""
    return os.urandom(4).hex()


class WritingStore(ReadingStore):
    """An open store's writing methods (see :class:`~quizzer.progress.store.Store`)."""

    def set_settings(self, settings: SchedulerSettings) -> None:
        """Change the scheduling settings (durably, like an answer). The card states stay as
        they are here; :class:`~quizzer.progress.store.Store` recomputes them from the log
        when the change affects them."""
        with self._mutex:
            self._append({"op": "settings", "settings": settings.to_dict()})

    def record(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None = None
    ) -> Review:
        """Schedule ``card`` by the answer ``grade`` (1-4) and log it; durable when it returns.

        Returns the logged :class:`Review`; :attr:`last_outcome` (or
        :meth:`record_outcome`) also says whether the answer made the card a leech.
        """
        return self.record_outcome(card, grade, now, answer).review

    def record_outcome(
        self, card: CardKey | str, grade: Grade, now: datetime, answer: Answer | None = None
    ) -> RecordOutcome:
        """Like :meth:`record`, returning a :class:`RecordOutcome` (review, new state, leech)."""

        key = card_key(card)
        if isinstance(grade, bool) or not isinstance(grade, int) or grade not in (1, 2, 3, 4):
            raise ValueError(f"grade must be the whole number 1, 2, 3 or 4, got {grade!r:.40}")
        now = _answer_time(now)
        if answer is not None and not isinstance(answer, Answer):
            raise ValueError(f"answer must be an Answer, got {type(answer).__name__}")
        with self._mutex:
            outcome = self._record(key, grade, now, answer or Answer())
            self.last_outcome = outcome
            return outcome

    def _record(self, key: CardKey, grade: Grade, now: datetime, answer: Answer) -> RecordOutcome:

        card_id = key.id  # built from its parts at each use
        before = self.state.get(card_id)
        outcome = scheduling.answer(
            before or CardState.new(key, now),
            grade,
            now,
            self.settings,
            self.rng,
            tz=self.tz_at(now),
        )
        new = outcome.state
        # A random salt: two processes may answer the same card in the same millisecond.
        rid = review_id(card_id, now, _salt())
        review = answered_review(rid, card_id, grade, now, answer, outcome)
        review_dict = review_data(review.to_dict())

        def fold() -> None:  # before the flush (see _append), with the state's own fold
            self.state.objs[card_id] = new
            if self._live_tally is not None:
                self._live_tally.count([review])
            if self._reviews is not None:
                self._reviews[review.id] = review
                if self._reviews_last is None or review.reviewed_at < self._reviews_last:
                    # Out of order, or already marked so: sort on the next read.
                    self._reviews_last = None
                else:
                    self._reviews_last = review.reviewed_at

        # Built before the write: a failed one leaves it unused.
        done = RecordOutcome(
            review=review,
            state=new.copy(),
            leech=outcome.became_leech,
            suspended=outcome.became_leech and new.suspended,
        )
        self._append({"op": "record", "review": review_dict, "card": slim_of(new)}, fold)
        return done

    def undo(self) -> Review | Bury | None:
        """Take back the last answer or bury: restore the card's state (and remove the log entry).

        Returns the removed review, or the :class:`Bury` taken back (``None`` when
        there is nothing to undo).
        """
        with self._mutex:
            return self._undo()

    def _undo(self) -> Review | Bury | None:
        self._check_writable()
        if not self.state.undo:
            return None
        top = self.state.undo[-1]
        if "bury_id" in top:
            self._append_undo(
                f"the bury of {top['card_id']}",
                {
                    "op": "unbury",
                    "bury_id": top["bury_id"],
                    "card_id": top["card_id"],
                    "restore": top["before"],
                },
            )

            return Bury.from_dict(top["bury"])

        reviews = self._reviews
        removed = Review.from_dict(plain(top["review"]))
        when = removed.reviewed_at.isoformat(timespec="seconds")
        self._append_undo(
            f"the answer to {top['card_id']} at {when}",
            {
                "op": "undo",
                "review_id": top["review_id"],
                "card_id": top["card_id"],
                "restore": top["before"],
                # Which month file holds it, if it was already folded into the log.
                "at": top["review"]["reviewed_at"],
            },
        )
        if reviews is not None:
            reviews.pop(top["review_id"], None)
        if self._live_tally is not None:
            self._live_tally.count([removed], -1)
        return removed

    def _append_undo(self, what: str, event: Change) -> None:
        """Write an undo's journal line; a failure says whether ``what`` was undone.

        The line either was not written (nothing undone) or was written and its flush to
        disk failed: then it is taken back (truncated away, flushed), so that the outcome
        is certain again; only if that fails too is the outcome said to be uncertain.
        """
        assert self._writer is not None
        start = self._writer.end
        try:
            self._append(event)
        except StoreError as exc:
            if self._stopped is not None and not self._cut_journal(start):
                raise StoreError(
                    f"the disk didn't confirm whether {what} is undone ({exc.message})",
                    hint="free some disk space, then see with `quizzer log` whether it is "
                    "still there (if it is, run `quizzer undo` again)",
                    path=exc.path,
                ) from exc
            full = isinstance(exc.__cause__, OSError)  # else: another writer, say, with its hint
            raise StoreError(
                f"{exc.message}; nothing was undone ({what} is kept)",
                hint="free some disk space, then run `quizzer undo` again" if full else exc.hint,
                path=exc.path,
            ) from exc

    def _cut_journal(self, end: int) -> bool:
        """Truncate the journal to ``end`` and flush it; whether that worked."""
        try:
            fd = os.open(self.journal_path, os.O_WRONLY)
            try:
                os.ftruncate(fd, end)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            return False
        return True

    def bury(self, card: CardKey | str, now: datetime) -> Bury:
        """Hide ``card`` until the next study day starts (``day_start_hour`` in ``tz``).

        Durable like an answer (one fsynced journal line) and on the same undo
        stack: :meth:`undo` brings the card back. Answering the card clears the
        bury; a card never studied gets a new-card state that carries it.
        """

        key = card_key(card)
        now = _answer_time(now)
        until = bury_until(now, self.tz_at(now), self.settings)
        bury = Bury(
            id=review_id(key.id, now, _salt()),
            card_id=key.id,
            buried_at=now,
            until=until,
        )
        with self._mutex:
            self._append({"op": "bury", "bury": bury.to_dict()})
        return bury

    def set_suspended(self, card: CardKey | str, suspended: bool, now: datetime) -> CardState:
        """Suspend a card (never due) or bring it back; clears its leech flag when resumed."""

        key = card_key(card)
        st = (self.state.get(key.id) or CardState.new(key, now)).copy()
        st.suspended = suspended
        if not suspended:
            st.leech = False
        with self._mutex:
            self._append({"op": "state", "card_id": key.id, "state": card_data(st.to_dict())})
        return st
