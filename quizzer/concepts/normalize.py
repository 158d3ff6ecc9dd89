"""Per-language normalisation of answers, so a typed answer compares fairly with the expected text.

Every language gets Unicode normalisation (NFC, or NFKC where its row folds widths),
case folding, digits folded to ASCII, punctuation and whitespace collapsed to single
spaces, and invisible format characters removed (ZWJ, LRM/RLM, soft hyphen; ZWNJ only
where it just picks a glyph's shape: Bengali, Hindi, Arabic). What a language adds on top
(optional marks, letters typed alike, Turkish case, accents accepted or a near miss) is
its row in :mod:`quizzer.concepts.answer_rules`; a language without a row gets nothing
more, so no two different spellings are ever taken for one.

We never strip all combining marks: that would delete Bengali and Hindi vowel signs and
viramas and turn Russian й into и. Accents are dropped (``accents=False``) only on Latin
letters and only for a language whose row says how differing accents are judged.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from quizzer.concepts.answer_rules import ZWNJ, AnswerRules, rules_for, translation

BENGALI_VIRAMA = "\u09cd"
BENGALI_NUKTA = "\u09bc"
ZWJ = "\u200d"
_KHANDA_TA_OLD = "\u09a4\u09cd\u200d"  # ত্‍ : the Unicode 4.0 spelling of ৎ
_KHANDA_TA = "\u09ce"

#: The canonical combining class of a virama (Bengali hasant, Devanagari halant…).
_VIRAMA = 9

_LATIN_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss"})


def _is_separator(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "PZ" or cat == "Cc"


@lru_cache(maxsize=4096)
def _is_latin(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("LATIN ")


def strip_latin_accents(text: str) -> str:
    """Drop combining marks that sit on Latin letters; marks on other scripts stay.

    ``"Symétrique"`` → ``"Symetrique"`` but ``"й"`` and ``"কি"`` are untouched.
    """
    out: list[str] = []
    base_is_latin = False
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if base_is_latin:
                continue
        else:
            base_is_latin = _is_latin(ch)
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out)).translate(_LATIN_LIGATURES)


def _case_fold(text: str, rules: AnswerRules) -> str:
    if rules.turkic_case:
        # Turkish and Azerbaijani pair I with ı and İ with i (Unicode SpecialCasing).
        text = text.replace("I", "ı").replace("İ", "i")
    return text.casefold()


def normalize(text: str, lang: str, *, accents: bool = True) -> str:
    """The comparison key of ``text`` written in ``lang`` (a BCP 47 tag).

    Two answers are "the same" when their keys are equal. With ``accents=False``,
    accents on Latin letters are dropped too, for a language whose row judges differing
    accents (accepted or a near miss); for any other the key is the same. Pure and
    idempotent.
    """
    rules = rules_for(lang)
    text = unicodedata.normalize("NFKC" if rules.width_folding else "NFC", text)
    text = _case_fold(text, rules)
    table = translation(rules)
    if table:
        text = text.translate(table)
    # The old encoding of Bengali khanda ta: the same letter, in any text that quotes it.
    text = text.replace(_KHANDA_TA_OLD, _KHANDA_TA)
    kept = rules.kept_format
    out: list[str] = []
    pending_space = False
    for ch in text:
        cat = unicodedata.category(ch)
        if _is_separator(ch):
            pending_space = bool(out)
            continue
        if cat == "Cf" and ch not in kept:  # invisible: shapes the text, isn't spelling
            continue
        if cat == "Nd":
            ch = str(unicodedata.digit(ch))
        if pending_space:
            out.append(" ")
            pending_space = False
        out.append(ch)
    key = unicodedata.normalize("NFC", "".join(out))
    if not accents and rules.accents is not None:
        key = strip_latin_accents(key)
    return key


def comparison_key(text: str, lang: str, *, accents: bool = True) -> str:
    """:func:`normalize`, or, for a text that normalises to nothing, the text as written.

    A term made only of punctuation or markup-like characters (``"[/]"``, ``"()"``)
    has an empty :func:`normalize` key, which would make every such text "equal"
    and leave nothing to compare; it falls back to its NFC, case-folded form with
    whitespace collapsed. Empty only for an empty or all-whitespace text.
    """
    key = normalize(text, lang, accents=accents)
    if key:
        return key
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def compact(key: str) -> str:
    """A key without its spaces: ``"fine tuning"`` and ``"finetuning"`` agree."""
    return key.replace(" ", "")


def accents_differ(typed: str, expected: str, lang: str) -> bool:
    """True when the texts match once Latin accents are ignored but not with them."""
    loose = normalize(typed, lang, accents=False) == normalize(expected, lang, accents=False)
    return loose and normalize(typed, lang) != normalize(expected, lang)


def graphemes(text: str) -> list[str]:
    """Split ``text`` into user-perceived characters, good enough for the scripts of
    Europe, the Arabic script and the Indic ones.

    A cluster is a base character with its combining marks and joiners; after a virama
    (Bengali hasant, Devanagari halant: any mark of combining class 9) the next letter
    joins the same cluster, so conjuncts like «প্যা», «র‍্যা» or «क्ष» stay whole and a
    diff never cuts a vowel sign off its letter.
    """
    # Lists of characters, joined at the end: a long run of marks stays linear.
    clusters: list[list[str]] = []
    for ch in unicodedata.normalize("NFC", text):
        if clusters:
            last = clusters[-1][-1]
            letter = unicodedata.category(ch)[0] == "L"
            joins = (
                unicodedata.category(ch)[0] == "M"
                or ch in (ZWJ, ZWNJ)
                or ((last == ZWJ or unicodedata.combining(last) == _VIRAMA) and letter)
            )
            if last == ZWNJ and letter:
                joins = False  # ZWNJ explicitly breaks a conjunct
            if joins:
                clusters[-1].append(ch)
                continue
        clusters.append([ch])
    return ["".join(cluster) for cluster in clusters]
