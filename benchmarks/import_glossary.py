"""Import speed: `quizzer import` of a big glossary next to Anki's engine importing the same CSV.

Run: ``.venv/bin/python benchmarks/import_glossary.py [--sizes 12500 50000] [--runs 5]``
(``--sizes 12500 50000 200000`` for the linearity check, sizes over 50,000 get at most
``--big-runs`` runs; ``--quick`` is ``--sizes 12500 50000 --runs 3``; ``--stages`` adds an
in-process breakdown of the quizzer import; ``--against DIR`` also times the import and
re-import of another checkout of quizzer, say main's, interleaved with these: before/after).

For each size, ``benchmarks/big_glossary.py`` writes a Bengali glossary (and the same
entries as a two-column CSV) into a temp dir. Then, ``--runs`` times and interleaved
so both see the same machine load, three whole processes are timed from spawn to exit:

* ``quizzer import FILE --into NEW_DIR`` with its default human report (to a file);
* the same command again into the same dir: re-importing the unchanged file;
* Anki's engine (the ``anki`` package, a test dependency) creating a collection and
  importing the CSV with ``Collection.import_csv``, then closing it.

Each process's peak resident memory and CPU time are the kernel's own account of it
(``os.wait4``): on a loaded machine the CPU seconds compare better than the wall times.
Prints one line per size: medians (wall seconds) of each, the ratios import/Anki and
re-import/import, microseconds per entry with its ratio to the smallest size (near 1.0
when time grows linearly), and the peak RSS of the first import and of Anki's. Then one
``FIGURE`` line per figure (:mod:`figures`). The machine is shared: only the ratios mean much.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import big_glossary
import figures

ROOT = Path(__file__).resolve().parents[1]

ANKI_PEER = """
import sys, tempfile, os
from anki.collection import Collection, ImportCsvRequest
folder = tempfile.mkdtemp()
col = Collection(os.path.join(folder, "collection.anki2"))
metadata = col.get_csv_metadata(sys.argv[1], None)
log = col.import_csv(ImportCsvRequest(path=sys.argv[1], metadata=metadata))
col.close()
assert len(log.log.new) == int(sys.argv[2]), len(log.log.new)
"""


@dataclass
class Runs:
    """Wall seconds, CPU seconds and peak RSS (MB) of each run of one command."""

    seconds: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)

    def run(self, argv: list[str], env: dict[str, str], cwd: Path = ROOT) -> None:
        """Run ``argv`` once in ``cwd`` (it must succeed), recording its wall time, CPU time
        and peak RSS. (``python -m`` imports from ``cwd`` first, whatever ``PYTHONPATH`` says.)"""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=err)
            _pid, status, usage = os.wait4(child.pid, 0)
            elapsed = time.perf_counter() - start
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != 0:
                err.seek(0)
                raise SystemExit(f"{argv[:4]} failed:\n{err.read().decode(errors='replace')}")
        self.seconds.append(elapsed)
        self.rss_mb.append(usage.ru_maxrss / 1024)  # kilobytes on Linux
        self.cpu_seconds.append(usage.ru_utime + usage.ru_stime)

    @property
    def median(self) -> float:
        """Median wall seconds."""
        return statistics.median(self.seconds)

    @property
    def cpu(self) -> float:
        """Median CPU seconds (user + system): what a loaded machine's wall time hides."""
        return statistics.median(self.cpu_seconds)

    @property
    def rss(self) -> float:
        """Median peak RSS in MB."""
        return statistics.median(self.rss_mb)


def bench_size(
    n: int, runs: int, tmp: Path, against: Path | None = None
) -> tuple[Runs, Runs, Runs, tuple[Runs, Runs] | None]:
    """(import, re-import, Anki) runs for an ``n``-entry glossary, and (import, re-import)
    runs of the checkout ``against`` when given."""
    glossary, table = tmp / f"glossary_{n}.txt", tmp / f"glossary_{n}.csv"
    big_glossary.write(glossary, n, table)
    quizzer = [sys.executable, "-m", "quizzer", "import", str(glossary), "--deck", "big"]
    anki = [sys.executable, "-c", ANKI_PEER, str(table), str(n)]
    trees = [(ROOT, Runs(), Runs())]
    if against is not None:
        trees.append((against, Runs(), Runs()))
    peer = Runs()
    # Whatever runs first in a round pays for the flush of what was written before it (the
    # glossary, the last round's Anki collection): the order turns by one each round.
    slots: list[int | None] = [*range(len(trees)), None]
    for run in range(runs):
        turn = run % len(slots)
        for number in slots[turn:] + slots[:turn]:
            if number is None:
                peer.run(anki, {**os.environ, "QUIZZER_CACHE": str(tmp / f"cache_{n}_0")})
                continue
            tree, first, again = trees[number]
            env = {**os.environ, "QUIZZER_CACHE": str(tmp / f"cache_{n}_{number}")}
            env.update(COLUMNS="100", PYTHONPATH=str(tree))
            into = tmp / f"decks_{n}_{run}_{number}"
            first.run([*quizzer, "--into", str(into)], env, tree)
            again.run([*quizzer, "--into", str(into)], env, tree)
            shutil.rmtree(into)
    for number in range(len(trees)):
        shutil.rmtree(tmp / f"cache_{n}_{number}", ignore_errors=True)
    (_root, first, again), *other = trees
    return first, again, peer, (other[0][1], other[0][2]) if other else None


def stages(n: int, tmp: Path) -> None:
    """In-process seconds of each stage of one import (single run, GC paused as the
    importer pauses it)."""
    import gc
    import json

    from quizzer.concepts import deckwriter
    from quizzer.glossary.align import align
    from quizzer.glossary.entries import SourceEntry, SourceFile
    from quizzer.glossary.language_id import tag_entries
    from quizzer.glossary.parse import decode, parse
    from quizzer.library.summary import summarise

    path = tmp / f"glossary_{n}.txt"
    times: dict[str, float] = {}

    def step(name: str, start: float) -> float:
        now = time.perf_counter()
        times[name] = now - start
        return now

    gc.disable()
    t = time.perf_counter()
    glossary = parse(decode(path.read_bytes()))
    t = step("parse", t)
    langs = tag_entries([(e.term, e.definition, e.term_line) for e in glossary.entries])
    t = step("tag", t)
    entries = tuple(
        SourceEntry(path.name, e.index, lang, e.term, e.definition, e.term_line, e.definition_line)
        for e, lang in zip(glossary.entries, langs, strict=True)
    )
    source = SourceFile(path.name, glossary.title, entries)
    deck, _report = align([source], deck_id="big", deck_name="Big")
    t = step("align", t)
    raw = deckwriter.dumps(deck).encode("utf-8")
    t = step("render", t)
    summarise(deck, path, False)
    t = step("summary", t)
    json.dumps(deck.to_dict(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    step("cached tables", t)
    del raw
    gc.enable()
    print(f"  stages at {n:,}: " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[12_500, 50_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--big-runs", type=int, default=2, help="at most this many runs for sizes over 50,000"
    )
    parser.add_argument("--quick", action="store_true", help="--sizes 12500 50000 --runs 3")
    parser.add_argument("--stages", action="store_true", help="add an in-process breakdown")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="another quizzer checkout (e.g. main's) whose import and re-import are timed "
        "interleaved with these: before/after in one run",
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.runs = [12_500, 50_000], 3
    print(
        f"{'entries':>8} {'runs':>4} {'import':>8} {'anki csv':>9} {'ratio':>6} "
        f"{'re-import':>10} {'ratio':>6} {'us/entry':>9} {'linear':>7} {'RSS MB':>7} "
        f"{'anki MB':>8}"
    )
    results: dict[int, tuple[Runs, Runs, Runs]] = {}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for n in args.sizes:
            runs = args.runs if n <= 50_000 else min(args.runs, args.big_runs)
            first, again, peer, before = bench_size(n, runs, tmp, args.against)
            results[n] = first, again, peer
            base = results[args.sizes[0]][0].median / args.sizes[0]
            per_entry = first.median / n
            print(
                f"{n:>8} {runs:>4} {first.median:>7.2f}s {peer.median:>8.2f}s "
                f"{first.median / peer.median:>6.2f} {again.median:>9.2f}s "
                f"{again.median / first.median:>6.2f} {per_entry * 1e6:>9.1f} "
                f"{per_entry / base:>7.2f} {first.rss:>7.0f} {peer.rss:>8.0f}",
                flush=True,
            )
            print(
                f"{'':>8} {'':>4} CPU: import {first.cpu:.2f} s, re-import {again.cpu:.2f} s "
                f"(ratio {again.cpu / first.cpu:.2f}), Anki {peer.cpu:.2f} s "
                f"(import / Anki {first.cpu / peer.cpu:.2f})",
                flush=True,
            )
            if before is not None:
                print(
                    f"{'':>8} {'':>4} {before[0].median:>7.2f}s {'':>9} "
                    f"{before[0].median / peer.median:>6.2f} {before[1].median:>9.2f}s "
                    f"{before[1].median / before[0].median:>6.2f} {'':>9} {'':>7} "
                    f"{before[0].rss:>7.0f}   <- {args.against} (re-import RSS "
                    f"{before[1].rss:.0f} MB; here {again.rss:.0f} MB)",
                    flush=True,
                )
                print(
                    f"{'':>8} {'':>4} CPU: import {before[0].cpu:.2f} s, re-import "
                    f"{before[1].cpu:.2f} s (ratio {before[1].cpu / before[0].cpu:.2f})   <- "
                    f"{args.against}",
                    flush=True,
                )
            if args.stages:
                stages(n, tmp)
    print(
        "medians of interleaved runs; ratio = quizzer / peer "
        "(import / Anki CSV import; re-import / import); RSS = peak resident memory"
    )
    emit_figures(results, args.sizes)


def _label(n: int) -> str:
    return f"{n / 1000:g}k"


def emit_figures(results: dict[int, tuple[Runs, Runs, Runs]], sizes: list[int]) -> None:
    """The FIGURE lines: at 50,000 entries (else the largest size) and the linearity."""
    n = 50_000 if 50_000 in results else max(results)
    first, again, peer = results[n]
    figures.emit(
        f"import {_label(n)} (default report)",
        first.median,
        "Anki import_csv",
        peer.median,
        goal=1.0,
    )
    figures.emit(
        f"re-import {_label(n)} / import", again.median, "first import", first.median, goal=1.0
    )
    figures.emit(
        f"import {_label(n)} peak RSS",
        first.rss,
        "Anki import_csv",
        peer.rss,
        unit="MB",
        goal=300,
        absolute=True,
    )
    small, large = min(sizes), max(sizes)
    if large > small:
        figures.emit(
            f"import µs/entry {_label(large)} vs {_label(small)}",
            results[large][0].median / large * 1e6,
            f"{_label(small)} µs/entry",
            results[small][0].median / small * 1e6,
            unit="µs",
            goal=1.2,
        )


if __name__ == "__main__":
    main()
