"""A store with three months of answers, as the damage tests need it (real files on disk).

Two compacted sessions (July, then August and early September) and five answers
left in the journal (September) by a session that ended like a kill: every answer
fsynced, no compaction. :func:`build` returns the ids of every acknowledged answer.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import Store, open_store
from quizzer.scheduling.grades import Grade

PAIR = Pair("ru", "term", "bn", "definition")
JULY = datetime(2026, 7, 3, 9, 0, tzinfo=UTC)
AUGUST = datetime(2026, 8, 2, 9, 0, tzinfo=UTC)
SEPTEMBER = datetime(2026, 9, 20, 9, 0, tzinfo=UTC)
#: When the tests' writer answers (after everything :func:`build` recorded).
LATER = datetime(2026, 9, 25, 9, 0, tzinfo=UTC)


def card(i: int) -> CardKey:
    """The ``i``-th card of the made-up deck."""
    return CardKey(f"training-efficiency/c{i:03d}", PAIR)


def open_db(db: Path, **kw: object) -> Store:
    """Open ``db`` in UTC with a seeded rng (interval fuzz repeats)."""
    return open_store(db, tz=UTC, rng=random.Random(7), **kw)  # type: ignore[arg-type]


def abandon(store: Store) -> None:
    """End a session the way a kill does: nothing compacted, the lock and journal let go."""
    store._release()
    store._closed = True


#: The four grades, Again to Easy.
GRADES: tuple[Grade, ...] = (1, 2, 3, 4)


def build(db: Path, *, july: int = 12, august: int = 20, pending: int = 5) -> list[str]:
    """Make the store at ``db``; the ids of its acknowledged answers, oldest first."""
    ids: list[str] = []
    with open_db(db) as store:
        for i in range(july):
            ids.append(store.record(card(i), GRADES[i % 4], JULY + timedelta(hours=i)).id)
    with open_db(db) as store:
        store.stats_tally()  # kept up to date from here on, then saved as P.stats at the close
        for i in range(august):
            ids.append(store.record(card(i), GRADES[i % 4], AUGUST + timedelta(hours=i)).id)
        ids.append(store.record(card(0), 3, SEPTEMBER - timedelta(days=5)).id)
    store = open_db(db)
    for i in range(pending):
        ids.append(store.record(card(i + 1), 3, SEPTEMBER + timedelta(minutes=i)).id)
    abandon(store)
    return ids


def contents(store: Path) -> dict[str, bytes]:
    """Every file of the store folder ``store`` and its bytes (what a refused change must
    leave as it was)."""
    return {
        str(path.relative_to(store)): path.read_bytes()
        for path in sorted(store.rglob("*"))
        if path.is_file()
    }
