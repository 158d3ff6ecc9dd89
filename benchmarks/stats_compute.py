"""How long ``quizzer stats`` takes to compute its figures, and ``quizzer optimize`` to fit.

Builds an in-memory review log (10 answers per card over a year, random
grades) for each size and times :func:`quizzer.stats.compute.compute_stats`
(median of ``--repeat`` runs) in a named zone (``ZoneInfo``, Europe/Paris) and
in the store's default zone (``LocalTimezone``: the system's, through libc, as
``quizzer stats`` runs without a configured zone), and
:func:`quizzer.scheduling.optimizer.optimize` (once). Prints one JSON line per size::

    {"cards": 10000, "reviews": 100000, "stats_median_s": ..., "stats_local_tz_median_s": ...,
     "optimize_s": ...}

Run: ``.venv/bin/python benchmarks/stats_compute.py [--sizes 1000 10000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from quizzer.cards.card import CardKey, Pair
from quizzer.progress.localtz import LocalTimezone
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.optimizer import optimize
from quizzer.scheduling.review import Review
from quizzer.stats.compute import compute_stats

TZ = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
PAIR = Pair("en", "term", "bn", "definition")


def build(n_cards: int, per_card: int, rng: random.Random) -> tuple[list[Review], list[CardState]]:
    reviews: list[Review] = []
    cards: list[CardState] = []
    for i in range(n_cards):
        key = CardKey(f"bench/c{i}", PAIR)
        moment = NOW - timedelta(days=365, minutes=rng.randrange(0, 1440 * 30))
        interval = 0.0
        for j in range(per_card):
            grade = rng.choices((1, 2, 3, 4), (0.15, 0.1, 0.65, 0.1))[0]
            phase = "new" if j == 0 else ("review" if interval >= 1 else "learning")
            reviews.append(
                Review(
                    id=f"{i}-{j}",
                    card_id=key.id,
                    reviewed_at=moment,
                    grade=grade,  # type: ignore[arg-type]
                    mode="flip",
                    duration_ms=rng.randrange(1000, 10000),
                    phase=phase,  # type: ignore[arg-type]
                    last_interval_days=interval,
                )
            )
            interval = 0.0 if grade == 1 else max(1.0, interval * 2.2)
            moment += timedelta(days=interval or 0.01)
        cards.append(
            CardState.studied(
                key.id,
                "review",
                moment,
                stability=max(interval, 0.5),
                last_review=reviews[-1].reviewed_at,
            )
        )
    return reviews, cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--per-card", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    for size in args.sizes:
        reviews, cards = build(size, args.per_card, rng)
        times: dict[str, list[float]] = {"zoneinfo": [], "local": []}
        for _ in range(args.repeat):
            for name, tz in (("zoneinfo", TZ), ("local", LocalTimezone())):
                start = time.perf_counter()
                compute_stats(reviews, cards, NOW, tz, 4)
                times[name].append(time.perf_counter() - start)
        start = time.perf_counter()
        result = optimize(reviews, TZ, 4)
        fit = time.perf_counter() - start
        print(
            json.dumps(
                {
                    "cards": size,
                    "reviews": len(reviews),
                    "stats_median_s": round(statistics.median(times["zoneinfo"]), 4),
                    "stats_local_tz_median_s": round(statistics.median(times["local"]), 4),
                    "optimize_s": round(fit, 3),
                    "optimize_status": result.status,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
