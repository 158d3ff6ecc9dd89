"""The languages quizzer teaches and facts about how they are written."""

from __future__ import annotations

from typing import Literal

#: ISO 639-1 codes, in the order decks, tables and Anki fields list them.
LANGUAGES: tuple[str, ...] = ("en", "bn", "ar", "ru", "fr")

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "bn": "Bengali",
    "ar": "Arabic",
    "ru": "Russian",
    "fr": "French",
}

#: Names in the language itself, for headings a learner of that language reads.
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "bn": "বাংলা",
    "ar": "العربية",
    "ru": "Русский",
    "fr": "Français",
}

RTL_LANGUAGES: frozenset[str] = frozenset({"ar"})

Side = Literal["term", "definition"]
SIDES: tuple[Side, ...] = ("term", "definition")


def parse_side(text: str) -> Side:
    """The side ``text`` names: ``term`` or ``definition``, or any prefix of one (``t``,
    ``def``), in any case — as the header abbreviates them. Raises ``ValueError`` otherwise."""
    word = text.strip().lower()
    found = [side for side in SIDES if word and side.startswith(word)]
    if len(found) != 1:
        raise ValueError(f"unknown side {text.strip()!r}; use term or definition (or t, def)")
    return found[0]


def is_rtl(lang: str) -> bool:
    """Whether ``lang`` is written right to left."""
    return lang in RTL_LANGUAGES


def check_language(code: str) -> str:
    """Return ``code`` if quizzer knows it, else raise ``ValueError`` listing the known ones."""
    if code not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise ValueError(f"unknown language {code!r}; known languages: {known}")
    return code
