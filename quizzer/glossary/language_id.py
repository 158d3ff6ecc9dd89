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

The tables are their own modules: :mod:`~quizzer.glossary.scripts` (letters per
writing system) and :mod:`~quizzer.glossary.function_words` (words and letters that
tell languages of one script apart).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizzer.concepts.languages import LANGUAGE_NAMES, LANGUAGES
from quizzer.errors import SourceError
from quizzer.glossary.function_words import (
    BULGARIAN_WORDS,
    RUSSIAN_WORDS,
    WORD_RE,
    latin_scores,
)
from quizzer.glossary.scripts import SCRIPT_NAMES, dominant_script

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

# Arabic-script letters Persian and Urdu use where Arabic doesn't (peh, tcheh, jeh, gaf,
# farsi yeh, keheh) versus letters of Arabic spelling Persian avoids (yeh, alef maksura,
# kaf, teh marbuta).
_PERSIAN_LETTERS = frozenset("پچژگیک")
_URDU_LETTERS = frozenset("ٹڈڑںےھ")
_ARABIC_LETTERS = frozenset("يىكة")
_CYRILLIC_MARKERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("uk", frozenset("іїєґІЇЄҐ")),
    ("be", frozenset("ўЎ")),
    ("sr", frozenset("ђјљњћџЂЈЉЊЋЏ")),
    ("mk", frozenset("ѓќѕЃЌЅ")),
    ("kk", frozenset("қғүұңөһәҚҒҮҰҢӨҺӘ")),
)

_RUSSIAN_ONLY = frozenset("ыэёЫЭЁ")


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


# The usual verdicts, made once (a guess is a frozen value; 50,000 entries need no copies).
_BENGALI = Guess("bn", "Beng", "Bengali script")
_ARABIC = Guess("ar", "Arab", "Arabic script")
_RUSSIAN = Guess("ru", "Cyrl", "Cyrillic script")


def language_name(code: str) -> str:
    """A readable name for a language code, ours or not."""
    return LANGUAGE_NAMES.get(code) or OTHER_LANGUAGE_NAMES.get(code, code)


def _arabic_script_language(text: str) -> Guess:
    persian = sum(text.count(ch) for ch in _PERSIAN_LETTERS)
    urdu = sum(text.count(ch) for ch in _URDU_LETTERS)
    arabic = sum(text.count(ch) for ch in _ARABIC_LETTERS)
    if urdu >= 2 and urdu + persian > arabic:
        return Guess("ur", "Arab", "Arabic script with Urdu letters (ٹ ڈ ڑ ں ے)")
    if persian > arabic:
        return Guess("fa", "Arab", "Arabic script with Persian letters (پ چ ژ گ ی ک)")
    return _ARABIC


def _cyrillic_language(text: str) -> Guess:
    for code, letters in _CYRILLIC_MARKERS:
        if not letters.isdisjoint(text):
            return Guess(code, "Cyrl", f"Cyrillic with {language_name(code)} letters")
    if _RUSSIAN_ONLY.isdisjoint(text):
        words = [w.lower() for w in WORD_RE.findall(text)]
        bg = sum(1 for w in words if w in BULGARIAN_WORDS)
        ru = sum(1 for w in words if w in RUSSIAN_WORDS)
        if bg >= 2 and bg > ru:
            return Guess("bg", "Cyrl", "Cyrillic without ы/э/ё, with Bulgarian function words")
    return _RUSSIAN


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
    script = dominant_script(text)
    if script is None:
        return Guess(None, None, "no letters")
    if script == "Beng":
        if "ৰ" in text or "ৱ" in text:  # Assamese letters (substring searches: fast)
            return Guess("as", "Beng", "Bengali script with Assamese letters (ৰ ৱ)")
        return _BENGALI
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


def _refusal(guess: Guess) -> str | None:
    """Why an entry so guessed can't be imported (``None``: it can, or the guess is undecided)."""
    if guess.lang is not None and not guess.supported:
        return (
            f"this entry looks {language_name(guess.lang)} ({guess.reason}), "
            "not one of quizzer's languages"
        )
    if guess.lang is None and guess.script not in (None, "Latn"):
        return f"this entry is in {guess.reason}, not one of quizzer's languages"
    return None


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
    # The few distinct guesses (most entries share one of the usual verdicts) are checked
    # first; only when one is refused are the entries looked at, to name the first's line.
    distinct = {id(guess): guess for guess in guesses}.values()
    if any(_refusal(guess) for guess in distinct):
        for guess, (_term, _definition, line) in zip(guesses, entries, strict=True):
            refusal = _refusal(guess)
            if refusal:
                raise LanguageIdError(refusal, line, _hint())
    latin = Counter(g.lang for g in guesses if g.script == "Latn" and g.lang)
    fallback = latin.most_common(1)[0][0] if latin else None
    if fallback is not None or all(guess.lang for guess in distinct):
        default = fallback or ""  # ("": never taken, every guess has a language then)
        return [guess.lang or default for guess in guesses]
    langs: list[str] = []
    for guess, (_term, _definition, line) in zip(guesses, entries, strict=True):
        lang = guess.lang or fallback
        if lang is None:
            raise LanguageIdError(
                "can't tell this entry's language (too little text to go on)", line, _hint()
            )
        langs.append(lang)
    return langs
