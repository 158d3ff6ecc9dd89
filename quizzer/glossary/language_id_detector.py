"""The statistical detector (lingua) behind language identification, restricted by script.

lingua knows 75 languages. The script of a text already narrows them: Arabic script to
Arabic, Persian and Urdu, Cyrillic to Russian, Ukrainian, Bulgarian…; which languages a
script allows is read from CLDR's likely subtags (:func:`quizzer.concepts.languages.
script_of` of each language lingua knows), never listed here.

Its models are large (each language's n-gram tables; all 49 Latin-script languages at
full accuracy take 6–7 s and 900 MB), so detectors are built lazily, once per set of
candidates, and only two kinds are made: a *fast* detector in lingua's low-accuracy mode
(trigrams only: 0.3 s and 70 MB for the Latin languages), run over every candidate of a
script on a sample of a file's entries to find which languages it holds, and over those
few languages on each entry of a mixed file (:func:`read_fast`); and a *deciding*
detector at full accuracy over those few languages only, run on each entry the fast
reading leaves in doubt. Lingua keeps each model loaded for the rest of the process.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from lingua import ConfidenceValue, Language, LanguageDetector, LanguageDetectorBuilder

from quizzer.concepts.languages import script_of

#: The scripts a text's letters can show (as :mod:`quizzer.glossary.scripts` names them)
#: → the scripts of the languages that write with them: Han characters are Chinese and
#: Japanese, kana only Japanese, Hangul Korean.
_WRITTEN_WITH: dict[str, frozenset[str]] = {
    "Hani": frozenset({"Hans", "Hant", "Jpan"}),
    "Kana": frozenset({"Jpan"}),
    "Hang": frozenset({"Kore"}),
}


def tag_of(language: Language) -> str:
    """The BCP 47 tag of one of lingua's languages (its ISO 639-1 code)."""
    return language.iso_code_639_1.name.lower()


@functools.cache
def _known() -> dict[str, Language]:
    """lingua's languages by tag."""
    return {tag_of(language): language for language in Language.all()}


@functools.cache
def candidates(script: str) -> tuple[str, ...]:
    """The tags of the languages lingua knows that are written in ``script``, sorted."""
    scripts = _WRITTEN_WITH.get(script, frozenset({script}))
    return tuple(sorted(tag for tag in _known() if script_of(tag) in scripts))


@functools.cache
def _fast_detector(tags: tuple[str, ...]) -> LanguageDetector:
    languages = [_known()[tag] for tag in tags]
    return LanguageDetectorBuilder.from_languages(*languages).with_low_accuracy_mode().build()


@functools.cache
def _deciding_detector(tags: tuple[str, ...]) -> LanguageDetector:
    languages = [_known()[tag] for tag in tags]
    return LanguageDetectorBuilder.from_languages(*languages).build()


def survey(texts: Sequence[str], tags: tuple[str, ...]) -> list[str | None]:
    """The likeliest of ``tags`` (two or more) for each text, by the low-accuracy detector;
    ``None`` where it can't say."""
    detector = _fast_detector(tags)
    found = detector.detect_languages_in_parallel_of(list(texts))
    return [tag_of(language) if language is not None else None for language in found]


def ranked(text: str, tags: tuple[str, ...]) -> list[tuple[str, float]]:
    """Each of ``tags`` (two or more, sorted) with its confidence for ``text`` at full
    accuracy (0–1, summing to 1), likeliest first; empty when the text has nothing the
    detector can weigh."""
    values = _deciding_detector(tags).compute_language_confidence_values(text)
    if not values or values[0].value <= 0:
        return []
    return [(tag_of(value.language), float(value.value)) for value in values]


def _best(found: list[list[ConfidenceValue]]) -> list[tuple[str | None, float]]:
    return [
        (tag_of(values[0].language), float(values[0].value))
        if values and values[0].value > 0
        else (None, 0.0)
        for values in found
    ]


def decide_many(texts: Sequence[str], tags: tuple[str, ...]) -> list[tuple[str | None, float]]:
    """The likeliest of ``tags`` (two or more, sorted) for each of ``texts`` at full
    accuracy, and its confidence (0–1, the detector's share of the evidence); ``(None, 0)``
    for a text with nothing the detector can weigh. Run by lingua on all cores at once."""
    return _best(
        _deciding_detector(tags).compute_language_confidence_values_in_parallel(list(texts))
    )


#: Characters of a text the fast reading reads: lingua's own bound between short texts and
#: long ones, which its full mode too reads by trigrams only. A glossary's long definition
#: costs in proportion to its length; its opening says the language as surely.
FAST_READ = 120


def _opening(text: str) -> str:
    """The first :data:`FAST_READ` characters of ``text``, cut at a space when one is in
    the second half."""
    if len(text) <= FAST_READ:
        return text
    cut = text.rfind(" ", 0, FAST_READ)
    return text[: cut if cut > FAST_READ // 2 else FAST_READ]


def read_fast(texts: Sequence[str], tags: tuple[str, ...]) -> list[tuple[str | None, float]]:
    """The likeliest of ``tags`` (two or more, sorted) for the opening of each text
    (:data:`FAST_READ`) by the low-accuracy detector (trigrams only: half the time of
    :func:`decide_many` on short texts), and its confidence; ``(None, 0)`` where it can't
    say. It is surer than the full detector on short texts: its answer is trusted only as
    :func:`~quizzer.glossary.language_id.tag_file` says."""
    openings = [_opening(text) for text in texts]
    return _best(_fast_detector(tags).compute_language_confidence_values_in_parallel(openings))


def shortlist(text: str, tags: tuple[str, ...], size: int = 3) -> tuple[str, ...]:
    """The ``size`` likeliest of ``tags`` for ``text`` by the low-accuracy detector, sorted
    (the languages worth deciding among at full accuracy)."""
    values = _fast_detector(tags).compute_language_confidence_values(text)
    return tuple(sorted(tag_of(value.language) for value in values[:size] if value.value > 0))
