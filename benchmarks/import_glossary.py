"""Time importing a synthetic glossary of 12,500 / 25,000 / 50,000 entries.

Run: ``.venv/bin/python benchmarks/import_glossary.py [--repeat 5]``

Prints, per size, the median seconds of each stage (decode+parse, language
tagging, alignment, deck rendering) and of the whole ``import_glossaries`` call
(writing the deck file into a temp dir), plus the time-per-entry ratio to the
smallest size, which stays near 1.0 when the import grows linearly.
Target: the whole import of 50,000 entries under 2 s.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from quizzer.concepts import deckwriter
from quizzer.glossary.align import align
from quizzer.glossary.entries import SourceEntry, SourceFile
from quizzer.glossary.language_id import tag_entries
from quizzer.glossary.parse import decode, parse
from quizzer.library.importer import import_glossaries

SIZES = (12_500, 25_000, 50_000)
# Mixed scripts and lengths like the real glossaries; every term distinct.
TEMPLATES = (
    (
        "লোরা পদ্ধতি {i}",
        "PEFT পদ্ধতি যা ট্রান্সফরমার লেয়ারে লো-র্যাঙ্ক ম্যাট্রিক্স ইনজেক্ট করে, দক্ষ ফাইন-টিউনিং সম্ভব করে {i}।",
    ),
    (
        "Quantification {i}",
        "Technique avancée optimisant itérativement les poids quantifiés pour "
        "minimiser l'erreur {i}.",
    ),
    (
        "Term {i} (T{i}X)",
        "A method that reduces the memory footprint of training large models by "
        "sharding state {i}.",
    ),
)


def synthetic(n: int) -> bytes:
    lines = ["Benchmark glossary", "Synthetic entries"]
    for i in range(n):
        term, definition = TEMPLATES[i % len(TEMPLATES)]
        lines += [term.format(i=i), definition.format(i=i)]
    return "\n".join(lines).encode("utf-8")


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time; the cyclic GC is paused as ``import_glossaries`` pauses it."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    header = ("entries", "parse", "tag", "align", "render", "import", "reimport", "us/entry")
    print(" ".join(f"{h:>9}" for h in header), f"{'ratio':>6}")
    base: float | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            data = synthetic(n)
            path = Path(tmp) / f"bench_{n}.txt"
            path.write_bytes(data)
            glossary = parse(decode(data))
            triples = [(e.term, e.definition, e.term_line) for e in glossary.entries]
            langs = tag_entries(triples)
            entries = tuple(
                SourceEntry(
                    path.name, e.index, lang, e.term, e.definition, e.term_line, e.definition_line
                )
                for e, lang in zip(glossary.entries, langs, strict=True)
            )
            source = SourceFile(path.name, glossary.title, entries)
            deck, _report = align([source], deck_id="bench", deck_name="Bench")
            t_parse = median_time(lambda data=data: parse(decode(data)), args.repeat)
            t_tag = median_time(lambda triples=triples: tag_entries(triples), args.repeat)
            t_align = median_time(
                lambda source=source: align([source], deck_id="bench", deck_name="Bench"),
                args.repeat,
            )
            t_render = median_time(lambda deck=deck: deckwriter.dumps(deck), args.repeat)

            def full(path: Path = path, n: int = n) -> None:
                into = Path(tmp) / f"out_{n}_{time.perf_counter_ns()}"
                import_glossaries([path], deck="bench", into=into, show_progress=False)

            t_import = median_time(full, args.repeat)
            # Importing the same file again: reads and merges into the deck just written.
            into = Path(tmp) / f"again_{n}"
            import_glossaries([path], deck="bench", into=into, show_progress=False)
            t_again = median_time(
                lambda path=path, into=into: import_glossaries(
                    [path], deck="bench", into=into, show_progress=False
                ),
                args.repeat,
            )
            per_entry = t_import / n
            base = base or per_entry
            row = (t_parse, t_tag, t_align, t_render, t_import, t_again)
            print(
                f"{n:>9}",
                " ".join(f"{t:>9.3f}" for t in row),
                f"{per_entry * 1e6:>9.1f}",
                f"{per_entry / base:>6.2f}",
            )


if __name__ == "__main__":
    main()
