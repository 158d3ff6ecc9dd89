"""Readable ASCII ids (slugs) from terms in any script.

Concept ids must be stable, short and typeable (``lora``, ``flash-attention``).
Terms without a Latin spelling are transliterated — roughly, since the id only
needs to be readable, not reversible: Bengali, Arabic and Cyrillic by the tables here,
any other script by anyascii.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

from anyascii import anyascii

_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґў",
        str.split(
            "a b v g d e e zh z i y k l m n o p r s t u f kh ts ch sh shch "
            "_ y _ e yu ya i yi ye g u"
        ),
        strict=True,
    )
)
_CYRILLIC = {k: ("" if v == "_" else v) for k, v in _CYRILLIC.items()}

_ARABIC = {
    "ا": "a", "أ": "a", "إ": "i", "آ": "a", "ٱ": "a", "ب": "b", "ت": "t", "ث": "th",
    "ج": "j", "ح": "h", "خ": "kh", "د": "d", "ذ": "dh", "ر": "r", "ز": "z", "س": "s",
    "ش": "sh", "ص": "s", "ض": "d", "ط": "t", "ظ": "z", "ع": "", "غ": "gh", "ف": "f",
    "ق": "q", "ك": "k", "ل": "l", "م": "m", "ن": "n", "ه": "h", "و": "w", "ي": "y",
    "ى": "a", "ة": "a", "ء": "", "ئ": "y", "ؤ": "w", "پ": "p", "چ": "ch", "ژ": "zh",
    "گ": "g", "ک": "k", "ی": "y", "ـ": "",
}  # fmt: skip

_BN_VOWELS = {
    "অ": "o", "আ": "a", "ই": "i", "ঈ": "i", "উ": "u", "ঊ": "u", "ঋ": "ri", "এ": "e",
    "ঐ": "oi", "ও": "o", "ঔ": "ou",
}  # fmt: skip
_BN_SIGNS = {
    "া": "a", "ি": "i", "ী": "i", "ু": "u", "ূ": "u", "ৃ": "ri", "ে": "e", "ৈ": "oi",
    "ো": "o", "ৌ": "ou",
}  # fmt: skip
_BN_CONSONANTS = {
    "ক": "k", "খ": "kh", "গ": "g", "ঘ": "gh", "ঙ": "ng", "চ": "ch", "ছ": "chh", "জ": "j",
    "ঝ": "jh", "ঞ": "n", "ট": "t", "ঠ": "th", "ড": "d", "ঢ": "dh", "ণ": "n", "ত": "t",
    "থ": "th", "দ": "d", "ধ": "dh", "ন": "n", "প": "p", "ফ": "f", "ব": "b", "ভ": "bh",
    "ম": "m", "য": "j", "র": "r", "ল": "l", "শ": "sh", "ষ": "sh", "স": "s", "হ": "h",
    "ড়": "r", "ঢ়": "rh", "য়": "y", "ৰ": "r", "ৱ": "w",
}  # fmt: skip
_BN_NUKTA = {"ড": "r", "ঢ": "rh", "য": "y"}
_BN_OTHER = {"ৎ": "t", "ং": "ng", "ঃ": "h", "ঁ": "", "্": "", "়": ""}
_VIRAMA = "্"
_NUKTA = "়"


def _bengali(text: str) -> str:
    # Every rule below looks only inside a run of Bengali letters and signs (any other
    # character — a space, a hyphen, a digit, a Latin letter — resets the vowel state and
    # is no letter for the look-aheads), so runs are spelt one by one and remembered:
    # terms of a big glossary share their words, and this loop was most of the time a
    # 50,000-entry Bengali import spent naming its concepts. Digits are spelt apart (no
    # rule looks past one): numbered terms ("পদ ১২৩") would otherwise make every word with
    # a number a new one to spell. Joiners belong to the run (they sit inside words).
    pieces = _BN_RUN_RE.split(text)  # other text, a run, other text, …, other text
    pieces[1::2] = map(_bengali_word, pieces[1::2])  # (no Python call per remembered run)
    spelt = "".join(pieces)
    if spelt.isascii():
        return spelt
    # The digits replaced one by one: translating a whole text that holds one non-Latin-1
    # character looks every character up (3 µs a term, more than the spelling), and a
    # call per run of digits is most of spelling many terms at once.
    for digit, latin in _BN_DIGITS:
        spelt = spelt.replace(digit, latin)
    return spelt


_BN_RUN_RE = re.compile("([\u0980-\u09e5\u09f0-\u09ff\u200c\u200d]+)")
_BN_DIGITS = tuple(zip("০১২৩৪৫৬৭৮৯", "0123456789", strict=True))


@functools.lru_cache(maxsize=65_536)
def _bengali_word(text: str) -> str:
    # Joiners only choose glyph shapes (র‍্য is ra + ya-phala): no sound.
    text = text.replace("\u200d", "").replace("\u200c", "")
    # "অ্যা" spells the æ of English loans ("অ্যাডাপ্টার" = adapter): write it "a".
    text = text.replace("অ্যা", "আ")
    out: list[str] = []
    n = len(text)
    i = 0
    vowel_before = False  # whether the sound just written ends in a vowel
    while i < n:
        ch = text[i]
        if ch in _BN_CONSONANTS:
            after_vowel = vowel_before
            sound = _BN_CONSONANTS[ch]
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == _NUKTA:
                sound = _BN_NUKTA.get(ch, sound)
                i += 1
                nxt = text[i + 1] if i + 1 < n else ""
            if nxt == _VIRAMA and text[i + 2 : i + 3] == "য" and text[i + 3 : i + 4] != _NUKTA:
                # Ya-phala: before া it is the æ of loans ("প্যারালেল" = parallel), else "y".
                if text[i + 3 : i + 4] == "া":
                    out.append(sound + "a")
                    i += 4
                    vowel_before = True
                    continue
                sound += "y"
                i += 2
                nxt = text[i + 1] if i + 1 < n else ""
            out.append(sound)
            # The inherent vowel is spoken unless a sign, a virama or a word end follows —
            # and, as in speech, not between a vowel and a consonant that has its own
            # vowel ("টেনসর" = tensor, not tenosor).
            vowel_before = False
            if nxt and nxt not in _BN_SIGNS and nxt != _VIRAMA and _is_bengali_letter(nxt):
                after = text[i + 2] if i + 2 < n else ""
                carries = after in _BN_SIGNS or (
                    after != _VIRAMA and after != _NUKTA and _is_bengali_letter(after)
                )
                if not (after_vowel and carries):
                    out.append("o")
                    vowel_before = True
        elif ch in _BN_VOWELS:
            out.append(_BN_VOWELS[ch])
            vowel_before = True
        elif ch in _BN_SIGNS:
            out.append(_BN_SIGNS[ch])
            vowel_before = True
        elif ch in _BN_OTHER:
            out.append(_BN_OTHER[ch])
            vowel_before = vowel_before and ch in ("ঁ", "়")
        elif "০" <= ch <= "৯":
            out.append(str(ord(ch) - ord("০")))
            vowel_before = False
        else:
            out.append(ch)
            vowel_before = False
        i += 1
    return "".join(out)


def _is_bengali_letter(ch: str) -> bool:
    return ch in _BN_CONSONANTS or ch in _BN_VOWELS or ch in ("ং", "ঃ", "ৎ")


_TABLE = str.maketrans(
    {
        **{ch: latin for ch, latin in _CYRILLIC.items()},
        **{ch.upper(): latin for ch, latin in _CYRILLIC.items()},
        **_ARABIC,
        **{chr(0x0660 + d): str(d) for d in range(10)},
        **{chr(0x06F0 + d): str(d) for d in range(10)},
    }
)
_BENGALI_RE = re.compile("[\u0980-\u09ff]")


def transliterate(text: str) -> str:
    """A rough Latin spelling of Bengali, Arabic and Cyrillic text; Latin text is kept."""
    if text.isascii():
        return text
    if _BENGALI_RE.search(text):
        text = _bengali(text)
        if text.isascii():  # the table maps other scripts' letters only
            return text
    return text.translate(_TABLE)


def fully_transliterable(text: str) -> bool:
    """Whether every letter of ``text`` has a Latin spelling here (Latin, Cyrillic,
    Arabic or Bengali script), so a slug of it loses no word."""
    latin = transliterate(text)
    if not latin.isascii():
        latin = unicodedata.normalize("NFKD", latin)
        latin = "".join(ch for ch in latin if not unicodedata.combining(ch))
    return not any(ch.isalpha() and not ch.isascii() for ch in latin) and any(
        ch.isalnum() for ch in latin
    )


_NOT_SLUG_RE = re.compile(r"[^a-z0-9]+")
_NOT_SLUG_NOR_LINE_END_RE = re.compile(r"[^a-z0-9\n]+")
_SLUG_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
# The same for ASCII text: each other character made a hyphen (str.translate's ASCII path),
# then the runs of hyphens made one (far fewer than the runs of other characters).
_ASCII_NOT_SLUG = str.maketrans({chr(c): "-" for c in range(128) if chr(c) not in _SLUG_CHARS})
_ASCII_NOT_SLUG_NOR_LINE_END = str.maketrans(
    {chr(c): "-" for c in range(128) if chr(c) not in _SLUG_CHARS + "\n"}
)
_HYPHENS_RE = re.compile("-{2,}")


def _hyphenated(latin: str, line_ends: bool = False) -> str:
    """``latin`` with each run of characters a slug doesn't hold made one hyphen (line breaks
    kept when ``line_ends``)."""
    if latin.isascii():
        table = _ASCII_NOT_SLUG_NOR_LINE_END if line_ends else _ASCII_NOT_SLUG
        return _HYPHENS_RE.sub("-", latin.translate(table))
    return (_NOT_SLUG_NOR_LINE_END_RE if line_ends else _NOT_SLUG_RE).sub("-", latin)


def _latin_lower(text: str) -> str:
    """``text`` transliterated, without accents, lower-cased: what a slug is cut from."""
    latin = transliterate(text)
    if not latin.isascii():
        latin = unicodedata.normalize("NFKD", latin)
        # The combining marks are found among the text's distinct characters and each
        # removed by one replace: testing every character in Python took five times as
        # long for the joined terms of a 50,000-entry French glossary.
        for mark in {ch for ch in set(latin) if unicodedata.combining(ch)} - _KANA_VOICING:
            latin = latin.replace(mark, "")
        if not latin.isascii():
            # Letters the spellings above don't know (Devanagari, Han, kana, Hangul, Turkish
            # ı, ß…) are spelt by anyascii, letter by letter, kana and Hangul composed again:
            # they were dropped, and a Hindi or Chinese glossary's concepts were all named
            # concept, concept-2…
            latin = anyascii(unicodedata.normalize("NFC", latin))
    return latin.lower()


#: Kana's voicing marks, kept on their letter: バ is ba, ハ ha.
_KANA_VOICING = frozenset("\u3099\u309a")


def _cut(slug: str, max_len: int) -> str:
    if len(slug) > max_len:
        cut = slug[:max_len]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else cut
    return slug


def slugify(text: str, max_len: int = 48) -> str:
    """``"Flash Attention"`` → ``"flash-attention"``; other scripts are transliterated.

    Returns ``""`` when nothing usable remains.
    """
    return _cut(_hyphenated(_latin_lower(text)).strip("-"), max_len)


def slugify_many(texts: Sequence[str], max_len: int = 48) -> list[str]:
    """``[slugify(text) for text in texts]``, for the thousands of new concepts of a big
    import: texts are spelt many at once, joined by line breaks.

    Every step looks at one character, or (Bengali) inside one run of letters, which a
    line break ends, and no step makes or removes a line break: so the joined text's
    lines are the texts' slugs before they are cut. The one exception: joiners (U+200C,
    U+200D) belong to a run of Bengali letters only in a text spelt as Bengali, so with
    any joiner about, texts with Bengali letters and texts without are joined apart. A
    text holding a line break sends its group one by one.
    """
    joined = "\n".join(texts)
    if "\u200c" not in joined and "\u200d" not in joined:
        return _slug_lines(texts, joined, max_len)
    slugs = [""] * len(texts)
    groups: tuple[list[int], list[int]] = ([], [])
    for index, text in enumerate(texts):
        groups[_BENGALI_RE.search(text) is None].append(index)
    for group in groups:
        texts_of = [texts[i] for i in group]
        spelt = _slug_lines(texts_of, "\n".join(texts_of), max_len)
        for index, slug in zip(group, spelt, strict=True):
            slugs[index] = slug
    return slugs


def _slug_lines(texts: Sequence[str], joined: str, max_len: int) -> list[str]:
    """The slugs of ``texts``, whose join by line breaks is ``joined``."""
    if joined.count("\n") == len(texts) - 1:
        lines = _hyphenated(_latin_lower(joined), line_ends=True).split("\n")
        if len(lines) == len(texts):
            slugs = [line.strip("-") for line in lines]
            if slugs and max(map(len, slugs)) > max_len:
                slugs = [_cut(slug, max_len) for slug in slugs]
            return slugs
    return [slugify(text, max_len) for text in texts]
