"""Ids for the concepts an import creates: readable slugs, unique in the deck.

An acronym makes the best id (``peft``, ``lora``); then a term in Latin letters;
then a Latin name in a term's parenthesis; and only then a transliteration
(``paralelijom``). A taken id gets a number (``same-term-2``).
"""

from __future__ import annotations

import re

from quizzer.concepts.languages import LANGUAGES
from quizzer.concepts.term_parts import paren_parts, term_head
from quizzer.glossary.slot import Slot
from quizzer.glossary.slug import slugify


def new_concept_id(slot: Slot, taken: set[str]) -> str:
    """A readable slug for a new concept, not in ``taken``: from its acronym, else its Latin
    (English, French) term, else a Latin name in a parenthesis, else a transliteration."""
    base = ""
    if slot.acronym:
        base = slugify(slot.acronym)
    if not base:
        for lang in ("en", "fr", *LANGUAGES):
            entry = slot.entries.get(lang)
            if entry is None:
                continue
            head = term_head(entry.term.text)
            if lang in ("en", "fr") or _mostly_latin(head):
                base = slugify(head)
                if base:
                    break
    if not base:
        # A Latin name in parentheses ("Адаптация (Low-Rank Adaptation)") reads
        # better than a transliteration of the head.
        for lang in LANGUAGES:
            entry = slot.entries.get(lang)
            if entry is None:
                continue
            for part in _parenthesised(entry.term.text):
                if _mostly_latin(part):
                    base = slugify(part)
                    if base:
                        break
            if base:
                break
    if not base:
        for lang in ("ru", "bn", "ar", *LANGUAGES):
            entry = slot.entries.get(lang)
            if entry is not None:
                base = slugify(term_head(entry.term.text))
                if base:
                    break
    base = base or "concept"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def _parenthesised(term: str) -> tuple[str, ...]:
    """The parts inside a term's parentheses: ``"A (B/C)"`` → ``("B", "C")``."""
    parts = paren_parts(term)
    return parts[1] if parts is not None else ()


_ASCII_LETTER_RE = re.compile("[A-Za-z]")


def _mostly_latin(text: str) -> bool:
    if not _ASCII_LETTER_RE.search(text):  # the common case for Bengali, Arabic, Russian
        return False
    letters = [ch for ch in text if ch.isalpha()]
    latin = [ch for ch in letters if ch.isascii()]
    return bool(letters) and len(latin) * 2 > len(letters)
