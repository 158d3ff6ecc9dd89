"""Timing answers one by one, next to their peers: what ``answer_latency.py`` measures.

:func:`time_answers` records answers on an open store of two kinds, alternating on
random cards: *after show* (``shown_*``), what a learner waits for, the card previewed
first (:meth:`Store.preview`, untimed, 4 s before: the study screen asks it for the grade
buttons' intervals, which reads the card's state and takes its FSRS step for each
grade), then :meth:`Store.record` alone timed, from the key to the durable answer; and
*cold* (``cold_*``), :meth:`Store.record` on a card not shown first, its state's read and
the FSRS step timed too. Each answer is timed in turn with its peers, so all see the
same disk: :class:`FsyncFloor` (the disk's own append+fdatasync), Anki's engine
(``anki_answering.py``, timed the same two ways) and another quizzer checkout
(:class:`Against`, ``--against``).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from anki_answering import AnkiAnswering

from quizzer.cards.card import CardKey
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer


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


#: Another checkout's ``Store.record`` (``--against``): one answer per line read, its time.
_AGAINST = """
import random, sys, time
from datetime import UTC, datetime
from pathlib import Path
from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.languages import LANGUAGES
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
pairs = [Pair(a, "term", b, "definition") for a in LANGUAGES for b in LANGUAGES]
store = open_store(Path(sys.argv[1]), tz=UTC, rng=random.Random(3))
answer = Answer(mode="flip", duration_ms=4000)
for line in sys.stdin:
    i, grade, at, shown = line.split()
    key = CardKey(f"bench/concept-{int(i) // len(pairs)}", pairs[int(i) % len(pairs)])
    now = datetime.fromisoformat(at)
    if shown != "-":
        store.preview(key, datetime.fromisoformat(shown))
    c, t = time.thread_time(), time.perf_counter()
    store.record(key, int(grade), now, answer)
    print(time.perf_counter() - t, time.thread_time() - c, flush=True)
store.close()
"""


class Against:
    """Another checkout answering on a copy of the store, one answer at a time, timed."""

    def __init__(self, tree: Path, path: Path, directory: Path) -> None:
        copy = directory / "against"
        copy.mkdir()
        for item in path.parent.glob(f"{path.name}*"):
            if item.name.endswith(".lock"):
                continue
            if item.is_dir():
                shutil.copytree(item, copy / item.name)
            else:
                shutil.copy2(item, copy / item.name)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.child = subprocess.Popen(
            [sys.executable, "-c", _AGAINST, str(copy / path.name)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tree,
        )
        self.times = Timings()
        self.cold = Timings()

    def once(self, index: int, grade: int, now: datetime, shown: datetime | None) -> None:
        """Answer card ``index`` at ``now``, shown first at ``shown`` (``None``: cold)."""
        assert self.child.stdin is not None and self.child.stdout is not None
        seen = "-" if shown is None else shown.isoformat()
        self.child.stdin.write(f"{index} {grade} {now.isoformat()} {seen}\n")
        self.child.stdin.flush()
        wall, cpu = self.child.stdout.readline().split()
        (self.cold if shown is None else self.times).add(float(wall), float(cpu))

    def close(self) -> None:
        assert self.child.stdin is not None
        self.child.stdin.close()
        assert self.child.wait() == 0, "the other checkout's store failed"


class Timings:
    """Wall and CPU times of one kind of answer."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)

    def figures(self, prefix: str) -> dict[str, float]:
        """``{prefix}p50_ms`` and the rest, in milliseconds."""
        wall = sorted(self.wall)
        return {
            f"{prefix}p50_ms": round(statistics.median(wall) * 1000, 3),
            f"{prefix}p90_ms": round(percentile(wall, 0.9) * 1000, 3),
            f"{prefix}p99_ms": round(p99(wall) * 1000, 3),
            f"{prefix}max_ms": round(wall[-1] * 1000, 3),
            f"{prefix}cpu_p50_ms": round(statistics.median(self.cpu) * 1000, 3),
        }


def time_answers(
    path: Path, keys: Sequence[CardKey], args: argparse.Namespace, directory: Path
) -> dict[str, float | int]:
    """Open the store at ``path``, record ``--answers`` answers of each kind, close it.

    The kinds alternate: a card shown first (:meth:`Store.preview` 4 s before, untimed),
    then a cold one. Each answer is timed in turn with the disk's floor and, when asked,
    with Anki's engine (``--anki-sizes``) and another checkout's store (``--against``).
    ``keys`` are the store's cards (``--against``'s child builds the same ones).
    """
    n = len(keys)
    against = Against(args.against, path, directory) if args.against else None
    anki = AnkiAnswering(directory, n) if n in args.anki_sizes else None
    t0 = time.perf_counter()
    store = open_store(path, tz=UTC, rng=random.Random(3))
    open_s = time.perf_counter() - t0
    rng = random.Random(5)
    anki_rng = random.Random(6)
    now = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    shown_times, cold_times = Timings(), Timings()
    floor = FsyncFloor(directory)
    answer = Answer(mode="flip", duration_ms=4000)
    # CPU time of each function in the answers (thread time: the disk's wait is not counted).
    profiles = {
        kind: cProfile.Profile(time.thread_time) if args.profile else None
        for kind in ("shown", "cold")
    }
    for _ in range(args.answers):
        for kind, timings in (("shown", shown_times), ("cold", cold_times)):
            floor.once()
            index = rng.randrange(n)
            grade = rng.choice((1, 3, 3, 3, 4))
            now += timedelta(seconds=7)
            shown = now - timedelta(milliseconds=answer.duration_ms) if kind == "shown" else None
            if shown is not None:
                store.preview(keys[index], shown)  # the card on screen, untimed
            profile = profiles[kind]
            if profile is not None:
                profile.enable()
            c, t = time.thread_time(), time.perf_counter()
            store.record(keys[index], grade, now, answer)
            wall = time.perf_counter() - t
            if profile is not None:
                profile.disable()
            timings.add(wall, time.thread_time() - c)
            if against is not None:
                against.once(index, grade, now, shown)
            if anki is not None:
                anki.once(anki_rng, shown=shown is not None)
    t0 = time.perf_counter()
    store.close()
    close_s = time.perf_counter() - t0
    floor_times = floor.close()
    for kind, profile in profiles.items():
        if profile is not None:
            print(f"--- CPU of the {kind} answers ---", file=sys.stderr)
            pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
    result: dict[str, float | int] = {"answers": args.answers}
    result.update(shown_times.figures("shown_"))
    result.update(cold_times.figures("cold_"))
    result.update(
        {
            "fsync_floor_p50_ms": round(statistics.median(floor_times) * 1000, 3),
            "fsync_floor_p90_ms": round(percentile(floor_times, 0.9) * 1000, 3),
            "fsync_floor_p99_ms": round(p99(floor_times) * 1000, 3),
            "open_s": round(open_s, 3),
            "close_s": round(close_s, 3),
        }
    )
    if against is not None:
        against.close()
        result.update(against.times.figures("against_shown_"))
        result.update(against.cold.figures("against_cold_"))
    if anki is not None:
        anki_shown, anki_cold = anki.close()
        for prefix, times in (("anki_shown_", anki_shown), ("anki_cold_", anki_cold)):
            result[f"{prefix}p50_ms"] = round(statistics.median(times) * 1000, 3)
            result[f"{prefix}p90_ms"] = round(percentile(times, 0.9) * 1000, 3)
            result[f"{prefix}p99_ms"] = round(p99(times) * 1000, 3)
        result["anki_journal_mode"], result["anki_synchronous"] = anki.pragmas  # type: ignore[assignment]
    return result


def p99(sorted_times: list[float]) -> float:
    return percentile(sorted_times, 0.99)


def percentile(sorted_times: list[float], q: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(len(sorted_times) * q))]
