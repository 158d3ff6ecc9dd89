"""The launch benchmark's fixtures: the bench deck, a store of N cards, a big imported deck.

Used by ``benchmarks/launch_time.py`` (see its docstring for what they model).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH_DECK = "bench"
_LANG_WORDS = {
    "en": ("Bench concept", "A generated definition number"),
    "bn": ("বেঞ্চ ধারণা", "একটি তৈরি সংজ্ঞা নম্বর"),
    "ar": ("مفهوم القياس", "تعريف مولد رقم"),
    "ru": ("Тестовое понятие", "Созданное определение номер"),
    "fr": ("Concept de banc", "Une définition générée numéro"),
}


def write_bench_deck(directory: Path, concepts: int) -> Path:
    """The deck the store's cards belong to (``bench/concept-N``), as a TOML file."""
    lines = [
        "format = 1",
        f'id = "{BENCH_DECK}"',
        'name = "Bench"',
        'description = "Generated for the launch benchmark."',
        "",
    ]
    for i in range(concepts):
        lines += ["[[concepts]]", f'id = "concept-{i}"', ""]
        for lang, (term, definition) in _LANG_WORDS.items():
            for side, text in (("term", f"{term} {i}"), ("definition", f"{definition} {i}.")):
                table = f"[concepts.{lang}.{side}]"
                lines += [table, f'text = "{text}"', 'source = "authored"', ""]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{BENCH_DECK}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def answer_latency():
    spec = importlib.util.spec_from_file_location(
        "answer_latency", ROOT / "benchmarks" / "answer_latency.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_store(path: Path, cards: int) -> None:
    """A store holding ``cards`` cards with history (none if 0), compacted.

    Uses the store benchmark's fast builder (it writes the on-disk format
    directly); if that script no longer offers one, records one answer per card
    through the public API instead (slower: every answer is fsynced).
    """
    from datetime import UTC, datetime, timedelta

    from quizzer.progress import open_store
    from quizzer.scheduling.answer import Answer

    if cards:
        module = answer_latency()
        builder = getattr(module, "build_v2", None) or getattr(module, "build", None)
        if builder is not None:
            builder(path, cards)
        else:
            keys = module.card_keys(cards)
            now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
            with open_store(path) as store:
                for i, key in enumerate(keys):
                    store.record(key, 3, now + timedelta(seconds=i), Answer(mode="flip"))
    with open_store(path):
        pass


def import_big_deck(decks: Path, concepts: int, tmp: Path) -> None:
    """A user deck of ``concepts`` Bengali concepts in ``decks``, imported as a user would."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import big_glossary

    glossary = tmp / "big-glossary.txt"
    big_glossary.write(glossary, concepts)
    subprocess.run(
        [sys.executable, "-m", "quizzer", "import", str(glossary), "--deck", "big"],
        env={**os.environ, "QUIZZER_DECKS": str(decks)},
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
