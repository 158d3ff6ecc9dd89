"""Readable ASCII ids (slugs) from terms in any of quizzer's scripts.

Concept ids must be stable, short and typeable (``lora``, ``flash-attention``).
Terms without a Latin spelling are transliterated — roughly, since the id only
needs to be readable, not reversible.
"""

from __future__ import annotations

import re
import unicodedata

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
    "থ": "th", "দ": "d", "ধ": "dh", "ন": "n", "প": "p", "ফ": "ph", "ব": "b", "ভ": "bh",
    "ম": "m", "য": "j", "র": "r", "ল": "l", "শ": "sh", "ষ": "sh", "স": "s", "হ": "h",
    "ড়": "r", "ঢ়": "rh", "য়": "y", "ৰ": "r", "ৱ": "w",
}  # fmt: skip
_BN_NUKTA = {"ড": "r", "ঢ": "rh", "য": "y"}
_BN_OTHER = {"ৎ": "t", "ং": "ng", "ঃ": "h", "ঁ": "", "্": "", "়": ""}
_VIRAMA = "্"
_NUKTA = "়"


def _bengali(text: str) -> str:
    # "অ্যা" spells the æ of English loans ("অ্যাডাপ্টার" = adapter): write it "a".
    text = text.replace("অ্যা", "আ")
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch in _BN_CONSONANTS:
            sound = _BN_CONSONANTS[ch]
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == _NUKTA:
                sound = _BN_NUKTA.get(ch, sound)
                i += 1
                nxt = text[i + 1] if i + 1 < n else ""
            out.append(sound)
            # The inherent vowel is spoken unless a sign, a virama or a word end follows.
            if nxt and nxt not in _BN_SIGNS and nxt != _VIRAMA and _is_bengali_letter(nxt):
                out.append("o")
        elif ch in _BN_VOWELS:
            out.append(_BN_VOWELS[ch])
        elif ch in _BN_SIGNS:
            out.append(_BN_SIGNS[ch])
        elif ch in _BN_OTHER:
            out.append(_BN_OTHER[ch])
        elif "০" <= ch <= "৯":
            out.append(str(ord(ch) - ord("০")))
        else:
            out.append(ch)
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
    return text.translate(_TABLE)


def slugify(text: str, max_len: int = 48) -> str:
    """``"Flash Attention"`` → ``"flash-attention"``; other scripts are transliterated.

    Returns ``""`` when nothing usable remains.
    """
    latin = transliterate(text)
    if not latin.isascii():
        latin = unicodedata.normalize("NFKD", latin)
        latin = "".join(ch for ch in latin if not unicodedata.combining(ch))
    slug = re.sub(r"[^a-z0-9]+", "-", latin.lower()).strip("-")
    if len(slug) > max_len:
        cut = slug[:max_len]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else cut
    return slug
