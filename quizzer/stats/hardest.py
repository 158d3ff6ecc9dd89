"""The hardest concepts: those with the most lapses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from quizzer.scheduling.review import Review
from quizzer.stats.definitions import HARDEST_LIMIT, card_key
from quizzer.stats.figures import HardConcept
from quizzer.stats.totals import CardTotals, card_totals


def hardest_concepts(
    reviews: Iterable[Review], limit: int = HARDEST_LIMIT
) -> tuple[HardConcept, ...]:
    """Concepts with the most lapses (then most Agains), at most ``limit``, none without lapses."""
    return hardest_of(card_totals(reviews), limit)


def hardest_of(
    totals: Mapping[str, CardTotals], limit: int = HARDEST_LIMIT
) -> tuple[HardConcept, ...]:
    """:func:`hardest_concepts` from per-card totals already summed."""
    lapses: Counter[str] = Counter()
    again: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for card_id, t in totals.items():
        key = card_key(card_id)
        uid = key.concept_uid if key else card_id.split("|", 1)[0]
        total[uid] += t.reviews
        again[uid] += t.again
        lapses[uid] += t.lapses
    ranked = sorted(
        (uid for uid in lapses if lapses[uid] > 0),
        key=lambda uid: (-lapses[uid], -again[uid], uid),
    )
    return tuple(HardConcept(uid, lapses[uid], again[uid], total[uid]) for uid in ranked[:limit])
