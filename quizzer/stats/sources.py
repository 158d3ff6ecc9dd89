"""Where answers came from: the answers of each source (a quiz mode, or Anki), all time and lately.

A review's source is its ``mode``: ``flip``, ``choice``, ``typed`` and ``learn``
are answers given in quizzer, ``anki`` the answers ``quizzer merge`` brought back
from Anki. Every other figure counts them all alike; this one tells them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import date

from quizzer.scheduling.review import LOG_MODES
from quizzer.stats.days import Dated
from quizzer.stats.definitions import RECENT_SOURCE_DAYS
from quizzer.stats.figures import AnswerSources, SourceCount


def answer_sources(
    dated: Iterable[Dated], today: date, days: int = RECENT_SOURCE_DAYS
) -> AnswerSources:
    """Answers per source over the whole log and over the last ``days`` study days (today
    included), with how many passed; sources in :data:`LOG_MODES` order, then any other."""
    total: Counter[str] = Counter()
    recent: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    for r, d in dated:
        total[r.mode] += 1
        passed[r.mode] += r.passed
        if 0 <= (today - d).days < days:
            recent[r.mode] += 1
    order = [*LOG_MODES, *sorted(set(total) - set(LOG_MODES))]
    return AnswerSources(
        days,
        tuple(SourceCount(mode, total[mode], recent[mode], passed[mode]) for mode in order),
    )
