"""Language tagging: the script first, then lingua among the languages the script allows."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import quizzer.glossary.language_id as language_id
import quizzer.glossary.language_id_detector as detector
from quizzer.glossary.language_id import LanguageIdError, tag_entries, tag_file
from quizzer.glossary.parse import decode, parse
from tests.factories import bundled

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
WRITTEN = ROOT / "tests" / "data" / "glossaries"
#: Shorter glossaries (13 entries, another field) in the same ten languages.
NETWORKING = WRITTEN / "networking"
#: Short DevOps glossaries (15 entries, one-line definitions, many English loans and
#: acronyms: Backend, REST API, CI/CD, Kubernetes) in the same ten languages.
DEVOPS = WRITTEN / "devops"
#: Database glossaries (12 entries, definitions of a line or less) in the same ten languages.
DATABASES = WRITTEN / "databases"


def _entries(path: Path) -> list[tuple[str, str, int]]:
    glossary = parse(decode(path.read_bytes()))
    return [(e.term, e.definition, e.term_line) for e in glossary.entries]


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        ("000_048e4d4c80912def.txt", "bn"),
        ("002_8ab2fe190dc945a0.txt", "ar"),
        ("004_578e64a8672be48f.txt", "ru"),
    ],
)
def test_training_glossaries_are_tagged_as_before(name: str, lang: str) -> None:
    tagging = tag_file(_entries(DATA / name))
    assert tagging.langs == (lang,) * 16
    assert tagging.notes == ()


def test_the_mixed_quantization_glossary_is_tagged_entry_by_entry() -> None:
    tagging = tag_file(_entries(DATA / "003_b43aa0d0eec52a3f.txt"))
    # Entries 9-16 (GPTQ … Zero Point) are French; the others Bengali.
    assert tagging.langs == ("bn",) * 8 + ("fr",) * 8 + ("bn",) * 4
    assert [(found.lang, found.entries) for found in tagging.languages()] == [
        ("bn", 12),
        ("fr", 8),
    ]


LANGUAGES_WRITTEN = ("es", "de", "pt", "tr", "id", "fa", "ur", "hi", "ja", "zh")


@pytest.mark.parametrize("lang", LANGUAGES_WRITTEN)
def test_a_glossary_in_a_learners_language_is_told_without_help(lang: str) -> None:
    entries = _entries(WRITTEN / f"{lang}.txt")
    assert len(entries) >= 30
    tagging = tag_file(entries)
    right = sum(1 for tag in tagging.langs if tag == lang)
    assert right / len(entries) >= 0.95, tagging.langs
    (main, *_others) = tagging.languages()
    assert main.lang == lang
    assert 0.5 <= main.confidence <= 1.0


def test_a_file_mixing_two_latin_languages_is_tagged_per_entry() -> None:
    spanish = _entries(WRITTEN / "es.txt")[:12]
    german = _entries(WRITTEN / "de.txt")[:12]
    langs = tag_entries(spanish + german)
    assert langs == ["es"] * 12 + ["de"] * 12


def test_an_entry_that_cant_be_told_takes_the_files_majority_with_a_note() -> None:
    entries = [*_entries(WRITTEN / "tr.txt")[:10], ("4096", "8 × 512 = 4096", 99)]
    tagging = tag_file(entries)
    assert tagging.langs == ("tr",) * 11
    ((line, note),) = tagging.notes
    assert line == 99
    assert "no letters" in note and "took tr (Turkish)" in note


def test_a_script_the_detector_doesnt_know_takes_the_majority_or_asks_for_lang() -> None:
    thaana = ("ދިވެހި", "ދިވެހިބަސް އަކީ ރާއްޖޭގެ ބަހެވެ", 5)
    with pytest.raises(LanguageIdError, match="Thaana script") as info:
        tag_entries([thaana])
    assert info.value.line == 5
    assert info.value.hint is not None and "--lang TAG" in info.value.hint
    assert tag_entries([thaana], forced="dv") == ["dv"]


def test_lang_accepts_any_valid_tag_and_refuses_an_invalid_one_by_name() -> None:
    entries = _entries(WRITTEN / "fa.txt")[:3]
    assert tag_entries(entries, forced="fa") == ["fa"] * 3
    assert tag_entries(entries, forced="prs") == ["fa-AF"] * 3  # Dari, in standard form
    assert tag_entries(entries, forced="pt_br") == ["pt-BR"] * 3  # overrides, standardised
    with pytest.raises(LanguageIdError, match="unknown language 'farsi'") as info:
        tag_entries(entries, forced="farsi")
    assert info.value.hint is not None and "fa" in info.value.hint
    with pytest.raises(LanguageIdError, match="unknown language 'zz'"):
        tag_entries(entries, forced="zz")


def test_japanese_kanji_with_kana_is_japanese_and_han_alone_is_chinese() -> None:
    entries = [
        ("量子化", "モデルのメモリを減らすために重みの精度を下げること。", 3),
        ("量化", "降低权重的数值精度，使模型占用更少内存。", 5),
    ]
    assert tag_entries(entries) == ["ja", "zh"]


def test_a_long_file_alternating_two_languages_is_surveyed_whole() -> None:
    # More entries than the survey samples: a sample striding over the file by an even
    # step saw only one of the two languages and tagged every entry with it.
    spanish = _entries(WRITTEN / "es.txt")
    german = _entries(WRITTEN / "de.txt")
    entries = [(spanish if i % 2 else german)[i % 30] for i in range(800)]
    langs = tag_entries(entries)
    assert langs == ["es" if i % 2 else "de" for i in range(800)]


def test_the_survey_trusts_its_majority_and_languages_with_a_third_of_the_sample() -> None:
    votes = Counter({"id": 200, "ms": 60, "es": 40})
    assert language_id._trusted(("es", "id", "ms"), votes, 300) == {"id"}
    votes = Counter({"en": 150, "fr": 100, "de": 50})
    assert language_id._trusted(("de", "en", "fr"), votes, 300) == {"en", "fr"}


def test_a_sure_fast_answer_is_taken_only_for_a_trusted_language() -> None:
    # An Indonesian glossary where Malay is only the detector's slips: the fast detector's
    # sure answers naming Indonesian are taken, every other entry is decided in full.
    texts = [f"{term}\n{definition}" for term, definition, _ in _entries(WRITTEN / "id.txt")]
    found = ("id", "ms")
    fast = detector.read_fast(texts, found)
    full = detector.decide_many(texts, found)
    decided = language_id._decide(texts, found, frozenset({"id"}))
    taken = [k for k, (lang, sure) in enumerate(fast) if lang == "id" and sure >= 0.99]
    assert 0 < len(taken) < len(texts)  # both paths are taken
    for k, (lang, sure) in enumerate(decided):
        # (lingua's sums may differ in the last digits from one batch to another)
        expected = fast[k] if k in taken else full[k]
        assert lang == expected[0] and sure == pytest.approx(expected[1], abs=1e-9), k


@pytest.mark.parametrize("lang", LANGUAGES_WRITTEN)
def test_a_short_glossary_in_a_learners_language_is_told_entry_by_entry(lang: str) -> None:
    # 13 entries: one slip would be 8% of them, so every entry must be right.
    entries = _entries(NETWORKING / f"{lang}.txt")
    assert len(entries) == 13
    assert tag_entries(entries) == [lang] * 13


def _bundled_pairs(lang: str) -> list[tuple[str, str]]:
    pairs = []
    for deck_id in ("training-efficiency", "quantization"):
        for concept in bundled(deck_id).concepts:
            term, definition = concept.text(lang, "term"), concept.text(lang, "definition")
            assert term is not None and definition is not None
            pairs.append((term, definition))
    return pairs


def _one_in(every: int, count: int) -> tuple[list[tuple[str, str, int]], list[str]]:
    """``count`` entries of the bundled decks' texts, every ``every``-th French and the
    others English, each numbered (all distinct), and their languages."""
    english, french = _bundled_pairs("en"), _bundled_pairs("fr")
    entries, langs = [], []
    for i in range(count):
        lang = "fr" if i % every == every - 1 else "en"
        term, definition = (french if lang == "fr" else english)[i % len(english)]
        entries.append((f"{term} {i}", definition, 3 + 2 * i))
        langs.append(lang)
    return entries, langs


@pytest.mark.parametrize("count", [20, 400])
def test_a_language_under_a_sixth_of_the_file_keeps_its_entries(count: int) -> None:
    # A tenth of the entries French: fewer than a sixth of the sample (300 of a large file,
    # all of a small one), yet each is French to the full detector, so each stays French.
    entries, langs = _one_in(10, count)
    tagging = tag_file(entries)
    assert list(tagging.langs) == langs
    assert [(found.lang, found.entries) for found in tagging.languages()] == [
        ("en", count - count // 10),
        ("fr", count // 10),
    ]
    assert tagging.notes == ()


def test_a_single_french_entry_among_english_ones_is_french() -> None:
    entries, langs = _one_in(12, 12)
    assert langs.count("fr") == 1
    assert tag_entries(entries) == langs


def test_a_detectors_slips_are_not_taken_for_a_language_of_the_file() -> None:
    # The fast detector reads a few entries of the Hindi glossary as Marathi: the full
    # detector is never sure of them, so the file stays Hindi, every entry.
    texts = [f"{term}\n{definition}" for term, definition, _ in _entries(WRITTEN / "hi.txt")]
    votes = Counter(detector.survey(texts, detector.candidates("Deva")))
    assert votes["mr"] > 0 and votes.most_common(1)[0][0] == "hi"
    found, _trusted, _votes, _size = language_id._survey(
        texts, list(range(len(texts))), ("hi", "mr")
    )
    assert found == ("hi",)


@pytest.mark.parametrize("lang", LANGUAGES_WRITTEN)
def test_a_glossary_full_of_english_loans_is_told_entry_by_entry(lang: str) -> None:
    entries = _entries(DEVOPS / f"{lang}.txt")
    assert len(entries) == 15
    assert tag_entries(entries) == [lang] * 15


def test_a_neighbour_the_fast_reading_names_for_a_third_of_the_file_must_be_confirmed() -> None:
    # The fast detector reads 6 of these 15 short Spanish entries as Portuguese, two of
    # them 99.9% sure; the full detector reads each of the six as Spanish, so the fast
    # reading's answers naming Portuguese are not taken: those entries are decided in full.
    texts = [f"{term}\n{definition}" for term, definition, _ in _entries(DEVOPS / "es.txt")]
    votes = Counter(detector.survey(texts, detector.candidates("Latn")))
    assert votes["pt"] >= len(texts) / 3 and votes.most_common(1)[0][0] == "es"
    found, trusted, _votes, _size = language_id._survey(
        texts, list(range(len(texts))), ("es", "pt")
    )
    assert "es" in found and trusted == {"es"}


@pytest.mark.parametrize("lang", LANGUAGES_WRITTEN)
def test_a_glossary_of_one_line_definitions_is_told_entry_by_entry(lang: str) -> None:
    # 12 database terms, definitions of four to ten words. The fast reading splits the
    # Indonesian one half and half with Malay: neither may decide it alone.
    entries = _entries(DATABASES / f"{lang}.txt")
    assert len(entries) == 12
    assert tag_entries(entries) == [lang] * 12


def test_latin_loans_in_an_entry_of_another_scripts_file_dont_make_it_latin() -> None:
    # More Latin letters than Han ones (REST API, HTTP, Web), in a Chinese file: Chinese.
    chinese = _entries(WRITTEN / "zh.txt")[:10]
    loan = ("REST API", "对资源使用HTTP方法的Web服务。", 99)
    assert tag_entries([*chinese, loan]) == ["zh"] * 11
    hindi = _entries(WRITTEN / "hi.txt")[:10]
    loan = ("GPU (Graphics Processing Unit)", "Graphics Processing Unit का संक्षिप्त रूप", 99)
    assert tag_entries([*hindi, loan]) == ["hi"] * 11
    # In a file mostly in Latin letters, another script's word quoted in an entry is not
    # taken for the entry's language.
    english = [
        ("Learning rate (η)", "The step size used when updating the weights in training.", 3),
        ("Devanagari (देवनागरी)", "The script used to write Hindi, Marathi and Nepali.", 5),
        ("Overfitting", "When a model memorises its training data and fails to generalise.", 7),
    ]
    assert tag_entries(english) == ["en"] * 3


ENGLISH_TERMS = (
    "Primary key", "Foreign key", "Index", "Transaction", "Normalization", "SQL query",
    "Backup", "Replication", "Sharding", "ORM", "Schema", "Trigger",
)  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES_WRITTEN)
def test_english_terms_defined_in_a_learners_language_are_in_that_language(lang: str) -> None:
    # A learner's glossary: the English term, its definition in their language. Seven of
    # the twelve Japanese entries have more Latin letters (the term) than Han or kana ones
    # (the definition), so the file was mostly "Latin" and those were read as Somali.
    entries = [
        (english, definition, line)
        for english, (_term, definition, line) in zip(
            ENGLISH_TERMS, _entries(DATABASES / f"{lang}.txt"), strict=True
        )
    ]
    assert tag_entries(entries) == [lang] * 12
