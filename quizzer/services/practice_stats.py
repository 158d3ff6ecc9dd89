"""Practice answers in the statistics: the answers of cram sessions and Match games, which
changed no schedule, counted apart from the scheduled answers (every other figure leaves
them out). They come from the store's tally, kept up to date answer by answer: the
statistics never read the whole log for them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, tzinfo

from quizzer.progress.store import Store
from quizzer.scheduling.studyday import study_day
from quizzer.stats.figures import Stats
from quizzer.stats.sources import practice_sources


def with_practice(
    stats: Stats, store: Store, deck_ids: Iterable[str] | None, now: datetime, tz: tzinfo
) -> Stats:
    """``stats`` with the store's practice answers per mode (all time, the recent study days,
    how many passed), study days in ``tz``; only ``deck_ids``' when given."""
    today = study_day(now, tz, store.settings.day_start_hour)
    wanted = set(deck_ids) if deck_ids is not None else None
    counts = practice_sources(store.stats_tally(tz), today, wanted)
    return replace(stats, practice=counts) if counts else stats
