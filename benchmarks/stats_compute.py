"""How long ``quizzer stats`` takes to compute its figures, and ``quizzer optimize`` to fit.

Builds an in-memory review log for each size (:mod:`review_history`: 10 answers per
card over a year, random grades, five directions, every source) and times
:func:`quizzer.stats.compute.compute_stats` (median of ``--repeat`` runs) in a named
zone (``ZoneInfo``, Europe/Paris) and in the store's default zone (``LocalTimezone``:
the system's, through libc, as ``quizzer stats`` runs without a configured zone), and
:func:`quizzer.scheduling.optimizer.optimize` (once). Prints one JSON line per size::

    {"cards": 10000, "reviews": 100000, "stats_median_s": ..., "stats_local_tz_median_s": ...,
     "optimize_s": ...}

Run: ``.venv/bin/python benchmarks/stats_compute.py [--sizes 1000 10000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from review_history import history

from quizzer.progress.localtz import LocalTimezone
from quizzer.scheduling.optimizer import optimize
from quizzer.stats.compute import compute_stats

TZ = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--per-card", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for size in args.sizes:
        reviews, cards = history(size, args.per_card, NOW, days=365, seed=1)
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
