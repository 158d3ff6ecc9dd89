"""Per-language answer normalisation: what counts as the same answer, what is never stripped."""

from __future__ import annotations

import unicodedata

import pytest

from quizzer.concepts.answer_rules import ZWNJ
from quizzer.concepts.normalize import (
    BENGALI_NUKTA,
    BENGALI_VIRAMA,
    ZWJ,
    accents_differ,
    compact,
    graphemes,
    normalize,
    strip_latin_accents,
)

# Real texts from the glossaries in data/.
BN_PARALLELISM = "প্যারালেলিজম"  # প + ্ + য: ya-phala needs the virama
BN_RANK = "র্যাঙ্ক"  # as in data/000: ra + virama + ya
BN_RANK_ZWJ = "র\u200d্যাঙ্ক"  # ra + ZWJ + virama + ya: the ra-phala-ya shape
BN_QUANT = "কোয়ান্টিফিকেশন"  # য় = য + nukta after NFC
AR_OPTIMIZER = "تجزئة حالة المُحسِّن"  # data/002, with shadda and kasra
AR_OPTIMIZER_BARE = "تجزئة حالة المحسن"


def test_nfc_and_case_folding_for_every_language() -> None:
    decomposed = unicodedata.normalize("NFD", "Quantification Symétrique")
    assert normalize(decomposed, "fr") == "quantification symétrique"
    assert normalize("PEFT", "en") == normalize("peft", "en") == "peft"
    assert normalize("Straße", "en") == "strasse"
    assert normalize("ТЕНЗОРНЫЙ", "ru") == "тензорный"


@pytest.mark.parametrize(
    ("with_marks", "bare"),
    [
        ("مُحَسِّن", "محسن"),  # fatha, damma, kasra, shadda
        ("التَّعَلُّم", "التعلم"),
        ("مُحْسِنٌ", "محسن"),  # sukun, tanwin
        ("رَحْمٰن", "رحمن"),  # superscript alef U+0670
        (AR_OPTIMIZER, AR_OPTIMIZER_BARE),
    ],
)
def test_arabic_ignores_tashkeel(with_marks: str, bare: str) -> None:
    assert normalize(with_marks, "ar") == normalize(bare, "ar")


def test_arabic_ignores_tatweel() -> None:
    assert normalize("التـــوازي", "ar") == normalize("التوازي", "ar")


@pytest.mark.parametrize("alef", ["أ", "إ", "آ", "ٱ", "ا"])
def test_arabic_alef_forms_are_one_letter(alef: str) -> None:
    assert normalize(f"{alef}لتعلم", "ar") == normalize("التعلم", "ar")


def test_arabic_decomposed_hamza_equals_precomposed() -> None:
    # A keyboard may type ا + U+0654 (hamza above) instead of أ.
    assert normalize("\u0627\u0654كبر", "ar") == normalize("أكبر", "ar") == "اكبر"


@pytest.mark.parametrize(
    ("variant", "plain"),
    [
        ("مسؤول", "مسوول"),  # hamza on waw
        ("مسئول", "مسيول"),  # hamza on ya
        ("طبقة", "طبقه"),  # ta marbuta ~ ha
        ("مستوى", "مستوي"),  # alif maqsura ~ ya
        ("كیف", "كيف"),  # Persian ya
    ],
)
def test_arabic_letter_variants(variant: str, plain: str) -> None:
    assert normalize(variant, "ar") == normalize(plain, "ar")


def test_arabic_keeps_distinct_letters_distinct() -> None:
    # Normalising must not merge real letters: ض/ص, standalone hamza.
    assert normalize("ضوضاء", "ar") != normalize("صوصاء", "ar")
    assert normalize("ضوضاء", "ar") != normalize("ضوضا", "ar")


def test_russian_yo_is_ye_but_short_i_stays() -> None:
    assert normalize("Ёмкость", "ru") == normalize("емкость", "ru")
    assert normalize("ещё", "ru") == "еще"
    # й is и + breve: stripping combining marks would break it.
    assert normalize("Обратимый", "ru") == "обратимый"
    assert "й" in normalize("Тензорный параллелизм", "ru")
    assert normalize("Тензорный", "ru") != normalize("Тензорныи", "ru")
    decomposed_short_i = "Тензорны\u0438\u0306"
    assert normalize(decomposed_short_i, "ru") == normalize("Тензорный", "ru")


def test_bengali_keeps_virama_and_nukta() -> None:
    key = normalize(BN_PARALLELISM, "bn")
    assert BENGALI_VIRAMA in key
    assert key == BN_PARALLELISM
    assert normalize("পারালেলিজম", "bn") != key  # without the ya-phala: a different spelling
    quant = normalize(BN_QUANT, "bn")
    assert BENGALI_NUKTA in quant
    assert normalize("কোযান্টিফিকেশন", "bn") != quant  # য without nukta is another letter


def test_bengali_precomposed_and_decomposed_nukta_letters_agree() -> None:
    precomposed = "\u09df"  # য় (composition-excluded: NFC decomposes it)
    decomposed = "\u09af\u09bc"
    assert normalize(f"কো{precomposed}া", "bn") == normalize(f"কো{decomposed}া", "bn")


def test_bengali_vowel_signs_survive() -> None:
    # ি, া, ো are combining marks (Mc/Mn); they are spelling, not decoration.
    assert normalize("লোরা", "bn") != normalize("লরা", "bn")
    assert normalize("কি", "bn") != normalize("ক", "bn")


def test_bengali_zwj_and_zwnj_do_not_change_the_word() -> None:
    assert normalize(BN_RANK_ZWJ, "bn") == normalize(BN_RANK, "bn")
    assert ZWJ not in normalize(BN_RANK_ZWJ, "bn")
    assert normalize("ক্\u200cষ", "bn") == normalize("ক্ষ", "bn")
    assert BENGALI_VIRAMA in normalize(BN_RANK_ZWJ, "bn")


def test_bengali_old_khanda_ta_spelling() -> None:
    assert normalize("উৎস", "bn") == normalize("উত্\u200dস", "bn")


def test_bengali_and_arabic_digits_fold_to_ascii() -> None:
    assert normalize("৮-বিট কোয়ান্টিফিকেশন", "bn") == normalize("8 বিট কোয়ান্টিফিকেশন", "bn")
    assert normalize("٨ بت", "ar") == "8 بت"


def test_french_accents_kept_by_default_dropped_on_request() -> None:
    assert normalize("Symétrique", "fr") != normalize("Symetrique", "fr")
    assert normalize("Symétrique", "fr", accents=False) == normalize("Symetrique", "fr")
    assert normalize("Cœur", "fr", accents=False) == "coeur"
    assert accents_differ("Quantification Symetrique", "Quantification Symétrique", "fr")
    assert not accents_differ("quantification symétrique", "Quantification Symétrique", "fr")
    assert not accents_differ("Quantification", "Symétrique", "fr")


def test_accent_stripping_only_touches_latin_letters() -> None:
    for text in (BN_PARALLELISM, BN_QUANT, "Обратимый слой", "ёлка"):
        assert strip_latin_accents(text) == unicodedata.normalize("NFC", text)
    assert normalize("Обратимый", "ru", accents=False) == "обратимый"
    assert normalize(BN_PARALLELISM, "bn", accents=False) == BN_PARALLELISM
    # A French word quoted inside Bengali text still loses its accents.
    assert strip_latin_accents("Symétrique কি") == "Symetrique কি"


def test_whitespace_and_punctuation_collapse() -> None:
    assert normalize("  Parameter-Efficient   Fine-Tuning (PEFT) ", "en") == (
        "parameter efficient fine tuning peft"
    )
    assert normalize("LLM.int8()", "en") == "llm int8"
    assert normalize("l’apprentissage", "fr") == normalize("l'apprentissage", "fr")
    assert normalize("تجزئة، حالة", "ar") == normalize("تجزئة حالة", "ar")
    assert normalize("প্রশিক্ষণ।", "bn") == "প্রশিক্ষণ"
    assert compact(normalize("fine tuning", "en")) == compact(normalize("Fine-Tuning", "en"))


def test_invisible_format_characters_are_ignored() -> None:
    assert normalize("\u200fالتوازي\u200e", "ar") == normalize("التوازي", "ar")
    assert normalize("\ufeffPEFT", "en") == "peft"
    assert normalize("LoRA\u00ad", "en") == "lora"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (BN_PARALLELISM, "bn"),
        (BN_RANK_ZWJ, "bn"),
        (AR_OPTIMIZER, "ar"),
        ("Ёмкость Обратимых слоёв", "ru"),
        ("Quantification Asymétrique", "fr"),
        ("LoRA (Low-Rank Adaptation/Адаптация низкого ранга)", "ru"),
    ],
)
def test_normalize_is_idempotent(text: str, lang: str) -> None:
    once = normalize(text, lang)
    assert normalize(once, lang) == once
    loose = normalize(text, lang, accents=False)
    assert normalize(loose, lang, accents=False) == loose


def test_graphemes_keep_conjuncts_and_signs_whole() -> None:
    assert graphemes(BN_PARALLELISM) == ["প্যা", "রা", "লে", "লি", "জ", "ম"]
    assert graphemes(BN_RANK_ZWJ)[0] == "র\u200d্যা"
    assert graphemes("ক্\u200cষ") == ["ক্\u200c", "ষ"]  # ZWNJ breaks the conjunct
    assert graphemes("مُحَسِّن") == ["مُ", "حَ", "سِّ", "ن"]
    assert graphemes("й") == ["й"]
    assert "".join(graphemes(BN_QUANT)) == unicodedata.normalize("NFC", BN_QUANT)


def test_zwnj_constant_is_the_real_character() -> None:
    assert unicodedata.name(ZWNJ) == "ZERO WIDTH NON-JOINER"
    assert unicodedata.name(ZWJ) == "ZERO WIDTH JOINER"
