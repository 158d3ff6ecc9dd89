"""How long recording one answer durably takes, and opening the store, as the collection grows.

For each size (1k, 10k, 100k cards, 10 reviews of history per card) this builds a
real progress store on disk in the previous layout (schema 2: snapshot of every
card's state, journal with the full history), opens it once with
:func:`quizzer.progress.open_store` — which migrates it to schema 3, folding the
history into the monthly review-log files (``migrate_s``) — then opens the
migrated store (``open_s``) and records ``--answers`` answers with
:meth:`Store.record` (each one fsynced before it returns), timing every call,
and closes it (``close_s``: the compaction). Prints one JSON line per size::

    {"cards": 10000, "history_reviews": 100000, "answers": 500, "p50_ms": ..., "p99_ms": ...,
     "fsync_floor_p50_ms": ..., "open_s": ..., "close_s": ..., "snapshot_mb": ..., ...}

``reviews_s`` is reading the whole review log (``store.reviews()``, read-only store).

``fsync_floor_*`` is the same disk appending one line and fdatasyncing it, with no
quizzer code: the part of an answer's cost no store design can avoid.

Run: ``.venv/bin/python benchmarks/answer_latency.py [--sizes 1000 10000 100000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.languages import LANGUAGES
from quizzer.progress import journal, journal_path, open_store
from quizzer.progress.files import log_dir
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State, full_state, slim_state
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.settings import SchedulerSettings

HISTORY = 10
START = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
PAIRS = [Pair(a, "term", b, "definition") for a in LANGUAGES for b in LANGUAGES]


def card_keys(n: int) -> list[CardKey]:
    """``n`` distinct cards: concepts in one deck, each in up to 25 directions."""
    per = len(PAIRS)
    return [CardKey(f"bench/concept-{i // per}", PAIRS[i % per]) for i in range(n)]


def template_history(settings: SchedulerSettings) -> list[tuple[dict, dict]]:
    """Ten realistic answers for one card: (review dict, slim state) per answer."""
    rng = random.Random(1)
    key = CardKey("bench/template", PAIRS[0])
    state = CardState.new(key, START)
    now = START
    out = []
    for i in range(HISTORY):
        grade = 1 if i == 6 else 3
        outcome = scheduling.answer(state, grade, now, settings, rng)
        new = outcome.state
        review = {
            "id": "",
            "card_id": key.id,
            "reviewed_at": now.isoformat(),
            "grade": grade,
            "mode": "flip",
            "duration_ms": 3000 + i,
            "phase": outcome.phase,
            "last_interval_days": round(outcome.last_interval_days, 6),
            "interval_days": round(outcome.interval_days, 6),
            "due": new.due.isoformat(),
            "stability": new.stability,
            "difficulty": new.difficulty,
            "typed": None,
            "correct": None,
            "overridden": False,
        }
        out.append((review, slim_state(new.to_dict())))
        state = new
        now = new.due
    return out


def build_v2(path: Path, n: int) -> None:
    """Write a schema-2 store (``n`` cards, :data:`HISTORY` reviews each), as it was written."""
    settings = SchedulerSettings()
    template = template_history(settings)
    st = State()
    st.created = START.isoformat()
    seq = 0
    with open(journal_path(path), "wb") as fh:
        for i, key in enumerate(card_keys(n)):
            before = None
            for j, (review, slim) in enumerate(template):
                seq += 1
                r = dict(review, id=f"h{i:07d}-{j:02d}", card_id=key.id)
                fh.write(journal.encode({"op": "record", "seq": seq, "review": r, "card": slim}))
                before = full_state(slim, r, before)
            st.raw[key.id] = before  # type: ignore[assignment]
        end = fh.tell()
        # Flush the built history now, so the first timed answer doesn't pay for it.
        fh.flush()
        os.fsync(fh.fileno())
    st.seq = seq
    doc = st.to_document(end)
    doc["meta"]["1"]["schema"] = 2  # the version-2 layout: no generation, no log files
    del doc["meta"]["1"]["gen"]
    AtomicJSONStorage(path).write(doc)


class FsyncFloor:
    """The disk's own cost: append a journal-sized line to a side file and fdatasync it.

    Timed in turn with each answer, so both see the same disk conditions.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / "floor.bin"
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.sync = getattr(os, "fdatasync", os.fsync)
        self.times: list[float] = []

    def once(self) -> None:
        t = time.perf_counter()
        os.write(self.fd, b"x" * 460 + b"\n")
        self.sync(self.fd)
        self.times.append(time.perf_counter() - t)

    def close(self) -> list[float]:
        os.close(self.fd)
        self.path.unlink()
        return sorted(self.times)


def measure(n: int, answers: int, directory: Path) -> dict[str, float | int]:
    """Build a store of ``n`` cards, open it, record ``answers`` answers; the numbers."""
    path = directory / f"progress-{n}.json"
    build_v2(path, n)
    v2_journal_mb = journal_path(path).stat().st_size / 1e6
    t0 = time.perf_counter()
    with open_store(path, tz=UTC) as migrated:
        migrate_s = time.perf_counter() - t0
        assert len(migrated) == n
    # Keep only what a schema-3 store has (the migration backups would skew the sizes).
    for leftover in directory.glob(f"{path.name}.*v2.bak"):
        leftover.unlink()
    keys = card_keys(n)
    t0 = time.perf_counter()
    store = open_store(path, tz=UTC, rng=random.Random(3))
    open_s = time.perf_counter() - t0
    rng = random.Random(5)
    now = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    times: list[float] = []
    floor = FsyncFloor(directory)
    for _ in range(answers):
        floor.once()
        key = keys[rng.randrange(n)]
        now += timedelta(seconds=7)
        t = time.perf_counter()
        store.record(key, rng.choice((1, 3, 3, 3, 4)), now, Answer(mode="flip", duration_ms=4000))
        times.append(time.perf_counter() - t)
    t0 = time.perf_counter()
    store.close()
    close_s = time.perf_counter() - t0
    times.sort()
    floor_times = floor.close()
    result = {
        "cards": n,
        "history_reviews": n * HISTORY,
        "answers": answers,
        "p50_ms": round(statistics.median(times) * 1000, 3),
        "p99_ms": round(_p99(times) * 1000, 3),
        "max_ms": round(times[-1] * 1000, 3),
        "fsync_floor_p50_ms": round(statistics.median(floor_times) * 1000, 3),
        "fsync_floor_p99_ms": round(_p99(floor_times) * 1000, 3),
        "open_s": round(open_s, 3),
        "close_s": round(close_s, 3),
        "migrate_v2_s": round(migrate_s, 2),
        "v2_journal_mb": round(v2_journal_mb, 1),
        "snapshot_mb": round(path.stat().st_size / 1e6, 1),
        "journal_bytes_after_close": journal_path(path).stat().st_size,
        "log_mb": round(_size(log_dir(path), "*.json") / 1e6, 1),
        "log_mirror_mb": round(_size(log_dir(path), "*.json.bak") / 1e6, 1),
        "months": len(list(log_dir(path).glob("*.json"))),
    }
    with open_store(path, tz=UTC, read_only=True) as ro:
        t0 = time.perf_counter()
        assert len(ro.reviews()) == n * HISTORY + answers
        result["reviews_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    with open_store(path, tz=UTC) as again:
        result["reopen_s"] = round(time.perf_counter() - t0, 3)
        assert len(again) == n
    return result


def _size(directory: Path, pattern: str) -> int:
    return sum(p.stat().st_size for p in directory.glob(pattern))


def _p99(sorted_times: list[float]) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(len(sorted_times) * 0.99))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--answers", type=int, default=500)
    parser.add_argument("--dir", type=Path, default=None, help="build dir (default: temp)")
    args = parser.parse_args(argv)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)  # a fresh build dir is fine
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in args.sizes:
            print(json.dumps(measure(n, args.answers, Path(tmp))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
