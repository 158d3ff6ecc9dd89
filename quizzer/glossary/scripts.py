"""Which writing system a text is in: letters counted per script (ISO 15924 codes).

The script decides most of language identification (:mod:`quizzer.glossary.language_id`):
it narrows the languages a detector weighs (Arabic script to Arabic, Persian, Urdu…).
Digits, punctuation and Arabic harakat carry no language and are not counted.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter

# Script ranges (letters only; digits and punctuation carry no language).
_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("Beng", "\u0980-\u09ff"),
    ("Arab", "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff"),
    ("Cyrl", "\u0400-\u052f"),
    ("Deva", "\u0900-\u097f"),
    ("Latn", "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"),
    ("Grek", "\u0370-\u03ff"),
    ("Hebr", "\u0590-\u05ff"),
    ("Hani", "\u4e00-\u9fff\u3400-\u4dbf"),
    ("Kana", "\u3040-\u30ff"),
    ("Hang", "\uac00-\ud7af\u1100-\u11ff"),
    ("Thai", "\u0e00-\u0e7f"),
    ("Taml", "\u0b80-\u0bff"),
    ("Guru", "\u0a00-\u0a7f"),
    ("Gujr", "\u0a80-\u0aff"),
    ("Telu", "\u0c00-\u0c7f"),
    ("Knda", "\u0c80-\u0cff"),
    ("Mlym", "\u0d00-\u0d7f"),
    ("Geor", "\u10a0-\u10ff"),
    ("Armn", "\u0530-\u058f"),
    ("Ethi", "\u1200-\u137f"),
    ("Syrc", "\u0700-\u074f"),
    ("Thaa", "\u0780-\u07bf"),
    ("Nkoo", "\u07c0-\u07ff"),
    ("Orya", "\u0b00-\u0b7f"),
    ("Sinh", "\u0d80-\u0dff"),
    ("Laoo", "\u0e80-\u0eff"),
    ("Tibt", "\u0f00-\u0fff"),
    ("Mymr", "\u1000-\u109f"),
    ("Khmr", "\u1780-\u17ff"),
)
# Signs that aren't letters (Bengali/Arabic/Devanagari digits, danda, Arabic harakat
# and punctuation) would otherwise count as script evidence; they are excluded.
_NON_LETTERS = (
    "\u09e6-\u09ef\u0964\u0965\u0660-\u0669\u06f0-\u06f9\u060c\u061b\u061f\u064b-\u065f"
    "\u0670\u0966-\u096f"
)


def _spans(ranges: str) -> list[tuple[int, int]]:
    """Code point spans (first, last) of a character-class body like ``"a-z\u00c0"``."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(ranges):
        if i + 2 < len(ranges) and ranges[i + 1] == "-":
            spans.append((ord(ranges[i]), ord(ranges[i + 2])))
            i += 3
        else:
            spans.append((ord(ranges[i]), ord(ranges[i])))
            i += 1
    return spans


def _without(spans: list[tuple[int, int]], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` minus the code points of ``holes``, sorted, touching spans joined."""
    out: list[tuple[int, int]] = []
    for first, last in spans:
        pieces = [(first, last)]
        for hole_first, hole_last in holes:
            pieces = [
                piece
                for a, b in pieces
                for piece in ((a, min(b, hole_first - 1)), (max(a, hole_last + 1), b))
                if piece[0] <= piece[1]
            ]
        out.extend(pieces)
    merged: list[tuple[int, int]] = []
    for first, last in sorted(out):  # in order, touching spans joined
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


# The letters of each script as code point spans, digits and signs taken out. The spans
# are computed, not every code point listed: the table of all ~45,000 letters took a
# tenth of a second to build at every start, for a lookup a bisection does as well.
_LETTER_SPANS: dict[str, list[tuple[int, int]]] = {
    name: _without(_spans(chars), _spans(_NON_LETTERS)) for name, chars in _SCRIPTS
}
_SPAN_STARTS: list[int] = []
_SPAN_SCRIPT: list[tuple[int, str]] = []  # (last code point, script) of each span, by start
for _first, _last, _name in sorted(
    (first, last, name) for name, spans in _LETTER_SPANS.items() for first, last in spans
):
    _SPAN_STARTS.append(_first)
    _SPAN_SCRIPT.append((_last, _name))


def script_of(ch: str) -> str | None:
    """The script of a letter (``None`` for a digit, a sign or an unlisted character)."""
    point = ord(ch)
    k = bisect.bisect_right(_SPAN_STARTS, point) - 1
    if k < 0 or _SPAN_SCRIPT[k][0] < point:
        return None
    return _SPAN_SCRIPT[k][1]


def _letter_script(ch: str) -> str:
    """:func:`script_of` a character known to be a letter of one of the scripts."""
    return _SPAN_SCRIPT[bisect.bisect_right(_SPAN_STARTS, ord(ch)) - 1][1]


SCRIPT_NAMES: dict[str, str] = {
    "Beng": "Bengali",
    "Arab": "Arabic",
    "Cyrl": "Cyrillic",
    "Deva": "Devanagari",
    "Latn": "Latin",
    "Grek": "Greek",
    "Hebr": "Hebrew",
    "Hani": "Chinese",
    "Kana": "Japanese",
    "Hang": "Korean",
    "Thai": "Thai",
    "Taml": "Tamil",
    "Guru": "Gurmukhi",
    "Gujr": "Gujarati",
    "Telu": "Telugu",
    "Knda": "Kannada",
    "Mlym": "Malayalam",
    "Geor": "Georgian",
    "Armn": "Armenian",
    "Ethi": "Ethiopic",
    "Syrc": "Syriac",
    "Thaa": "Thaana",
    "Nkoo": "N'Ko",
    "Orya": "Odia",
    "Sinh": "Sinhala",
    "Laoo": "Lao",
    "Tibt": "Tibetan",
    "Mymr": "Myanmar",
    "Khmr": "Khmer",
}


def script_counts(text: str) -> Counter[str]:
    """How many letters of each script ``text`` has (in the order of their first letter)."""
    counts: Counter[str] = Counter()
    for ch in text:
        script = script_of(ch)
        if script is not None:
            counts[script] += 1
    return counts


def _class_body(spans: list[tuple[int, int]]) -> str:
    """A regex character-class body for these code point spans."""
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in spans
    )


# The letters of each script as regex classes: finding which scripts a text has and
# counting their letters this way is about half the time of looking at every character.
_LETTERS_OF: dict[str, str] = {name: _class_body(spans) for name, spans in _LETTER_SPANS.items()}
_ANY_LETTER_RE = re.compile(f"[{''.join(_LETTERS_OF.values())}]")


@functools.cache
def run_re(name: str) -> re.Pattern[str]:
    """A run of letters of script ``name`` (compiled when first needed: a text in two
    scripts needs two of the twenty)."""
    return re.compile(f"[{_LETTERS_OF[name]}]+")


@functools.cache
def _letters_and_spaces_re(name: str) -> re.Pattern[str]:
    return re.compile(f"[{_LETTERS_OF[name]} ]+")


def letter_count(name: str, text: str) -> int:
    """How many letters of script ``name`` ``text`` has.

    Runs of its letters and spaces are taken out, and the spaces among them added back: a
    sentence is then a few runs, not one a word (a replacement per run was most of the time).
    """
    rest = _letters_and_spaces_re(name).sub("", text)
    return len(text) - len(rest) - (text.count(" ") - rest.count(" "))


@functools.lru_cache(maxsize=64)
def _letters_not_of(found: frozenset[str]) -> re.Pattern[str]:
    return re.compile(f"[{''.join(b for n, b in _LETTERS_OF.items() if n not in found)}]")


@functools.cache
def _letters_not_of_one(name: str) -> re.Pattern[str]:
    """The first search after a text's first letter, of script ``name`` (each pattern is
    compiled when first needed: all of them take ~0.15 s, most runs need one or two)."""
    return _letters_not_of(frozenset((name,)))


@functools.cache
def _letters_not_of_two(first: str, second: str) -> re.Pattern[str]:
    """The search after a text's first letters of two scripts (a Bengali definition with
    a Latin acronym): cached by the pair, without a set made per text."""
    return _letters_not_of(frozenset((first, second)))


def dominant_script(text: str) -> str | None:
    """The script with the most letters in ``text`` (``None`` without letters); ties go to
    the script seen first (as :func:`script_counts` ``.most_common`` would give them)."""
    letter = _ANY_LETTER_RE.search(text)
    if letter is None:
        return None
    # The scripts present, in the order of their first letter: each search looks for a
    # letter of a script not found yet. Most texts are in one script: one search settles it.
    first = _letter_script(letter.group())
    letter = _letters_not_of_one(first).search(text, letter.start())
    if letter is None:
        return first
    found = [first, _letter_script(letter.group())]
    letter = _letters_not_of_two(first, found[1]).search(text, letter.start())
    while letter is not None:
        found.append(_letter_script(letter.group()))
        if len(found) == len(_LETTERS_OF):
            break
        letter = _letters_not_of(frozenset(found)).search(text, letter.start())
    # Counted in the order found (a tie goes to the first), until no script not counted
    # yet can have as many letters as the best so far: a Bengali definition with an
    # acronym in it is settled by its Bengali letters alone.
    best, most, left = found[0], -1, len(text)
    for name in found:
        count = letter_count(name, text)
        if count > most:
            best, most = name, count
        left -= count  # at least as many as any script not counted yet has
        if most >= left:
            break
    return best


def entry_script(text: str) -> str | None:
    """The script that tells ``text``'s language: its :func:`dominant_script`, except that
    Han characters with any kana among them are Japanese (``Kana``), and with any Hangul
    Korean (``Hang``): Japanese and Korean write many words in Han characters."""
    script = dominant_script(text)
    if script == "Hani":
        for name in ("Kana", "Hang"):
            if run_re(name).search(text):
                return name
    return script
