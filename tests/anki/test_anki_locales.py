"""Each language is spoken in its own locale: Anki's ``{{tts}}`` locale and espeak-ng's voice
come from the BCP 47 tag and CLDR's likely subtags, for any language."""

from __future__ import annotations

import shutil

import pytest

from quizzer.anki.locales import espeak_languages, espeak_voice, tts_locale

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"
)


@pytest.mark.parametrize(
    ("tag", "locale"),
    [
        ("es", "es_ES"),
        ("pt-BR", "pt_BR"),
        ("pt", "pt_BR"),  # CLDR: Portuguese is likeliest Brazil's
        ("zh-Hans", "zh_CN"),
        ("zh-Hant", "zh_TW"),
        ("fa", "fa_IR"),
        ("ur", "ur_PK"),
        ("hi", "hi_IN"),
        ("ja", "ja_JP"),
        ("sr-Latn", "sr_RS"),
        ("en-GB", "en_GB"),
        ("ar", "ar_SA"),  # where Modern Standard Arabic voices are published
        ("eo", "eo"),  # no region
    ],
)
def test_tts_locale_is_language_and_likeliest_region(tag: str, locale: str) -> None:
    assert tts_locale(tag) == locale


@needs_espeak
@pytest.mark.parametrize(
    ("tag", "voice"),
    [
        ("en", "en-us"),
        ("fr", "fr-fr"),
        ("es", "es"),
        ("es-MX", "es-419"),
        ("pt", "pt-br"),
        ("pt-BR", "pt-br"),
        ("zh-Hans", "cmn"),
        ("fa", "fa"),
        ("ur", "ur"),
        ("hi", "hi"),
        ("ja", "ja"),
        ("vi", "vi"),
        ("tr", "tr"),
        ("id", "id"),
        ("bn", "bn"),
        ("ar", "ar"),
    ],
)
def test_espeak_voice_per_language(tag: str, voice: str) -> None:
    espeak = shutil.which("espeak-ng")
    assert espeak
    assert espeak_voice(tag, espeak_languages(espeak)) == voice


@needs_espeak
@pytest.mark.parametrize("tag", ["zh-Hant", "tlh"])
def test_a_language_espeak_cannot_speak_has_no_voice(tag: str) -> None:
    # Mandarin in simplified characters is not Chinese in traditional ones; Klingon has none.
    espeak = shutil.which("espeak-ng")
    assert espeak
    assert espeak_voice(tag, espeak_languages(espeak)) is None


def test_voice_choice_from_a_given_list() -> None:
    voices = ["en-gb", "en-us", "pt", "pt-br", "de", "chr-US-Qaaa-x-west", "vi-vn-x-south"]
    assert espeak_voice("en", voices) == "en-us"
    assert espeak_voice("pt", voices) == "pt-br"
    assert espeak_voice("pt-PT", voices) == "pt"
    assert espeak_voice("de-CH", voices) == "de"
    assert espeak_voice("vi", voices) is None  # private-use variants are not voices of vi
    assert espeak_voice("en", []) is None
