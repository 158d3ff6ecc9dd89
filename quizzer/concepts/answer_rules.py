"""What a typed answer may leave out or fold, per language: one table.

:mod:`quizzer.concepts.normalize` reads the row of an answer's language (by its language
subtag: ``pt-BR`` reads ``pt``, ``zh-Hant`` reads ``zh``) to make the comparison key of
the answer and of the expected text; a language without a row gets the safe default:
NFC and case folding, nothing stripped, nothing folded, so no two different spellings are
ever taken for one. ``docs/languages.md`` gives the same table with the sources of each
rule.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from quizzer.concepts.languages import base_language

#: How an answer that differs from the expected text only in accents (marks on Latin
#: letters: é, ñ, ã, ơ, ş…) is judged: ``accepted`` (right, the accents pointed out),
#: ``near`` (a near miss: passed, graded Hard, shown as a diff), or ``None`` when the
#: accents are letters of their own and the answer is simply compared as typed.
AccentRule = Literal["accepted", "near"]

#: Arabic tashkeel: harakat and tanween, shadda, sukun, superscript alef, the hamza and
#: madda marks, and the Quranic annotation signs.
ARABIC_MARKS: frozenset[str] = frozenset(
    [chr(c) for c in range(0x0610, 0x061B)]
    + [chr(c) for c in range(0x064B, 0x0660)]
    + ["\u0670"]
    + [chr(c) for c in range(0x06D6, 0x06DD)]
    + [chr(c) for c in range(0x06DF, 0x06E5)]
    + [chr(c) for c in range(0x06E7, 0x06E9)]
    + [chr(c) for c in range(0x06EA, 0x06EE)]
)
TATWEEL = "\u0640"
ZWNJ = "\u200c"
_SHAPE_ONLY: frozenset[str] = frozenset()  # ZWNJ ignored: it only picks a glyph's shape

#: Letters of Arabic script typed alike: the alef forms, hamza on a carrier, ta marbuta,
#: alif maqsura, the Persian keyboard's kaf and yeh, and the forms of heh (Urdu's heh goal
#: ہ and its hamza form ۂ, Persian's ۀ): what an Arabic keyboard types for each. Urdu's
#: do-chashmi heh ھ (aspiration) and yeh barree ے are letters of their own and stay.
_ARABIC_LETTERS: tuple[tuple[str, str], ...] = tuple(
    {
        "\u0623": "\u0627",  # أ → ا
        "\u0625": "\u0627",  # إ → ا
        "\u0622": "\u0627",  # آ → ا
        "\u0671": "\u0627",  # ٱ (wasla) → ا
        "\u0672": "\u0627",  # ٲ → ا
        "\u0673": "\u0627",  # ٳ → ا
        "\u0624": "\u0648",  # ؤ → و
        "\u0626": "\u064a",  # ئ → ي
        "\u0629": "\u0647",  # ة → ه
        "\u0649": "\u064a",  # ى → ي
        "\u06cc": "\u064a",  # Persian ی → ي
        "\u06a9": "\u0643",  # Persian ک → ك
        "\u06c0": "\u0647",  # ۀ → ه
        "\u06c1": "\u0647",  # Urdu ہ → ه
        "\u06c2": "\u0647",  # ۂ → ه
        "\u06c3": "\u0647",  # Urdu ۃ → ه
    }.items()
)
_ARABIC_STRIPPED = frozenset({*ARABIC_MARKS, TATWEEL})


@dataclass(frozen=True, slots=True)
class AnswerRules:
    """How answers in one language are compared (one row of :data:`RULES`)."""

    #: What the row is, for the docs and the tests.
    name: str
    #: Answers differing only in accents on Latin letters (see :data:`AccentRule`).
    accents: AccentRule | None = None
    #: Turkish casing: ``I`` folds to dotless ``ı`` and ``İ`` to ``i`` (Unicode's
    #: SpecialCasing for tr and az), instead of both to ``i``.
    turkic_case: bool = False
    #: Letters typed as another letter or letters, after case folding: ``ß`` as ``ss``.
    folds: tuple[tuple[str, str], ...] = ()
    #: Characters an answer may leave out (Arabic tashkeel and tatweel).
    optional: frozenset[str] = frozenset()
    #: Invisible format characters that are spelling and are kept: ZWNJ (Persian
    #: می‌خواهم), unless the row says it only picks a glyph's shape there. Every other
    #: one (ZWJ, LRM, soft hyphen…) only shapes the text and is ignored.
    kept_format: frozenset[str] = frozenset({ZWNJ})
    #: NFKC instead of NFC: full-width and half-width forms fold to their usual width.
    width_folding: bool = False
    #: Similarity is measured over grapheme clusters, not code points (a vowel sign or a
    #: virama conjunct is one unit of spelling).
    clusters: bool = False


@functools.lru_cache(maxsize=64)
def translation(rules: AnswerRules) -> dict[int, str]:
    """The ``str.translate`` table of a row's :attr:`~AnswerRules.folds` and
    :attr:`~AnswerRules.optional` characters (empty for most rows)."""
    out = {ord(letter): typed for letter, typed in rules.folds}
    out.update(dict.fromkeys(map(ord, rules.optional), ""))
    return out


DEFAULT = AnswerRules("any other language: NFC and case folding, nothing stripped")

#: The table: a language subtag → its row. Every rule here is quoted with its source in
#: ``docs/languages.md``.
RULES: dict[str, AnswerRules] = {
    "en": AnswerRules("English: accents accepted (naïve, café)", accents="accepted"),
    "fr": AnswerRules("French: accents accepted, pointed out", accents="accepted"),
    "es": AnswerRules("Spanish: accents and ñ a near miss", accents="near"),
    "pt": AnswerRules("Portuguese: accents and ç a near miss", accents="near"),
    "vi": AnswerRules("Vietnamese: tone and vowel marks a near miss", accents="near"),
    "de": AnswerRules(
        "German: ß as ss, ä ö ü as ae oe ue; other accents a near miss",
        accents="near",
        folds=(("ß", "ss"), ("ẞ", "ss"), ("ä", "ae"), ("ö", "oe"), ("ü", "ue")),
    ),
    "tr": AnswerRules(
        "Turkish: I/ı and İ/i by Turkish case rules; accents a near miss",
        accents="near",
        turkic_case=True,
    ),
    "az": AnswerRules(
        "Azerbaijani: I/ı and İ/i by Turkic case rules; accents a near miss",
        accents="near",
        turkic_case=True,
    ),
    "ru": AnswerRules("Russian: ё as е", folds=(("ё", "е"),)),
    "ar": AnswerRules(
        "Arabic: tashkeel optional, alef forms folded",
        optional=_ARABIC_STRIPPED,
        folds=_ARABIC_LETTERS,
        kept_format=_SHAPE_ONLY,
    ),
    "fa": AnswerRules(
        "Persian: tashkeel optional, alef forms folded, ZWNJ kept",
        optional=_ARABIC_STRIPPED,
        folds=_ARABIC_LETTERS,
    ),
    "ur": AnswerRules(
        "Urdu: tashkeel optional, alef forms folded",
        optional=_ARABIC_STRIPPED,
        folds=_ARABIC_LETTERS,
        kept_format=_SHAPE_ONLY,
    ),
    "bn": AnswerRules(
        "Bengali: by grapheme cluster, virama and nukta kept",
        clusters=True,
        kept_format=_SHAPE_ONLY,
    ),
    "hi": AnswerRules(
        "Hindi: by grapheme cluster, virama and nukta kept",
        clusters=True,
        kept_format=_SHAPE_ONLY,
    ),
    "zh": AnswerRules("Chinese: full- and half-width forms folded", width_folding=True),
    "ja": AnswerRules("Japanese: full- and half-width forms folded", width_folding=True),
    "ko": AnswerRules("Korean: full- and half-width forms folded", width_folding=True),
}


@functools.lru_cache(maxsize=1024)
def rules_for(lang: str) -> AnswerRules:
    """The row of ``lang`` (a BCP 47 tag), by its language subtag; :data:`DEFAULT` when
    the table has none."""
    return RULES.get(base_language(lang), DEFAULT)
