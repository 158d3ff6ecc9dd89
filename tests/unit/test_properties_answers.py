"""Property: the answer normaliser and checker never crash, and treat equivalent spellings
alike.

NFC and NFD spell the same Bengali text; Arabic alef forms, tashkeel and tatweel don't
change what a word is; normalising is idempotent; an answer typed exactly as expected is
right, whatever the text.
"""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from quizzer.concepts.answer_rules import RULES
from quizzer.concepts.languages import Side
from quizzer.concepts.normalize import comparison_key, normalize
from quizzer.study.answer_transliteration import transliteration_similarity
from quizzer.study.answers import Verdict, check_answer
from tests.strategies import BOUNDED, any_text, plain_text

#: Every row of the answer-rules table, a tag with a region, and languages with no row.
langs = st.sampled_from(sorted({*RULES, "pt-BR", "zh-Hant", "pl", "sw"}))

#: Bengali words with the letters NFC composes or decomposes (nukta forms ড় ঢ় য়, and the
#: two-part vowel signs ো ৌ), virama conjuncts and ZWJ/ZWNJ.
BENGALI_PIECES = [
    *"কখগঘচজটডঢতদনপবমযরলশসহয়ড়ঢ়োৌািীুূেৈ্ংঃঁৎ ",
    *["\u09a1\u09bc", "\u09a2\u09bc", "\u09af\u09bc", "\u09c7\u09be", "\u09c7\u09d7"],
    *["\u200c", "\u200d"],
]
bengali = st.lists(st.sampled_from(BENGALI_PIECES), min_size=1, max_size=20).map("".join)


#: Arabic words of base letters: alef forms, tashkeel and tatweel are added to them.
arabic_letters = st.text(st.sampled_from(list("ابتثجحخدذرزسشصضطظعغفقكلمنهوي ")), min_size=1)
ALEF_FORMS = ["\u0623", "\u0625", "\u0622", "\u0671"]  # أ إ آ ٱ
TASHKEEL = [chr(c) for c in range(0x064B, 0x0653)] + ["\u0640"]  # harakat, tatweel


@BOUNDED
@given(any_text, langs, st.booleans())
def test_normalising_any_text_never_crashes_and_is_idempotent(
    text: str, lang: str, accents: bool
) -> None:
    key = normalize(text, lang, accents=accents)
    assert isinstance(key, str)
    assert normalize(key, lang, accents=accents) == key
    assert comparison_key(text, lang, accents=accents) == comparison_key(
        unicodedata.normalize("NFD", text), lang, accents=accents
    )


@BOUNDED
@given(bengali)
def test_nfc_and_nfd_bengali_are_the_same_answer(word: str) -> None:
    nfc, nfd = unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word)
    assert normalize(nfc, "bn") == normalize(nfd, "bn")
    if normalize(nfc, "bn"):
        assert check_answer(nfd, nfc, "bn").right
        assert check_answer(nfc, nfd, "bn").right


@BOUNDED
@given(arabic_letters, st.data())
def test_arabic_alef_forms_tashkeel_and_tatweel_are_the_same_answer(
    word: str, data: st.DataObject
) -> None:
    plain = "ا" + word
    dressed = data.draw(st.sampled_from(ALEF_FORMS)) + "".join(
        ch + data.draw(st.sampled_from(["", *TASHKEEL])) for ch in word
    )
    assert normalize(dressed, "ar") == normalize(plain, "ar")
    assert check_answer(dressed, plain, "ar").right


@BOUNDED
@given(any_text, plain_text, langs, st.lists(plain_text, max_size=3), st.booleans())
def test_checking_any_answer_never_crashes(
    typed: str, expected: str, lang: str, others: list[str], term: bool
) -> None:
    side: Side = "term" if term else "definition"
    result = check_answer(typed, expected, lang, others=others, side=side)
    assert isinstance(result.verdict, Verdict)
    assert 0.0 <= result.similarity <= 100.0
    assert 0.0 <= transliteration_similarity(typed, expected) <= 100.0


@BOUNDED
@given(plain_text, langs)
def test_the_expected_text_itself_is_right(expected: str, lang: str) -> None:
    assert check_answer(expected, expected, lang).right
