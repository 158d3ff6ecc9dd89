"""Import speed: `quizzer import` of a big glossary next to Anki's engine importing the same CSV.

Run: ``.venv/bin/python benchmarks/import_glossary.py [--sizes 12500 50000] [--runs 5]``
(``--sizes 12500 50000 200000`` for the linearity check; ``--stages`` adds an in-process
breakdown of the quizzer import).

For each size, ``benchmarks/big_glossary.py`` writes a Bengali glossary (and the same
entries as a two-column CSV) into a temp dir. Then, ``--runs`` times and interleaved
so both see the same machine load, three whole processes are timed from spawn to exit:

* ``quizzer import FILE --into NEW_DIR`` with its default human report (to a pipe);
* the same command again into the same dir: re-importing the unchanged file;
* Anki's engine (the ``anki`` package, a test dependency) creating a collection and
  importing the CSV with ``Collection.import_csv``, then closing it.

Prints one line per size: medians (wall seconds) of each, the ratios import/Anki and
re-import/import, and microseconds per entry with its ratio to the smallest size (near
1.0 when time grows linearly). The machine is shared: only the ratios mean much.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import big_glossary

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


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one process, from spawn to exit (it must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed:\n{done.stderr.decode(errors='replace')}")
    return elapsed


def bench_size(n: int, runs: int, tmp: Path) -> tuple[float, float, float]:
    """Medians of (import, re-import, Anki) for an ``n``-entry glossary."""
    glossary, table = tmp / f"glossary_{n}.txt", tmp / f"glossary_{n}.csv"
    big_glossary.write(glossary, n, table)
    env = {**os.environ, "QUIZZER_CACHE": str(tmp / f"cache_{n}"), "COLUMNS": "100"}
    env["PYTHONPATH"] = str(ROOT)
    quizzer = [sys.executable, "-m", "quizzer", "import", str(glossary), "--deck", "big"]
    anki = [sys.executable, "-c", ANKI_PEER, str(table), str(n)]
    first, again, peer = [], [], []
    for run in range(runs):
        into = tmp / f"decks_{n}_{run}"
        first.append(timed([*quizzer, "--into", str(into)], env))
        again.append(timed([*quizzer, "--into", str(into)], env))
        peer.append(timed(anki, env))
    return statistics.median(first), statistics.median(again), statistics.median(peer)


def stages(n: int, tmp: Path) -> None:
    """In-process seconds of each stage of one import (single run, GC paused as the
    importer pauses it)."""
    import gc

    from quizzer.concepts import deckwriter
    from quizzer.glossary.align import align
    from quizzer.glossary.entries import SourceEntry, SourceFile
    from quizzer.glossary.language_id import tag_entries
    from quizzer.glossary.parse import decode, parse

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
    deckwriter.dumps(deck)
    step("render", t)
    gc.enable()
    print(f"  stages at {n:,}: " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[12_500, 50_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stages", action="store_true", help="add an in-process breakdown")
    args = parser.parse_args()
    print(
        f"{'entries':>8} {'import':>8} {'anki csv':>9} {'ratio':>6} {'re-import':>10} "
        f"{'ratio':>6} {'us/entry':>9} {'linear':>7}"
    )
    base: float | None = None
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for n in args.sizes:
            first, again, peer = bench_size(n, args.runs, tmp)
            per_entry = first / n
            base = base or per_entry
            print(
                f"{n:>8} {first:>7.2f}s {peer:>8.2f}s {first / peer:>6.2f} {again:>9.2f}s "
                f"{again / first:>6.2f} {per_entry * 1e6:>9.1f} {per_entry / base:>7.2f}",
                flush=True,
            )
            if args.stages:
                stages(n, tmp)
    print(
        f"medians of {args.runs} interleaved runs; ratio = quizzer / peer "
        "(import / Anki CSV import; re-import / import)"
    )


if __name__ == "__main__":
    main()
