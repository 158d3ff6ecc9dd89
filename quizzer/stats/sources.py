"""Where answers came from: the answers of each source (a quiz mode, or Anki), all time and lately.

A review's source is its ``mode``: ``flip``, ``choice``, ``typed`` and ``learn``
are answers given in quizzer, ``anki`` the answers ``quizzer merge`` brought back
from Anki. Every other figure counts them all alike; this one tells them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from datetime import date

from quizzer.scheduling.grades import LOG_MODES
from quizzer.stats.definitions import RECENT_SOURCE_DAYS
from quizzer.stats.figures import AnswerSources, SourceCount
from quizzer.stats.tally import DeckTally, Tally

_NONE = (0, 0)


def answer_sources(deck: DeckTally, today: date, days: int = RECENT_SOURCE_DAYS) -> AnswerSources:
    """Answers per source over the whole log and over the last ``days`` study days (today
    included), with how many passed; sources in :data:`LOG_MODES` order, then any other."""
    recent: Counter[str] = Counter()
    last = today.toordinal()
    for day in range(last - days + 1, last + 1):
        counts = deck.days.get(day)
        if counts is not None:
            recent.update(counts.modes)
    total = deck.modes
    order = [*LOG_MODES, *sorted(set(total) - set(LOG_MODES))]
    return AnswerSources(
        days,
        tuple(
            SourceCount(mode, total.get(mode, _NONE)[0], recent[mode], total.get(mode, _NONE)[1])
            for mode in order
        ),
    )


def practice_sources(
    tally: Tally,
    today: date,
    deck_ids: Collection[str] | None = None,
    days: int = RECENT_SOURCE_DAYS,
) -> tuple[SourceCount, ...]:
    """Practice answers (cram, match) of ``deck_ids`` (every deck if ``None``) per mode: all
    time, in the last ``days`` study days (today included) and how many passed; by mode."""
    counts: dict[str, list[int]] = {}
    first, last = today.toordinal() - days + 1, today.toordinal()
    for (deck, mode, day), (answers, passed) in tally.practice.items():
        if deck_ids is None or deck in deck_ids:
            row = counts.setdefault(mode, [0, 0, 0])
            row[0] += answers
            row[1] += answers if first <= day <= last else 0
            row[2] += passed
    return tuple(SourceCount(mode, *row) for mode, row in sorted(counts.items()))
