"""Every seed text in the bundled decks is what the importer extracts from data/ at that place.

A ``seed`` text must equal the glossary's text at its file and line; a ``corrected``
text keeps the seed in ``original``. Also checks that every glossary entry made it
into a deck, under the language the importer tags it with, at the expected concept.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from quizzer.concepts.concept import Concept, Text
from quizzer.concepts.deck import Deck
from quizzer.library.decks import read_deck
from quizzer.library.importer import read_glossary


def _get(deck: Deck, concept_id: str) -> Concept:
    """The concept ``concept_id`` of ``deck``, which must have it."""
    concept = deck.get(concept_id)
    assert concept is not None, concept_id
    return concept


ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
DECK_FILES = sorted((ROOT / "decks").glob("*.toml"))

TRAINING_IDS = [
    "peft", "lora", "adapters", "flash-attention", "dynamic-token-pruning", "zero",
    "model-parallelism", "pipeline-parallelism", "tensor-parallelism", "gradient-accumulation",
    "layer-wise-lr-decay", "curriculum-learning", "mixture-of-experts", "reversible-layers",
    "gradient-noise-injection", "optimizer-state-sharding",
]  # fmt: skip
QUANTIZATION_IDS = [
    "quantization", "8-bit-quantization", "4-bit-quantization", "ptq", "qat",
    "dynamic-quantization", "static-quantization", "quantization-calibration", "gptq", "awq",
    "zero-shot-quantization", "mixed-precision-quantization", "symmetric-quantization",
    "asymmetric-quantization", "scale-factor", "zero-point", "quantization-noise",
    "quantization-aware-fine-tuning", "smoothquant", "llm-int8",
]  # fmt: skip
TRAINING_FILES = {
    "bn": "000_048e4d4c80912def.txt",
    "ar": "002_8ab2fe190dc945a0.txt",
    "ru": "004_578e64a8672be48f.txt",
}
QUANTIZATION_FILE = "003_b43aa0d0eec52a3f.txt"


@cache
def extracted(name: str) -> dict[int, tuple[str, str]]:
    """line → (language, text) for every term and definition line the importer reads."""
    source = read_glossary(DATA / name)
    out: dict[int, tuple[str, str]] = {}
    for e in source.entries:
        out[e.term_line] = (e.lang, e.term)
        out[e.definition_line] = (e.lang, e.definition)
    return out


def seeded_texts(deck: Deck) -> list[tuple[str, str, str, Text]]:
    return [
        (concept.id, lang, side, text)
        for concept in deck
        for lang, side, text in concept.texts()
        if text.source.kind in ("seed", "corrected")
    ]


def test_bundled_decks_exist() -> None:
    assert {p.stem for p in DECK_FILES} >= {"training-efficiency", "quantization"}


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.name)
def test_every_seed_text_equals_the_glossary(path: Path) -> None:
    deck = read_deck(path)
    texts = seeded_texts(deck)
    assert texts, f"{path.name} has no seed texts"
    for cid, lang, side, text in texts:
        file, line = text.source.file, text.source.line
        where = f"{path.name}: {cid}.{lang}.{side} ({file}:{line})"
        assert file is not None and line is not None, where
        assert (DATA / file).is_file(), where
        found = extracted(file).get(line)
        assert found is not None, f"{where}: no glossary text on that line"
        found_lang, found_text = found
        assert found_lang == lang, f"{where}: the importer tags that line {found_lang}"
        if text.source.kind == "seed":
            assert text.text == found_text, where
        else:
            assert text.source.original == found_text, where
            assert text.text != found_text, f"{where}: a correction that changes nothing"


def test_every_glossary_line_is_in_a_deck_exactly_once() -> None:
    decks = [read_deck(p) for p in DECK_FILES]
    used: dict[tuple[str, int], str] = {}
    for deck in decks:
        for cid, lang, side, text in seeded_texts(deck):
            file, line = text.source.file, text.source.line
            assert file is not None and line is not None
            key = (file, line)
            assert key not in used, f"{key} used by {used[key]} and {cid}.{lang}.{side}"
            used[key] = f"{cid}.{lang}.{side}"
    for name in [*TRAINING_FILES.values(), QUANTIZATION_FILE]:
        for line in extracted(name):
            assert (name, line) in used, f"{name}:{line} is in no deck"


def _deck(deck_id: str) -> Deck:
    for path in DECK_FILES:
        deck = read_deck(path)
        if deck.id == deck_id:
            return deck
    raise AssertionError(f"no bundled deck {deck_id!r}")


def test_training_concepts_sit_at_their_file_positions() -> None:
    deck = _deck("training-efficiency")
    assert [c.id for c in deck] == TRAINING_IDS
    for i, concept in enumerate(deck):
        for lang, name in TRAINING_FILES.items():
            entry = concept.entries[lang]
            assert (entry.term.source.file, entry.term.source.line) == (name, 3 + 2 * i)
            assert (entry.definition.source.file, entry.definition.source.line) == (name, 4 + 2 * i)
    lora = _get(deck, "lora")
    assert lora.entries["ru"].term.text == "LoRA (Low-Rank Adaptation/Адаптация низкого ранга)"


def test_quantization_has_eight_french_seeds_and_twelve_bengali() -> None:
    deck = _deck("quantization")
    assert [c.id for c in deck] == QUANTIZATION_IDS
    for i, concept in enumerate(deck):
        seeded = {lang for lang, _side, t in concept.texts() if t.source.kind != "authored"}
        expected = "fr" if 8 <= i < 16 else "bn"
        assert seeded == {expected}, concept.id
        assert concept.entries[expected].term.source.line == 3 + 2 * i


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.name)
def test_every_concept_has_all_five_languages(path: Path) -> None:
    deck = read_deck(path)
    for concept in deck:
        assert concept.languages == ("en", "bn", "ar", "ru", "fr"), concept.id
