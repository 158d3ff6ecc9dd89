"""Each card's answers summed in one pass over the log: the lifetime figures need only these."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from quizzer.scheduling.review import Review


@dataclass(slots=True)
class CardTotals:
    """One card's answers, summed in one pass over the log."""

    reviews: int = 0
    passed: int = 0
    time_ms: int = 0
    again: int = 0
    lapses: int = 0


def card_totals(reviews: Iterable[Review]) -> dict[str, CardTotals]:
    """Answers per card: the lifetime figures (hardest, summaries) need only these sums."""
    totals: dict[str, CardTotals] = {}
    for r in reviews:
        t = totals.get(r.card_id)
        if t is None:
            t = totals[r.card_id] = CardTotals()
        t.reviews += 1
        t.time_ms += r.duration_ms
        if r.grade == 1:
            t.again += 1
            if r.phase == "review":
                t.lapses += 1
        else:
            t.passed += 1
    return totals
