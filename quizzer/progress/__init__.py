"""The progress store: card states, the review log and settings on disk, crash-safe and fast.

Quick use::

    from quizzer.progress import open_store

    with open_store() as store:                     # or open_store("progress.json")
        queue = store.due_cards(deck, pairs, now)
        review = store.record(queue.cards[0], 3, now, Answer(duration_ms=4200))
        store.undo()
        log = store.reviews()
"""

from quizzer.errors import StoreError
from quizzer.progress.files import backup_path, journal_path, lock_path
from quizzer.progress.outcomes import Bury, RecordOutcome
from quizzer.progress.schema import SCHEMA_VERSION
from quizzer.progress.store import Store, open_store

__all__ = [
    "SCHEMA_VERSION",
    "Bury",
    "RecordOutcome",
    "Store",
    "StoreError",
    "backup_path",
    "journal_path",
    "lock_path",
    "open_store",
]
