"""Per-language normalisation of answers, so a typed answer compares fairly with the expected text.

Every language gets NFC, case folding, digits folded to ASCII, punctuation and
whitespace collapsed to single spaces, and invisible format characters removed.
On top of that:

* **Arabic**: tashkeel (harakat U+064B–U+065F, superscript alef U+0670, Quranic
  marks) and tatweel U+0640 are dropped; alef forms أ إ آ ٱ become ا; hamza on a
  carrier ؤ → و, ئ → ي; ta marbuta ة → ه; alif maqsura ى → ي; Persian-keyboard
  ک/ی → ك/ي.
* **Russian**: ё → е.
* **Bengali**: NFC only. Its virama (্) and nukta (়) are letters' spelling and are
  never removed; ZWJ/ZWNJ only choose a glyph shape (র‍্য vs র্য), so they are
  ignored, except that ত্ + ZWJ is the old encoding of khanda ta ৎ.
* **French** (and any Latin letters): accents are kept by default;
  ``accents=False`` drops the marks on *Latin* letters only (and spells œ/æ out)
  so the caller can accept an answer whose accents differ and still say so.

We never strip all combining marks: that would delete Bengali vowel signs and
virama and turn Russian й into и.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: Arabic marks removed for comparison: harakat, hamza/madda marks, superscript
#: alef and the Quranic annotation signs.
_ARABIC_MARKS = frozenset(
    [chr(c) for c in range(0x0610, 0x061B)]
    + [chr(c) for c in range(0x064B, 0x0660)]
    + ["\u0670"]
    + [chr(c) for c in range(0x06D6, 0x06DD)]
    + [chr(c) for c in range(0x06DF, 0x06E5)]
    + [chr(c) for c in range(0x06E7, 0x06E9)]
    + [chr(c) for c in range(0x06EA, 0x06EE)]
)
TATWEEL = "\u0640"

_ARABIC_LETTERS = str.maketrans(
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
    }
)

BENGALI_VIRAMA = "\u09cd"
BENGALI_NUKTA = "\u09bc"
ZWJ = "\u200d"
ZWNJ = "\u200c"
_KHANDA_TA_OLD = "\u09a4\u09cd\u200d"  # ত্‍ : Unicode 4.0 spelling of ৎ
_KHANDA_TA = "\u09ce"

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


def _arabic(text: str) -> str:
    text = "".join(ch for ch in text if ch not in _ARABIC_MARKS and ch != TATWEEL)
    return text.translate(_ARABIC_LETTERS)


def _russian(text: str) -> str:
    return text.replace("ё", "е")


def _bengali(text: str) -> str:
    return text.replace(_KHANDA_TA_OLD, _KHANDA_TA)


_LANGUAGE_RULES = {"ru": _russian}


def normalize(text: str, lang: str, *, accents: bool = True) -> str:
    """The comparison key of ``text`` written in ``lang`` (an ISO 639-1 code).

    Two answers are "the same" when their keys are equal. With ``accents=False``
    accents on Latin letters are dropped too (French accents are optional).
    Unknown languages get the rules common to all. Pure and idempotent.
    """
    text = unicodedata.normalize("NFC", text).casefold()
    rule = _LANGUAGE_RULES.get(lang)
    if rule is not None:
        text = rule(text)
    # These two only touch their own script, so they also cover a quoted word
    # of Arabic or Bengali inside another language's text.
    if lang == "ar" or any("\u0600" <= ch <= "\u06ff" for ch in text):
        text = _arabic(text)
    text = _bengali(text)
    out: list[str] = []
    pending_space = False
    for ch in text:
        cat = unicodedata.category(ch)
        if _is_separator(ch):
            pending_space = bool(out)
            continue
        if cat == "Cf":  # ZWJ, ZWNJ, LRM/RLM, BOM, soft hyphen: invisible, not spelling
            continue
        if cat == "Nd":
            ch = str(unicodedata.digit(ch))
        if pending_space:
            out.append(" ")
            pending_space = False
        out.append(ch)
    key = unicodedata.normalize("NFC", "".join(out))
    if not accents:
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
    """Split ``text`` into user-perceived characters, good enough for our five scripts.

    A cluster is a base character with its combining marks and joiners; after a
    virama (Bengali hasant) the next letter joins the same cluster, so conjuncts
    like «প্যা» or «র‍্যা» stay whole and a diff never cuts a vowel sign off its letter.
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
                or (last in (ZWJ, BENGALI_VIRAMA) and letter)
            )
            if last == ZWNJ and letter:
                joins = False  # ZWNJ explicitly breaks a conjunct
            if joins:
                clusters[-1].append(ch)
                continue
        clusters.append([ch])
    return ["".join(cluster) for cluster in clusters]
