"""Practice answers in the statistics: the answers of cram sessions and Match games, which
changed no schedule, counted apart from the scheduled answers (every other figure leaves
them out). They come from the store's tally, kept up to date answer by answer: the
statistics never read the whole log for them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date

from quizzer.stats.figures import Stats
from quizzer.stats.sources import practice_sources
from quizzer.stats.tally import Tally


def with_practice(stats: Stats, tally: Tally, deck_ids: Iterable[str] | None, today: date) -> Stats:
    """``stats`` with the practice answers of ``tally`` per mode (all time, the recent study
    days up to ``today``, how many passed); only ``deck_ids``' when given."""
    wanted = set(deck_ids) if deck_ids is not None else None
    counts = practice_sources(tally, today, wanted)
    return replace(stats, practice=counts) if counts else stats
