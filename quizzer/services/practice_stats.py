"""Practice answers in the statistics: the answers of cram sessions and Match games, which
changed no schedule, counted apart from the scheduled answers (every other figure leaves
them out)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from quizzer.stats.definitions import RECENT_SOURCE_DAYS
from quizzer.stats.figures import SourceCount, Stats


def practice_counts(
    store: Any, deck_ids: Iterable[str] | None, now: datetime, days: int = RECENT_SOURCE_DAYS
) -> tuple[SourceCount, ...]:
    """Practice answers per mode (``cram``, ``match``): all time, in the last ``days`` days,
    and how many passed (not Again); only ``deck_ids``' when given. A store that keeps no
    practice has none."""
    practice = getattr(store, "practice", None)
    if not callable(practice):
        return ()
    wanted = set(deck_ids) if deck_ids is not None else None
    since = (now - timedelta(days=days)).timestamp() * 1000
    counts: dict[str, list[int]] = {}
    for event in practice():
        if wanted is not None and event.card.split("/", 1)[0] not in wanted:
            continue
        row = counts.setdefault(event.mode, [0, 0, 0])
        row[0] += 1
        row[1] += event.at >= since
        row[2] += event.grade > 1
    return tuple(SourceCount(mode, *row) for mode, row in sorted(counts.items()))


def with_practice(
    stats: Stats, store: Any, deck_ids: Iterable[str] | None, now: datetime | None
) -> Stats:
    """``stats`` with the store's practice answers (:func:`practice_counts`)."""
    counts = practice_counts(store, deck_ids, now or datetime.now(UTC))
    return replace(stats, practice=counts) if counts else stats
