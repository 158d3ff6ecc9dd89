"""A synthetic review log for the statistics benchmarks (``stats_scale.py``, ``stats_compute.py``).

``cards`` cards (``cards // 5`` concepts of a deck ``bench``, in the five directions
of :data:`tests.synthetic_history.PAIRS`), each answered ``per_card`` times, from a
moment in the first 60 days of the ``days`` days before ``end`` up to ``end``, with random
grades (12% Again), sources cycling through the quiz modes and Anki, and intervals
doubling on a pass (up to 60 days). Deterministic for a ``seed``. Also the card
states those answers leave (review state, due after the last interval).

Cheap to make (no scheduler): these benchmarks time the statistics, not the FSRS
replay; the history's shape (how many cards, answers, days, sources) is what matters.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from tests.synthetic_history import PAIRS

MODES = ("flip", "choice", "typed", "learn", "anki")


def history(
    cards: int, per_card: int, end: datetime, days: int = 730, seed: int = 12
) -> tuple[list[Review], list[CardState]]:
    """``cards * per_card`` answers over the ``days`` days before ``end``, oldest first."""
    rng = random.Random(seed)
    reviews: list[Review] = []
    states: list[CardState] = []
    start = end - timedelta(days=days)
    for i in range(cards):
        key = CardKey(f"bench/concept-{i // len(PAIRS):05d}", PAIRS[i % len(PAIRS)])
        moment = start + timedelta(minutes=rng.randrange(0, 1440 * min(60, days)))
        step = (end - moment) / per_card
        interval = 0.0
        for j in range(per_card):
            grade = rng.choices((1, 2, 3, 4), (0.12, 0.1, 0.68, 0.1))[0]
            phase = "new" if j == 0 else ("review" if interval >= 1 else "learning")
            reviews.append(
                Review(
                    id=f"b{i:06d}-{j:02d}",
                    card_id=key.id,
                    reviewed_at=moment,
                    grade=grade,  # type: ignore[arg-type]
                    mode=MODES[(i + j) % len(MODES)],  # type: ignore[arg-type]
                    duration_ms=rng.randrange(1000, 12000),
                    phase=phase,  # type: ignore[arg-type]
                    last_interval_days=interval,
                    interval_days=max(interval, 1.0),
                )
            )
            interval = 0.0 if grade == 1 else min(max(1.0, interval * 2.0), 60.0)
            moment += step * rng.uniform(0.6, 1.0)
        states.append(
            CardState.studied(
                key.id,
                "review",
                moment + timedelta(days=interval or 1),
                stability=max(interval, 0.5),
                last_review=reviews[-1].reviewed_at,
            )
        )
    reviews.sort(key=lambda r: r.reviewed_at)
    return reviews, states
