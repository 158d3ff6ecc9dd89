"""The progress store: every device's answers, undos, buries and settings as events in its own
folder, card states derived from all of them.

Quick use::

    from quizzer.progress import open_store

    with open_store() as store:                     # or open_store("my-store")
        queue = store.due_cards(deck, pairs, now)
        review = store.record(queue.cards[0], 3, now, Answer(duration_ms=4200))
        store.undo()
        log = store.reviews()
"""

from quizzer.errors import StoreError
from quizzer.progress.outcomes import Bury, RecordOutcome
from quizzer.progress.store import Store, open_store

__all__ = ["Bury", "RecordOutcome", "Store", "StoreError", "open_store"]
