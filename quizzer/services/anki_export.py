"""Read what ``--with-progress`` needs from the progress store: card states and review log."""

from __future__ import annotations

import os
from datetime import UTC, datetime, tzinfo

from quizzer.errors import StoreError
from quizzer.paths import default_db_path
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review


def read_store(
    db: str | os.PathLike[str] | None = None, now: datetime | None = None
) -> tuple[dict[str, CardState], list[Review], tzinfo]:
    """``(states, reviews, tz)`` from the store at ``db`` (default: ``$QUIZZER_DB`` / user dir).

    Only studied cards are returned; ``tz`` is the learner's time zone for study
    days. The store is opened read-only, so a running quiz doesn't block an export.
    """
    from quizzer.progress import open_store
    from quizzer.progress.files import store_exists

    path = default_db_path(db)
    if not store_exists(path):  # a journal alone is a store a crash left before compacting
        raise StoreError(
            "no progress store to export progress from",
            hint="study some cards first, or point --db at your progress file",
            path=path,
        )
    with open_store(path, read_only=True) as store:
        reviews = store.reviews()
        states = {card.card_id: card for card in store.cards() if not card.is_new}
        tz = store.tz_at(now or datetime.now(UTC))
    return states, reviews, tz
