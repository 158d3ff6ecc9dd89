"""Languages are BCP 47 tags checked, named and placed by langcodes, not a list of ours."""

from __future__ import annotations

import pytest

from quizzer.concepts.languages import (
    LanguageTagError,
    check_language,
    direction,
    is_rtl,
    language_name,
    native_name,
    order_languages,
    script_of,
    sorted_languages,
)


@pytest.mark.parametrize(
    ("tag", "standard"),
    [
        ("es", "es"),
        ("pt-BR", "pt-BR"),
        ("pt_br", "pt-BR"),
        ("zh-Hans", "zh-Hans"),
        ("sr-Latn", "sr-Latn"),
        ("EN", "en"),
        ("in", "id"),  # the withdrawn code for Indonesian
        ("iw", "he"),
        ("fa", "fa"),
        ("hi", "hi"),
        ("bn", "bn"),
    ],
)
def test_valid_tags_are_kept_in_their_standard_form(tag: str, standard: str) -> None:
    assert check_language(tag) == standard


@pytest.mark.parametrize("tag", ["zz", "xx", "english", "", "en--US", "und", "e", "123"])
def test_an_invalid_tag_is_refused_by_name_with_a_hint(tag: str) -> None:
    with pytest.raises(LanguageTagError) as info:
        check_language(tag)
    assert repr(tag) in str(info.value)
    assert "BCP 47" in info.value.hint or "did you mean" in info.value.hint


def test_a_language_name_given_as_a_tag_hints_its_tag() -> None:
    with pytest.raises(LanguageTagError) as info:
        check_language("Spanish")
    assert info.value.hint.startswith("did you mean es (Spanish)?")


@pytest.mark.parametrize(
    ("tag", "english", "native", "script", "way"),
    [
        ("es", "Spanish", "Español", "Latn", "ltr"),
        ("fa", "Persian", "فارسی", "Arab", "rtl"),
        ("ur", "Urdu", "اردو", "Arab", "rtl"),
        ("ar", "Arabic", "العربية", "Arab", "rtl"),
        ("he", "Hebrew", "עברית", "Hebr", "rtl"),
        ("dv", "Divehi", "Divehi", "Thaa", "rtl"),
        ("syr", "Syriac", "ܣܘܪܝܝܐ", "Syrc", "rtl"),
        ("nqo", "N’Ko", "ߒߞߏ", "Nkoo", "rtl"),
        ("ff-Adlm", "Fula (Adlam)", "𞤆𞤵𞤤𞤢𞤪 (𞤀𞤁𞤂𞤢𞤃)", "Adlm", "rtl"),
        ("rhg", "Rohingya", "𐴌𐴗𐴥𐴝𐴙𐴚𐴒𐴙𐴝", "Rohg", "rtl"),
        ("hi", "Hindi", "हिन्दी", "Deva", "ltr"),
        ("ja", "Japanese", "日本語", "Jpan", "ltr"),
        ("zh", "Chinese", "中文", "Hans", "ltr"),
        ("zh-Hant", "Chinese (Traditional)", "中文（繁體）", "Hant", "ltr"),
        ("sr", "Serbian", "Српски", "Cyrl", "ltr"),
        ("sr-Latn", "Serbian (Latin)", "Srpski (latinica)", "Latn", "ltr"),
        ("pa-Arab", "Punjabi (Arabic)", "پنجابی (عربی)", "Arab", "rtl"),
        ("id", "Indonesian", "Bahasa Indonesia", "Latn", "ltr"),
        ("tr", "Turkish", "Türkçe", "Latn", "ltr"),
        ("pt-BR", "Portuguese (Brazil)", "Português (Brasil)", "Latn", "ltr"),
    ],
)
def test_names_script_and_direction_come_from_cldr(
    tag: str, english: str, native: str, script: str, way: str
) -> None:
    assert language_name(tag) == english
    assert native_name(tag) == native
    assert script_of(tag) == script
    assert direction(tag) == way
    assert is_rtl(tag) == (way == "rtl")


def test_an_invalid_tag_has_no_script_and_is_named_as_given() -> None:
    assert script_of("zz") is None
    assert direction("zz") == "ltr"
    assert language_name("zz") == "zz"


def test_languages_keep_the_order_the_data_gives_or_sort_as_a_set() -> None:
    assert order_languages(["en", "bn", "ar", "bn", "ru", "fr", "en"]) == (
        "en", "bn", "ar", "ru", "fr"
    )  # fmt: skip
    assert sorted_languages({"ru", "ar", "fr"}) == ("ar", "fr", "ru")
