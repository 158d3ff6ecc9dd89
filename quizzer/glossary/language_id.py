"""Which language a glossary entry is written in.

Deterministic and fast (a 50,000-entry glossary is tagged in about a second):

* the writing system decides first — Bengali script → ``bn``, Arabic script →
  ``ar``, Cyrillic → ``ru`` — with checks for the other languages sharing those
  scripts (Persian/Urdu letters, Assamese letters, Ukrainian/Serbian/Bulgarian…);
* Latin text is scored against small profiles of function words and letters
  (French, English, Spanish, German, …), mainly on the *definition*, because a
  term like ``GPTQ`` or ``Scale Factor`` is language-neutral or English even in
  a French glossary.

An entry we can't place in one of quizzer's languages is reported, never
silently filed under one of ours; the adapter then suggests ``--lang CODE``.
A statistical detector (lingua) was considered and left out: restricted to a few
languages it always answers with one of them, it needs a 1 s model load, and it
measured ~250 µs per French definition here against ~35 µs for this module.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizzer.concepts.languages import LANGUAGES
from quizzer.errors import SourceError

#: Names of languages we may detect but don't teach, for messages.
OTHER_LANGUAGE_NAMES: dict[str, str] = {
    "fa": "Persian",
    "ur": "Urdu",
    "as": "Assamese",
    "hi": "Hindi (or another Devanagari language)",
    "uk": "Ukrainian",
    "be": "Belarusian",
    "bg": "Bulgarian",
    "sr": "Serbian",
    "mk": "Macedonian",
    "kk": "Kazakh",
    "es": "Spanish",
    "de": "German",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "pl": "Polish",
    "tr": "Turkish",
    "sv": "Swedish",
}

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
)
# Signs that aren't letters (Bengali/Arabic/Devanagari digits, danda, Arabic harakat
# and punctuation) would otherwise count as script evidence; they are excluded.
_NON_LETTERS = (
    "\u09e6-\u09ef\u0964\u0965\u0660-\u0669\u06f0-\u06f9\u060c\u061b\u061f\u064b-\u065f"
    "\u0670\u0966-\u096f"
)


def _expand(ranges: str) -> list[int]:
    """Code points of a character-class body like ``"a-z\u00c0"``."""
    points: list[int] = []
    i = 0
    while i < len(ranges):
        if i + 2 < len(ranges) and ranges[i + 1] == "-":
            points.extend(range(ord(ranges[i]), ord(ranges[i + 2]) + 1))
            i += 3
        else:
            points.append(ord(ranges[i]))
            i += 1
    return points


# Counting letters per script with one str.translate (each letter becomes its script's
# private-use marker) and a str.count per script: ~20x faster than a regex per script,
# which matters for 50,000-entry glossaries.
_MARKERS = {name: chr(0xF0000 + k) for k, (name, _chars) in enumerate(_SCRIPTS)}
_SCRIPT_NAME_OF = {marker: name for name, marker in _MARKERS.items()}


class _ScriptTable(dict[int, "str | None"]):
    """Letters → their script's marker; everything else (digits, spaces, symbols) → deleted."""

    def __missing__(self, key: int) -> None:
        return None


_SCRIPT_TABLE = _ScriptTable.fromkeys(range(128))  # ASCII non-letters: deleted, no lookup miss
for _name, _chars in _SCRIPTS:
    for _point in _expand(_chars):
        _SCRIPT_TABLE[_point] = _MARKERS[_name]
for _point in _expand(_NON_LETTERS):
    _SCRIPT_TABLE[_point] = None

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
}

# Arabic-script letters Persian and Urdu use where Arabic doesn't (peh, tcheh, jeh, gaf,
# farsi yeh, keheh) versus letters of Arabic spelling Persian avoids (yeh, alef maksura,
# kaf, teh marbuta).
_PERSIAN_LETTERS = frozenset("پچژگیک")
_URDU_LETTERS = frozenset("ٹڈڑںےھ")
_ARABIC_LETTERS = frozenset("يىكة")
_ASSAMESE_LETTERS = frozenset("ৰৱ")
_CYRILLIC_MARKERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("uk", frozenset("іїєґІЇЄҐ")),
    ("be", frozenset("ўЎ")),
    ("sr", frozenset("ђјљњћџЂЈЉЊЋЏ")),
    ("mk", frozenset("ѓќѕЃЌЅ")),
    ("kk", frozenset("қғүұңөһәҚҒҮҰҢӨҺӘ")),
)


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_RUSSIAN_ONLY = frozenset("ыэёЫЭЁ")
_BULGARIAN_WORDS = _wordset("са във със които това който която ще към е")
_RUSSIAN_WORDS = _wordset("что это для который которые которая как или чтобы при был")

# Function words per Latin-script language: frequent, short, and mostly exclusive.
_LATIN_WORDS: dict[str, frozenset[str]] = {
    "en": _wordset(
        "the of and to in is are for with by that which this from as an on or be it its "
        "at into while without their used using between than can not more such has have "
        "was were these those each other only also when how all during across through within"
    ),
    "fr": _wordset(
        "le la les des du de un une et est sont pour dans avec sur par qui que ne pas au aux "
        "ce cette ces son sa ses leur leurs lors selon sans entre mais où aucune aucun "
        "en à plus il elle ou été être très l' d' qu' n' s' c' j'"
    ),
    "es": _wordset(
        "el la los las del de y en para con que por una es se su sus al como entre sin pero más "
        "según cuando donde muy"
    ),
    "de": _wordset(
        "der die das und ist mit für von zu den dem des ein eine einer eines nicht auf im "
        "wird werden sich auch durch oder bei zur zum beim über unter wie als nach"
    ),
    "it": _wordset(
        "il lo la l' gli della delle dei di e è per con che una un nel nella sono da sul alla "
        "degli come anche senza"
    ),
    "pt": _wordset(
        "o os as de do da dos das e é para com que uma um em no na por ao não são pelo pela "
        "mais como sem entre"
    ),
    "nl": _wordset(
        "de het een en van is voor met op te dat die in zijn niet door worden wordt ook bij naar om"
    ),
    "pl": _wordset("i w z na do się jest nie że to od przez dla oraz jak są po który która"),
    "tr": _wordset("ve bir bu için ile da de olarak olan daha gibi çok veya"),
    "sv": _wordset("och att det som en ett är för med på av till den inte om"),
}
_WORD_OWNERS: dict[str, tuple[str, ...]] = {}
for _lang, _vocab in _LATIN_WORDS.items():
    for _word in _vocab:
        _WORD_OWNERS[_word] = (*_WORD_OWNERS.get(_word, ()), _lang)

# Letters that point to one Latin-script language.
_LATIN_LETTERS: dict[str, str] = {
    "fr": "çœêëîïôûùÿâ",
    "es": "ñ¿¡",
    "de": "äöüß",
    "pt": "ãõ",
    "pl": "ąćęłńśźż",
    "tr": "ğışİ",
    "sv": "å",
}
# letter → (language, weight); é/à are shared by French, Spanish, Portuguese and Italian,
# so they are only weak French evidence.
_LETTER_WEIGHTS: dict[str, tuple[str, float]] = {
    ch: (lang, 0.5) for lang, letters in _LATIN_LETTERS.items() for ch in letters
}
_LETTER_WEIGHTS.update({"é": ("fr", 0.25), "à": ("fr", 0.25)})
# Deletes every character but those letters (Latin-range ones without a lookup miss).
_LETTER_TABLE = _ScriptTable.fromkeys(range(0x250))
_LETTER_TABLE.update({ord(ch): ch for ch in _LETTER_WEIGHTS})
_WORD_RE = re.compile(r"[^\W\d_]+'?|'", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Guess:
    """What :func:`identify` concluded about one text.

    ``lang`` is an ISO 639-1 code — possibly one quizzer doesn't teach, such as
    ``fa`` — or ``None`` when the text gives too little evidence. ``script`` is an
    ISO 15924 code of the dominant writing system (``None`` without letters).
    """

    lang: str | None
    script: str | None
    reason: str

    @property
    def supported(self) -> bool:
        """Whether ``lang`` is one of quizzer's languages."""
        return self.lang in LANGUAGES


def language_name(code: str) -> str:
    """A readable name for a language code, ours or not."""
    from quizzer.concepts.languages import LANGUAGE_NAMES

    return LANGUAGE_NAMES.get(code) or OTHER_LANGUAGE_NAMES.get(code, code)


def script_counts(text: str) -> Counter[str]:
    """How many letters of each script ``text`` has."""
    marked = text.translate(_SCRIPT_TABLE)  # only script markers remain
    return Counter({_SCRIPT_NAME_OF[m]: n for m, n in Counter(marked).items()})


def _dominant_script(text: str) -> str | None:
    counts = script_counts(text)
    return counts.most_common(1)[0][0] if counts else None


def _arabic_script_language(text: str) -> Guess:
    persian = sum(text.count(ch) for ch in _PERSIAN_LETTERS)
    urdu = sum(text.count(ch) for ch in _URDU_LETTERS)
    arabic = sum(text.count(ch) for ch in _ARABIC_LETTERS)
    if urdu >= 2 and urdu + persian > arabic:
        return Guess("ur", "Arab", "Arabic script with Urdu letters (ٹ ڈ ڑ ں ے)")
    if persian > arabic:
        return Guess("fa", "Arab", "Arabic script with Persian letters (پ چ ژ گ ی ک)")
    return Guess("ar", "Arab", "Arabic script")


def _cyrillic_language(text: str) -> Guess:
    for code, letters in _CYRILLIC_MARKERS:
        if not letters.isdisjoint(text):
            return Guess(code, "Cyrl", f"Cyrillic with {language_name(code)} letters")
    if _RUSSIAN_ONLY.isdisjoint(text):
        words = [w.lower() for w in _WORD_RE.findall(text)]
        bg = sum(1 for w in words if w in _BULGARIAN_WORDS)
        ru = sum(1 for w in words if w in _RUSSIAN_WORDS)
        if bg >= 2 and bg > ru:
            return Guess("bg", "Cyrl", "Cyrillic without ы/э/ё, with Bulgarian function words")
    return Guess("ru", "Cyrl", "Cyrillic script")


def latin_scores(text: str) -> dict[str, float]:
    """Evidence per Latin-script language: function words, plus letters peculiar to one."""
    lowered = text.lower().replace("\u2019", "'")
    scores = dict.fromkeys(_LATIN_WORDS, 0.0)
    for word in _WORD_RE.findall(lowered):
        owners = _WORD_OWNERS.get(word)
        if owners is None and word.endswith("'"):
            owners = _WORD_OWNERS.get(word[:-1])  # "aujourd'", "dell'": the word itself
        if owners:
            # A word several languages share ("de", "que") is weak evidence for each.
            for lang in owners:
                scores[lang] += 1.0 / len(owners)
    distinctive = lowered.translate(_LETTER_TABLE)  # only the letters in _LETTER_WEIGHTS
    for ch in set(distinctive):
        lang, weight = _LETTER_WEIGHTS[ch]
        scores[lang] += weight * distinctive.count(ch)
    return scores


def _latin_language(text: str) -> Guess:
    scores = latin_scores(text)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, top), (_second, runner) = ranked[0], ranked[1]
    # About two function words (or equivalent letters) and a clear lead; otherwise undecided.
    if top >= 1.5 and top >= 1.5 * runner + 0.5:
        return Guess(best, "Latn", f"Latin script, {language_name(best)} function words")
    return Guess(None, "Latn", "Latin script, too few function words to tell the language")


def identify_text(text: str) -> Guess:
    """Guess the language of one text (a definition or a term)."""
    script = _dominant_script(text)
    if script is None:
        return Guess(None, None, "no letters")
    if script == "Beng":
        if not _ASSAMESE_LETTERS.isdisjoint(text):
            return Guess("as", "Beng", "Bengali script with Assamese letters (ৰ ৱ)")
        return Guess("bn", "Beng", "Bengali script")
    if script == "Arab":
        return _arabic_script_language(text)
    if script == "Cyrl":
        return _cyrillic_language(text)
    if script == "Latn":
        return _latin_language(text)
    if script == "Deva":
        return Guess("hi", "Deva", "Devanagari script")
    return Guess(None, script, f"{SCRIPT_NAMES.get(script, script)} script")


def identify(term: str, definition: str) -> Guess:
    """Guess an entry's language, mainly from its definition.

    The definition is the longer, sentence-like text; a term is often an acronym or
    an English loan (``GPTQ``, ``Scale Factor``) in any glossary. The term decides
    only when the definition is undecided, and for Latin text the two are pooled.
    """
    guess = identify_text(definition)
    if guess.lang is not None:
        return guess
    if guess.script == "Latn" or guess.script is None:
        pooled = identify_text(f"{definition} {term}")
        if pooled.lang is not None:
            return pooled
    if guess.script is None:
        return identify_text(term)
    return guess


class LanguageIdError(SourceError):
    """An entry's language is not one of quizzer's, or can't be told; ``line`` is 1-based."""


def _hint() -> str:
    codes = ", ".join(LANGUAGES)
    return (
        f"if the file is in one of quizzer's languages ({codes}), say which with "
        "--lang CODE (e.g. --lang fr); other languages can't be imported yet"
    )


def tag_entries(
    entries: Sequence[tuple[str, str, int]],
    forced: str | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """The language of each ``(term, definition, line)``; all ``forced`` when given.

    An entry whose Latin text is undecided takes the language most of the file's
    decided Latin entries have. Raises :class:`LanguageIdError` for an entry in a
    language quizzer doesn't teach, or when nothing decides. ``progress(done, total)``
    is called now and then, for a progress bar.
    """
    if forced is not None:
        if forced not in LANGUAGES:
            raise LanguageIdError(
                f"unknown language {forced!r}", None, f"--lang takes one of {', '.join(LANGUAGES)}"
            )
        return [forced] * len(entries)
    if progress is None:
        guesses = [identify(term, definition) for term, definition, _line in entries]
    else:
        guesses = []
        total = len(entries)
        step = max(1, total // 100)
        for done, (term, definition, _line) in enumerate(entries, start=1):
            guesses.append(identify(term, definition))
            if done % step == 0 or done == total:
                progress(done, total)
    for guess, (_term, _definition, line) in zip(guesses, entries, strict=True):
        if guess.lang is not None and not guess.supported:
            raise LanguageIdError(
                f"this entry looks {language_name(guess.lang)} ({guess.reason}), "
                "not one of quizzer's languages",
                line,
                _hint(),
            )
        if guess.lang is None and guess.script not in (None, "Latn"):
            raise LanguageIdError(
                f"this entry is in {guess.reason}, not one of quizzer's languages",
                line,
                _hint(),
            )
    latin = Counter(g.lang for g in guesses if g.script == "Latn" and g.lang)
    fallback = latin.most_common(1)[0][0] if latin else None
    langs: list[str] = []
    for guess, (_term, _definition, line) in zip(guesses, entries, strict=True):
        lang = guess.lang or fallback
        if lang is None:
            raise LanguageIdError(
                "can't tell this entry's language (too little text to go on)", line, _hint()
            )
        langs.append(lang)
    return langs
