"""True retention: the pass rate of review-phase answers, young vs mature, per window."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, tzinfo

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.stats.definitions import RETENTION_WINDOWS
from quizzer.stats.figures import PassCount, Retention
from quizzer.stats.tally import DeckTally, tally_of


def true_retention(
    reviews: Iterable[Review],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    windows: Sequence[int] = RETENTION_WINDOWS,
) -> tuple[Retention, ...]:
    """Pass rate of review-phase answers in each window of study days, young vs mature."""
    tally = tally_of(reviews, tz, day_start_hour).deck()
    return retention_on(tally, study_day(now, tz, day_start_hour), windows)


def retention_on(
    deck: DeckTally, today: date, windows: Sequence[int] = RETENTION_WINDOWS
) -> tuple[Retention, ...]:
    """:func:`true_retention` from a deck's tally, ``today`` being the current study day."""
    last = today.toordinal()
    out = []
    for w in windows:
        young, mature = [0, 0], [0, 0]
        for day in range(last - w + 1, last + 1):
            counts = deck.days.get(day)
            if counts is not None:
                young[0] += counts.young[0]
                young[1] += counts.young[1]
                mature[0] += counts.mature[0]
                mature[1] += counts.mature[1]
        out.append(Retention(w, PassCount(*young), PassCount(*mature)))
    return tuple(out)
