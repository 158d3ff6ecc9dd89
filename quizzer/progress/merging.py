"""Adding a batch of answers from elsewhere (``quizzer merge``) to an open store, all or nothing.

Appending the batch line by line would leave half of it behind if the process were
killed midway: every line already written is a good line. Instead the store is
compacted first (its journal then holds only the header of its generation), and a new
journal — that header, one ``review`` event per added answer, one ``state`` event per
recomputed card — is written to a temp file, fsynced and renamed over the journal.
Before the rename the store is what it was; after it, opening replays the whole batch.
The store is then compacted again, which folds the batch into the month files.
``review`` events are what the schema-1 migration already writes for imported history
(folded into the month files by the next compaction), ``state`` events what
:meth:`~quizzer.progress.writing.WritingStore.set_suspended` writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import quizzer.progress.journal as journal
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes
from quizzer.progress.journal import JournalWriter
from quizzer.progress.journal_events import Event, card_data, review_data
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review

if TYPE_CHECKING:
    from quizzer.progress.writing import WritingStore

#: Called as ``on_progress(done, total)`` while the batch is written.
ProgressCallback = Callable[[int, int], None]
_TICK = 2000


def _events(
    store: WritingStore, reviews: Sequence[Review], states: Iterable[CardState]
) -> list[Event]:
    seq = store.state.seq
    events: list[Event] = []
    for review in reviews:
        seq += 1
        events.append({"op": "review", "review": review_data(review.to_dict()), "seq": seq})
    for state in states:
        seq += 1
        data = card_data(state.to_dict())
        events.append({"op": "state", "card_id": state.card_id, "state": data, "seq": seq})
    return events


def append_batch(
    store: WritingStore,
    reviews: Sequence[Review],
    states: Sequence[CardState],
    on_progress: ProgressCallback | None = None,
) -> None:
    """Add ``reviews`` to the log and set ``states``, durably and atomically.

    Reviews whose id the log already holds are the caller's to leave out (the month
    files are keyed by id, so they would not be doubled, but the caller's counts would be
    wrong). ``on_progress(done, total)`` ticks while the journal is encoded.
    """
    with store._mutex:
        store._check_writable()
        if not reviews and not states:
            return
        store.reviews()  # the log in memory before the journal changes under it
        store.compact()  # the journal is now its header alone: nothing of it can be lost
        events = _events(store, reviews, states)
        total = len(events)
        chunks = [journal.encode(journal.header_event(store.state.gen))]
        for done, event in enumerate(events, start=1):
            chunks.append(journal.encode(event))
            if on_progress and (done % _TICK == 0 or done == total):
                on_progress(done, total)
        data = b"".join(chunks)
        assert store._writer is not None
        store._writer.close()
        store._writer = None
        try:
            atomic_write_bytes(store.journal_path, data)
        except OSError as exc:
            store._writer = JournalWriter(store.journal_path, store._header_end)
            raise StoreError(
                f"can't write the merged answers: {exc.strerror or exc}",
                hint="check free disk space; the store is as it was before the merge",
                path=store.journal_path,
            ) from exc
        store._writer = JournalWriter(store.journal_path, len(data))
        store._mark()  # the lock file's mark of the journal's acknowledged end
        for event in events:
            store.state.apply(event)
        # Undoing an answer given before the merge would restore a state without the merged
        # history: those cards' entries leave the undo stack (kept so by compacting now).
        touched = {state.card_id for state in states}
        store.state.undo = [e for e in store.state.undo if e["card_id"] not in touched]
        if store._live_tally is not None:
            store._live_tally.count(reviews)
        log = store._reviews
        if log is not None:
            for review in reviews:
                log[review.id] = review
            store._reviews_last = None  # sort again on the next read
        store.compact()
