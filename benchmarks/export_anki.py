"""Benchmark: quizzer's Anki exporter against a bare genanki script writing the same notes.

10,000 synthetic concepts with all five languages, exported with the default card
kinds and language pairs (60 templates) unless ``--pairs`` narrows them. Both
sides write a complete .apkg. Prints per-run times, medians and their ratio
(target: ours <= 1.2 × bare).

    .venv/bin/python benchmarks/export_anki.py [--concepts 10000] [--runs 3] [--pairs en:bn,...]
"""

from __future__ import annotations

import argparse
import html
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import genanki

from quizzer.anki.exporter import export_apkg
from quizzer.anki.ids import note_guid
from quizzer.anki.model import (
    BASE,
    FIELD_NAMES,
    GUARD_VALUE,
    KINDS,
    build_model,
    directions_for,
    every_direction,
)
from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import LANGUAGES

SAMPLES = {
    "en": ("Low-rank adaptation {n}", "Fine-tuning that trains small low-rank matrices, #{n}."),
    "bn": ("লো-র‍্যাঙ্ক অ্যাডাপ্টেশন {n}", "ছোট লো-র‍্যাঙ্ক ম্যাট্রিক্স দিয়ে ফাইন-টিউনিং, #{n}।"),
    "ar": ("التكيّف منخفض الرتبة {n}", "ضبط دقيق باستخدام مصفوفات صغيرة منخفضة الرتبة، رقم {n}."),
    "ru": ("Низкоранговая адаптация {n}", "Дообучение с малыми матрицами низкого ранга, № {n}."),
    "fr": (
        "Adaptation de rang faible {n}",
        "Affinage avec de petites matrices de rang faible, n° {n}.",
    ),
}


def synthetic_decks(count: int) -> list[Deck]:
    """``count`` concepts over two decks, every language filled, a few hostile characters."""
    source = Provenance("seed", file="000_bench.txt", line=1)
    decks = []
    for d, name in enumerate(("Bench A", "Bench B")):
        deck_id = f"bench-{d}"
        concepts = []
        for n in range(d, count, 2):
            entries = {
                lang: Entry(
                    Text(term.format(n=n) + (" <&>" if n % 97 == 0 else ""), source),
                    Text(definition.format(n=n), source),
                )
                for lang, (term, definition) in SAMPLES.items()
            }
            concepts.append(Concept(f"c{n}", deck_id, f"LR{n}", entries))
        decks.append(Deck(deck_id, name, tuple(concepts)))
    return decks


def bare_genanki(decks: list[Deck], directions, out: Path, timestamp: float) -> None:
    """What a script using genanki directly would do: escape texts, add notes, write."""
    model = build_model(BASE)
    wanted = set(directions)
    packages = []
    for i, deck in enumerate(decks):
        anki_deck = genanki.Deck(2_000_000_000 + i, f"AI Glossary::{deck.name}")
        for concept in deck:
            fields = [concept.uid]
            for lang in LANGUAGES:
                entry = concept.entries.get(lang)
                fields.append(html.escape(entry.term.text, quote=False) if entry else "")
                fields.append(html.escape(entry.definition.text, quote=False) if entry else "")
            fields.append(html.escape(concept.acronym or "", quote=False))
            fields.append("seed")
            fields.extend([""] * (2 * len(LANGUAGES)))  # also seen, audio
            for d in BASE.directions:  # a card where asked for and prompt != answer
                prompt, answer = (
                    concept.text(d.source, d.sides[0]),
                    concept.text(d.target, d.sides[1]),
                )
                differ = prompt and answer and prompt.casefold() != answer.casefold()
                fields.append(GUARD_VALUE if d in wanted and differ else "")
            fields.extend([""] * (len(FIELD_NAMES) - len(fields)))  # retired fields
            assert len(fields) == len(FIELD_NAMES)
            anki_deck.add_note(
                genanki.Note(
                    model=model,
                    fields=fields,
                    tags=[f"deck::{deck.id}"],
                    guid=note_guid(concept.uid),
                )
            )
        packages.append(anki_deck)
    genanki.Package(packages).write_to_file(str(out), timestamp=timestamp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concepts", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", help="comma-separated FROM:TO pairs (default: all 20)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", module="genanki")

    decks = synthetic_decks(args.concepts)
    if args.pairs:
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
        directions = directions_for(KINDS, pairs)
    else:
        directions = every_direction(LANGUAGES)
    print(
        f"{args.concepts} concepts × {len(LANGUAGES)} languages, {len(directions)} templates, "
        f"{args.runs} runs each"
    )
    ours: list[float] = []
    bare: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            stamp = time.time() - 3600
            # alternate the order so neither side always runs on a warmer machine
            order = ("bare", "ours") if run % 2 else ("ours", "bare")
            for side in order:
                out = Path(tmp) / f"{side}.apkg"
                start = time.perf_counter()
                if side == "ours":
                    result = export_apkg(decks, out, directions=directions, timestamp=stamp)
                    ours.append(time.perf_counter() - start)
                else:
                    bare_genanki(decks, directions, out, stamp)
                    bare.append(time.perf_counter() - start)
            print(
                f"run {run + 1}: ours {ours[-1]:.2f} s, bare genanki {bare[-1]:.2f} s "
                f"({result.notes} notes, {result.cards} cards, "
                f"{(Path(tmp) / 'ours.apkg').stat().st_size / 1e6:.1f} MB vs "
                f"{(Path(tmp) / 'bare.apkg').stat().st_size / 1e6:.1f} MB)"
            )
    m_ours, m_bare = statistics.median(ours), statistics.median(bare)
    print(f"median: ours {m_ours:.2f} s, bare genanki {m_bare:.2f} s, ratio {m_ours / m_bare:.2f}×")
    print("target: ratio <= 1.20 —", "met" if m_ours / m_bare <= 1.2 else "NOT met")


if __name__ == "__main__":
    main()
