"""Latin transliterations of Bengali, Arabic and Russian texts, and how close an answer sounds.

A learner who types «lora» for «লোরা» knew the word but not its spelling in the
script: :func:`transliteration_similarity` measures that, on the spelling and on a
consonant skeleton (romanisations of Arabic drop short vowels, of Bengali the
inherent vowel).
"""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii
from rapidfuzz import fuzz


def transliterate(text: str) -> str:
    """A rough Latin spelling of ``text`` (anyascii), lower-cased."""
    return anyascii(unicodedata.normalize("NFC", text)).casefold()


_DIGRAPHS = (
    ("sh", "s"),
    ("ch", "c"),
    ("kh", "k"),
    ("gh", "g"),
    ("ph", "f"),
    ("th", "t"),
    ("dh", "d"),
    ("bh", "b"),
    ("jh", "j"),
    ("zh", "j"),
    ("ts", "c"),
    ("ck", "k"),
    ("x", "ks"),
)
_CONSONANT_FOLD = str.maketrans({"z": "j", "q": "k", "v": "b", "p": "f"})


def _skeleton(latin: str) -> str:
    """Consonants only, with look-alike sounds merged: Arabic romanisations have no
    short vowels and Bengali ones lose the inherent vowel, so vowels can't count."""
    s = latin.casefold()
    for old, new in _DIGRAPHS:
        s = s.replace(old, new)
    s = s.translate(_CONSONANT_FOLD)
    s = "".join(ch for ch in s if ch.isascii() and ch.isalpha() and ch not in "aeiouywh")
    return re.sub(r"(.)\1+", r"\1", s)


def has_letters_outside_latin(text: str) -> bool:
    """Whether ``text`` has letters of a script other than Latin (Bengali, Arabic, Cyrillic…)."""
    return any(ch.isalpha() and not ch.isascii() and not _is_latin(ch) for ch in text)


def _is_latin(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("LATIN ")


def is_latin_answer(text: str) -> bool:
    """Whether every letter of ``text`` is Latin (accents allowed): a transliteration."""
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(ch.isascii() or _is_latin(ch) for ch in letters)


def transliteration_similarity(typed: str, expected: str) -> float:
    """How close (0–100) a Latin-letter answer sounds to ``expected`` in another script."""
    roman = transliterate(expected)
    typed_fold = anyascii(typed).casefold()
    direct = fuzz.ratio(typed_fold, roman)
    a, b = _skeleton(typed_fold), _skeleton(roman)
    # A two-consonant skeleton ("lr" for «লোরা») only counts when identical.
    skel = fuzz.ratio(a, b) if len(b) >= 3 else (100.0 if a == b and a else 0.0)
    return max(direct, skel)
