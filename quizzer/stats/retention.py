"""True retention: the pass rate of review-phase answers, young vs mature, per window."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, tzinfo

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.stats.days import Dated, dated_reviews
from quizzer.stats.definitions import MATURE_DAYS, RETENTION_WINDOWS
from quizzer.stats.figures import PassCount, Retention


def true_retention(
    reviews: Iterable[Review],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    windows: Sequence[int] = RETENTION_WINDOWS,
) -> tuple[Retention, ...]:
    """Pass rate of review-phase answers in each window of study days, young vs mature."""
    dated = dated_reviews((r for r in reviews if r.phase == "review"), tz, day_start_hour)
    return retention_on(dated, study_day(now, tz, day_start_hour), windows)


def retention_on(
    dated: Iterable[Dated], today: date, windows: Sequence[int] = RETENTION_WINDOWS
) -> tuple[Retention, ...]:
    """:func:`true_retention` over reviews already dated, ``today`` being the current study day."""
    tallies = {w: {"young": [0, 0], "mature": [0, 0]} for w in windows}
    for r, d in dated:
        if r.phase != "review":
            continue
        age = (today - d).days
        kind = "mature" if r.last_interval_days >= MATURE_DAYS else "young"
        for w in windows:
            if 0 <= age < w:
                tallies[w][kind][0 if r.passed else 1] += 1
    return tuple(
        Retention(w, PassCount(*tallies[w]["young"]), PassCount(*tallies[w]["mature"]))
        for w in windows
    )
