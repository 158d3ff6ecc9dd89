"""Benchmark: ``quizzer merge`` of an Anki package with 100k review rows, against Anki's own
import of the same package (with scheduling) in the same run.

The package is real: quizzer exports a deck, Anki's engine imports it, 100k revlog rows
are added through Anki's own database handle on its cards (answers spread over a year,
grades 1-4), and Anki exports it with scheduling (``collection.anki21b``, zstd). Each
run merges into a fresh, empty store and imports into a fresh, empty collection.
Prints per-run times, medians and the ratio.

    .venv/bin/python benchmarks/merge_anki.py [--rows 100000] [--cards 4000] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from anki.collection import (
    Collection,
    ExportAnkiPackageOptions,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)

from quizzer.anki import export_apkg
from quizzer.anki.model import directions_for
from quizzer.anki.package_reader import read_package
from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.services.merge import merge_file

DIRECTIONS = directions_for(("meaning",), [("ru", "bn"), ("bn", "ru")])


def ru_bn_deck(deck_id: str, n: int) -> Deck:
    """``n`` concepts with a Russian and a Bengali term and definition each."""
    seed = Provenance("authored")

    def entry(term: str, definition: str) -> Entry:
        return Entry(Text(term, seed), Text(definition, seed))

    concepts = tuple(
        Concept(
            id=f"c{i}",
            deck=deck_id,
            acronym=None,
            entries={
                "bn": entry(f"পরিভাষা {i}", f"সংজ্ঞা {i}"),
                "ru": entry(f"термин {i}", f"определение {i}"),
            },
        )
        for i in range(n)
    )
    return Deck(id=deck_id, name=deck_id.title(), concepts=concepts)


def _import(col: Collection, path: Path) -> None:
    request = ImportAnkiPackageRequest(
        package_path=str(path),
        options=ImportAnkiPackageOptions(
            with_scheduling=True, merge_notetypes=False, with_deck_configs=False
        ),
    )
    col.import_anki_package(request)


def build_package(tmp: Path, rows: int, cards: int) -> Path:
    """An Anki .apkg (its own export) holding ``rows`` answers on quizzer's cards."""
    quizzer_pkg = tmp / "quizzer.apkg"
    export_apkg([ru_bn_deck("bench", cards // 2)], quizzer_pkg, directions=DIRECTIONS)
    col = Collection(str(tmp / "build" / "collection.anki2")) if _mkdir(tmp / "build") else None
    assert col is not None
    try:
        _import(col, quizzer_pkg)
        count = col.db.scalar("select count() from cards")
        start_ms = int((time.time() - 400 * 86400) * 1000)
        # One statement: Anki's db handle makes a round trip per call, so 100k inserts one by
        # one take minutes. Answers 2.5 minutes apart round the cards (each card
        # every few days), grades 1-4 (mostly Good), 1.5-9 s each.
        col.db.execute("drop table if exists temp.bench_cards")
        col.db.execute(
            "create temp table bench_cards as select row_number() over (order by id) - 1 as k,"
            " id from cards"
        )
        col.db.execute(
            "insert into revlog with recursive seq(n) as (select 0 union all select n + 1"
            " from seq where n < ?) select ? + n * 150000 + (n * 7919 % 30000), c.id, -1,"
            " case when n % 10 = 0 then 1 when n % 10 = 1 then 2 when n % 10 < 8 then 3"
            " else 4 end, 1, 0, 2500, 1500 + (n * 37 % 7500), 1"
            " from seq join temp.bench_cards c on c.k = n % ?",
            rows - 1,
            start_ms,
            count,
        )
        assert col.db.scalar("select count() from revlog") == rows
        out = tmp / "anki.apkg"
        options = ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=False, legacy=False
        )
        col.export_anki_package(out_path=str(out), options=options, limit=None)
    finally:
        col.close()
    return out


def _mkdir(path: Path) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    return True


def time_anki(package: Path, tmp: Path, run: int) -> float:
    folder = tmp / f"anki-{run}"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        begin = time.perf_counter()
        _import(col, package)
        elapsed = time.perf_counter() - begin
        assert col.db.scalar("select count() from revlog") > 0
    finally:
        col.close()
    return elapsed


def time_quizzer(package: Path, tmp: Path, run: int, rows: int) -> tuple[float, float]:
    db = tmp / f"store-{run}" / "progress.json"
    begin = time.perf_counter()
    report = merge_file(package, db)
    elapsed = time.perf_counter() - begin
    assert report.total == rows, report.total
    read_begin = time.perf_counter()
    read_package(package)
    return elapsed, time.perf_counter() - read_begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--cards", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="merge-bench-") as name:
        tmp = Path(name)
        begin = time.perf_counter()
        package = build_package(tmp, args.rows, args.cards)
        size = package.stat().st_size / 1e6
        print(
            f"package: {args.rows} revlog rows on {args.cards} cards, {size:.1f} MB, built in "
            f"{time.perf_counter() - begin:.1f} s"
        )
        ours, reads, theirs = [], [], []
        for run in range(args.runs):
            merged, read = time_quizzer(package, tmp, run, args.rows)
            anki = time_anki(package, tmp, run)
            ours.append(merged)
            reads.append(read)
            theirs.append(anki)
            print(
                f"run {run + 1}: quizzer merge {merged:.2f} s (reading the package "
                f"{read:.2f} s), Anki import {anki:.2f} s"
            )
        a, b = statistics.median(ours), statistics.median(theirs)
        print(
            f"median: quizzer merge {a:.2f} s, Anki import {b:.2f} s, ratio {a / b:.2f}x "
            f"(reading alone {statistics.median(reads):.2f} s)"
        )


if __name__ == "__main__":
    main()
