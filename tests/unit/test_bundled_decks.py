"""The bundled decks in decks/: complete, in the right scripts, canonical, and true to data/.

Expectations about seed texts are computed from the glossaries in ``data/`` (line 1 title,
line 2 subtitle, entry k's term on line 3+2k and definition on line 4+2k), so the test
checks the deck files against the data rather than against numbers copied from them.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

import pytest

from quizzer.concepts.concept import Concept, Text
from quizzer.concepts.deck import Deck, dumps, loads
from quizzer.concepts.languages import SIDES, Side
from quizzer.library.decks import load_library, read_deck
from quizzer.paths import bundled_decks_dir
from tests.factories import BUNDLED_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "decks"
DATA = ROOT / "data"

BN_TRAINING = "000_048e4d4c80912def.txt"
AR_TRAINING = "002_8ab2fe190dc945a0.txt"
RU_TRAINING = "004_578e64a8672be48f.txt"
QUANT = "003_b43aa0d0eec52a3f.txt"

TRAINING_IDS = (
    "peft",
    "lora",
    "adapters",
    "flash-attention",
    "dynamic-token-pruning",
    "zero",
    "model-parallelism",
    "pipeline-parallelism",
    "tensor-parallelism",
    "gradient-accumulation",
    "layer-wise-lr-decay",
    "curriculum-learning",
    "mixture-of-experts",
    "reversible-layers",
    "gradient-noise-injection",
    "optimizer-state-sharding",
)
QUANT_IDS = (
    "quantization",
    "8-bit-quantization",
    "4-bit-quantization",
    "ptq",
    "qat",
    "dynamic-quantization",
    "static-quantization",
    "quantization-calibration",
    "gptq",
    "awq",
    "zero-shot-quantization",
    "mixed-precision-quantization",
    "symmetric-quantization",
    "asymmetric-quantization",
    "scale-factor",
    "zero-point",
    "quantization-noise",
    "quantization-aware-fine-tuning",
    "smoothquant",
    "llm-int8",
)

#: deck file stem -> (deck id, display name, concept ids in file order)
BUNDLED = {
    "training-efficiency": ("training-efficiency", "Training efficiency", TRAINING_IDS),
    "quantization": ("quantization", "Quantization", QUANT_IDS),
}

ACRONYMS = {
    "peft": "PEFT",
    "lora": "LoRA",
    "zero": "ZeRO",
    "mixture-of-experts": "MoE",
    "ptq": "PTQ",
    "qat": "QAT",
    "gptq": "GPTQ",
    "awq": "AWQ",
}

#: Every seed text we deliberately corrected: (deck, concept, language, side). A new
#: correction (or a dropped one) must be a decision recorded here.
EXPECTED_CORRECTIONS = {
    ("training-efficiency", "mixture-of-experts", "bn", "definition"),
    ("training-efficiency", "lora", "ar", "definition"),
    ("training-efficiency", "flash-attention", "ar", "definition"),
    ("training-efficiency", "dynamic-token-pruning", "ar", "definition"),
    ("training-efficiency", "zero", "ar", "term"),
    ("training-efficiency", "zero", "ar", "definition"),
    ("training-efficiency", "pipeline-parallelism", "ar", "term"),
    ("training-efficiency", "tensor-parallelism", "ar", "definition"),
    ("training-efficiency", "layer-wise-lr-decay", "ar", "term"),
    # «المحولات» is the Arabic word for Transformers; adapters are «المهايئات».
    ("training-efficiency", "adapters", "ar", "term"),
    # Reversible, not "inverse" (ar) or "facing the opposite way" (bn).
    ("training-efficiency", "reversible-layers", "ar", "term"),
    ("training-efficiency", "reversible-layers", "bn", "term"),
    # «শব্দ» is sound/word; noise is «নয়েজ».
    ("training-efficiency", "gradient-noise-injection", "bn", "term"),
    ("training-efficiency", "gradient-noise-injection", "bn", "definition"),
    ("quantization", "gptq", "fr", "definition"),
    ("quantization", "zero-shot-quantization", "fr", "term"),
    ("quantization", "mixed-precision-quantization", "fr", "term"),
    ("quantization", "scale-factor", "fr", "term"),
    ("quantization", "zero-point", "fr", "term"),
    # French capitalises only a term's first word.
    ("quantization", "symmetric-quantization", "fr", "term"),
    ("quantization", "asymmetric-quantization", "fr", "term"),
    # The French-derived «কোয়ান্টিফিকেশন» becomes «কোয়ান্টাইজেশন», the word the
    # glossary's later entries and our authored Bengali use.
    *(
        ("quantization", cid, "bn", "term")
        for cid in (
            "quantization",
            "8-bit-quantization",
            "4-bit-quantization",
            "ptq",
            "qat",
            "dynamic-quantization",
            "static-quantization",
            "quantization-calibration",
        )
    ),
    *(
        ("quantization", cid, "bn", "definition")
        for cid in (
            "qat",
            "dynamic-quantization",
            "static-quantization",
            "quantization-calibration",
        )
    ),
}
#: How many corrections each deck carries (the list above, counted by hand).
CORRECTED_COUNTS = {"training-efficiency": 14, "quantization": 19}

#: Unicode script (first word of the character name) each language's letters may use.
#: Latin is allowed inside Bengali, Arabic and Russian text for acronyms and names (GPU, PEFT).
SCRIPTS = {
    "en": {"LATIN"},
    "fr": {"LATIN"},
    "bn": {"BENGALI", "LATIN"},
    "ar": {"ARABIC", "LATIN"},
    "ru": {"CYRILLIC", "LATIN"},
}
NATIVE = {"bn": "BENGALI", "ar": "ARABIC", "ru": "CYRILLIC"}


def glossary_lines(name: str) -> list[str]:
    """The glossary's lines with trailing whitespace stripped (index 0 is line 1)."""
    text = (DATA / name).read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    return [line.rstrip() for line in text.split("\n")]


def entry_lines(name: str) -> list[int]:
    """1-based line numbers of the term and definition lines (everything after the header)."""
    lines = glossary_lines(name)
    while lines and not lines[-1]:
        lines.pop()
    return list(range(3, len(lines) + 1))


def scripts_of(text: str) -> set[str]:
    """Scripts of the letters and marks in ``text``."""
    return {unicodedata.name(ch).split()[0] for ch in text if unicodedata.category(ch)[0] in "LM"}


def is_bengali(text: str) -> bool:
    return "BENGALI" in scripts_of(text)


@pytest.fixture(scope="module")
def decks() -> dict[str, Deck]:
    return {stem: read_deck(DECKS / f"{stem}.toml") for stem in BUNDLED}


def all_texts(deck: Deck):
    for concept in deck:
        for lang, side, text in concept.texts():
            yield concept, lang, side, text


@pytest.mark.parametrize("stem", sorted(BUNDLED))
def test_deck_has_its_id_name_and_concepts_in_order(decks: dict[str, Deck], stem: str) -> None:
    deck_id, name, ids = BUNDLED[stem]
    deck = decks[stem]
    assert deck.id == deck_id
    assert deck.name == name
    assert tuple(c.id for c in deck) == ids
    assert len(deck) == {"training-efficiency": 16, "quantization": 20}[stem]
    assert all(c.uid == f"{deck_id}/{c.id}" for c in deck)


def test_bundled_decks_are_found_by_the_library(tmp_path: Path) -> None:
    assert bundled_decks_dir().resolve() == DECKS.resolve()
    library = load_library(tmp_path / "no-user-decks")
    found = {item.deck.id: item for item in library}
    assert set(found) == {"training-efficiency", "quantization"}
    assert all(item.bundled for item in library)


@pytest.mark.parametrize("stem", sorted(BUNDLED))
def test_every_concept_has_five_complete_languages(decks: dict[str, Deck], stem: str) -> None:
    deck = decks[stem]
    assert deck.languages == BUNDLED_LANGUAGES
    for concept in deck:
        assert concept.languages == BUNDLED_LANGUAGES, concept.id
        for lang in BUNDLED_LANGUAGES:
            for side in SIDES:
                text = concept.text(lang, side)
                assert text and text.strip(), (concept.id, lang, side)
                assert text == text.strip(), (concept.id, lang, side)
                assert "  " not in text, (concept.id, lang, side)


@pytest.mark.parametrize("stem", sorted(BUNDLED))
def test_each_text_is_written_in_its_languages_script(decks: dict[str, Deck], stem: str) -> None:
    for concept, lang, side, text in all_texts(decks[stem]):
        found = scripts_of(text.text)
        assert found <= SCRIPTS[lang], (concept.id, lang, side, found - SCRIPTS[lang])
        if lang in NATIVE and NATIVE[lang] not in found:
            # Only a name practitioners keep in Latin (GPTQ, LLM.int8()) may lack the
            # language's own script, and then it is the same name as in English.
            assert side == "term", (concept.id, lang, side)
            assert text.text == concept.text("en", "term"), (concept.id, lang, text.text)


@pytest.mark.parametrize("stem", sorted(BUNDLED))
def test_file_round_trips_byte_for_byte(stem: str) -> None:
    raw = (DECKS / f"{stem}.toml").read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert b"\r" not in raw
    text = raw.decode("utf-8")
    assert dumps(loads(text)) == text


def test_acronyms(decks: dict[str, Deck]) -> None:
    for deck in decks.values():
        for concept in deck:
            assert concept.acronym == ACRONYMS.get(concept.id), concept.id
            if concept.acronym:
                assert concept.acronym in (concept.text("en", "term") or ""), concept.id


def _corrected(deck: Deck, cid: str, lang: str, side: Side) -> tuple[Text, str, int]:
    """A corrected text of ``deck``, with the seed's original text and its glossary line."""
    concept = deck.get(cid)
    assert concept is not None
    text = concept.entries[lang].side(side)
    assert text.source.kind == "corrected", (cid, lang, side)
    original, line = text.source.original, text.source.line
    assert original is not None and line is not None, (cid, lang, side)
    return text, original, line


def test_required_corrections_keep_the_seed_original(decks: dict[str, Deck]) -> None:
    training = decks["training-efficiency"]
    pruning, original, line = _corrected(training, "dynamic-token-pruning", "ar", "definition")
    assert "المرارة الأمامية" in original
    assert "التمرير الأمامي" in pruning.text and "المرارة" not in pruning.text
    assert original == glossary_lines(AR_TRAINING)[line - 1]

    moe, original, line = _corrected(training, "mixture-of-experts", "bn", "definition")
    assert "খরব" in original
    assert "খরচ" in moe.text and "খরব" not in moe.text
    assert original == glossary_lines(BN_TRAINING)[line - 1]


def test_reviewed_wrong_words_are_gone_from_what_learners_see(decks: dict[str, Deck]) -> None:
    nfc = functools.partial(unicodedata.normalize, "NFC")
    training, quantization = decks["training-efficiency"], decks["quantization"]
    # (deck, concept, language, side, wrong word kept in `original`, right word in `text`)
    cases: list[tuple[Deck, str, str, Side, str, str]] = [
        (training, "gradient-noise-injection", "bn", "term", "শব্দ", "নয়েজ"),
        (training, "gradient-noise-injection", "bn", "definition", "শব্দ", "গাউসিয়ান নয়েজ"),
        (training, "reversible-layers", "bn", "term", "বিপরীতমুখী", "বিপরীতযোগ্য"),
        (training, "reversible-layers", "ar", "term", "العكسية", "القابلة للعكس"),
        (training, "adapters", "ar", "term", "المحولات", "المهايئات"),
        (quantization, "symmetric-quantization", "fr", "term", "Symétrique", "symétrique"),
        (quantization, "asymmetric-quantization", "fr", "term", "Asymétrique", "asymétrique"),
        (quantization, "dynamic-quantization", "bn", "definition", "কোয়ান্টিফাইড", "কোয়ান্টাইজড"),
    ]
    for deck, cid, lang, side, wrong, right in cases:
        text, original, _line = _corrected(deck, cid, lang, side)
        assert nfc(wrong) in original and nfc(wrong) not in text.text, (cid, lang)
        assert nfc(right) in text.text, (cid, lang, side)
    # One Bengali word for quantization across the deck, seed-derived and authored alike.
    for concept, lang, side, text in all_texts(quantization):
        if lang == "bn":
            assert nfc("কোয়ান্টিফ") not in text.text, (concept.id, side)
    assert sum(nfc("কোয়ান্টাইজ") in t.text for _c, lang, _s, t in all_texts(quantization)) > 20


def test_corrections_are_exactly_the_decided_ones(decks: dict[str, Deck]) -> None:
    found = set()
    for deck in decks.values():
        for concept, lang, side, text in all_texts(deck):
            if text.source.kind != "corrected":
                continue
            found.add((deck.id, concept.id, lang, side))
            assert text.text != text.source.original
            reason = text.source.reason
            # The reason is one English sentence (it may quote the words it fixes).
            assert reason.endswith("."), reason
            assert reason.count(". ") == 0, reason
            assert "LATIN" in scripts_of(reason[:12]), reason
    assert found == EXPECTED_CORRECTIONS
    for deck_id, count in CORRECTED_COUNTS.items():
        assert sum(1 for c in EXPECTED_CORRECTIONS if c[0] == deck_id) == count


def _glossary_sources(deck: Deck) -> dict[tuple[str, int], tuple[str, str, str]]:
    """(file, line) -> (concept, language, side) for every seed or corrected text."""
    where: dict[tuple[str, int], tuple[str, str, str]] = {}
    for concept, lang, side, text in all_texts(deck):
        if text.source.kind == "authored":
            assert text.source.file is None and text.source.line is None
            continue
        key = (text.source.file, text.source.line)
        assert key not in where, f"{key} used twice"
        where[key] = (concept.id, lang, side)
    return where


def _check_seed_texts(deck: Deck) -> None:
    for concept, lang, side, text in all_texts(deck):
        if text.source.kind == "authored":
            continue
        line = glossary_lines(text.source.file)[text.source.line - 1]
        seed = text.text if text.source.kind == "seed" else text.source.original
        assert seed == line, (concept.id, lang, side)


def test_training_deck_holds_every_glossary_line_at_its_position(decks: dict[str, Deck]) -> None:
    deck = decks["training-efficiency"]
    _check_seed_texts(deck)
    where = _glossary_sources(deck)
    expected = {}
    for name, lang in ((BN_TRAINING, "bn"), (AR_TRAINING, "ar"), (RU_TRAINING, "ru")):
        lines = entry_lines(name)
        assert len(lines) == 2 * len(deck)
        for line in lines:
            k, offset = divmod(line - 3, 2)
            expected[(name, line)] = (deck.concepts[k].id, lang, SIDES[offset])
    assert where == expected
    # What the glossaries don't have is ours: English and French everywhere.
    for concept, lang, _side, text in all_texts(deck):
        assert (text.source.kind == "authored") == (lang in ("en", "fr")), (concept.id, lang)


def test_quantization_deck_holds_every_glossary_line_at_its_position(
    decks: dict[str, Deck],
) -> None:
    deck = decks["quantization"]
    _check_seed_texts(deck)
    where = _glossary_sources(deck)
    lines = glossary_lines(QUANT)
    expected = {}
    seed_lang: dict[str, str] = {}
    for line in entry_lines(QUANT):
        k, offset = divmod(line - 3, 2)
        cid = deck.concepts[k].id
        # An entry is Bengali or French; its definition tells which.
        lang = "bn" if is_bengali(lines[4 + 2 * k - 1]) else "fr"
        seed_lang[cid] = lang
        expected[(QUANT, line)] = (cid, lang, SIDES[offset])
    assert where == expected
    assert sorted(seed_lang.values()).count("fr") == 8
    assert sorted(seed_lang.values()).count("bn") == 12
    for concept, lang, _side, text in all_texts(deck):
        from_glossary = lang == seed_lang[concept.id]
        assert (text.source.kind != "authored") == from_glossary, (concept.id, lang)


@pytest.mark.parametrize("stem", sorted(BUNDLED))
def test_provenance_counts_follow_from_the_data(decks: dict[str, Deck], stem: str) -> None:
    deck = decks[stem]
    files = (BN_TRAINING, AR_TRAINING, RU_TRAINING) if stem == "training-efficiency" else (QUANT,)
    from_glossaries = sum(len(entry_lines(name)) for name in files)
    corrected = sum(1 for c in EXPECTED_CORRECTIONS if c[0] == deck.id)
    total = len(deck) * len(BUNDLED_LANGUAGES) * len(SIDES)
    assert deck.source_counts() == {
        "seed": from_glossaries - corrected,
        "authored": total - from_glossaries,
        "corrected": corrected,
    }


# Standard Russian spells these with ё; our authored texts should too.
RUSSIAN_YO = ("учетом", "объем", "дает", "легк", "емкост", "слоев")
# Arabic vowel marks we don't write in authored text (shadda and tanween fath are fine).
ARABIC_VOWEL_MARKS = {"\u064c", "\u064d", "\u064e", "\u064f", "\u0650", "\u0652"}


@pytest.mark.parametrize("stem", sorted(BUNDLED))
def test_authored_orthography(decks: dict[str, Deck], stem: str) -> None:
    for concept, lang, side, text in all_texts(decks[stem]):
        if text.source.kind == "seed":
            continue
        where = (concept.id, lang, side)
        if lang == "ru":
            lowered = text.text.lower()
            assert not any(word in lowered for word in RUSSIAN_YO), where
        if lang == "ar":
            assert not ARABIC_VOWEL_MARKS & set(text.text), where
        if lang == "bn":
            # Bengali text in NFC, without stray zero-width non-joiners.
            assert unicodedata.is_normalized("NFC", text.text), where
            assert "\u200c" not in text.text, where


def _concept(deck: Deck, cid: str) -> Concept:
    concept = deck.get(cid)
    assert concept is not None
    return concept


def test_lora_has_the_seed_terms_from_line_5(decks: dict[str, Deck]) -> None:
    lora = _concept(decks["training-efficiency"], "lora")
    for name, lang in ((BN_TRAINING, "bn"), (AR_TRAINING, "ar"), (RU_TRAINING, "ru")):
        term = lora.entries[lang].term
        assert (term.source.kind, term.source.file, term.source.line) == ("seed", name, 5)
        assert term.text == glossary_lines(name)[4]
