"""Ids for the concepts an import creates: readable slugs, unique in the deck.

An acronym makes the best id (``peft``, ``lora``); then a term in Latin letters;
then a Latin name in a term's parenthesis; and only then a transliteration
(``paralelijom``). A taken id gets a number (``same-term-2``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from quizzer.concepts.languages import script_of
from quizzer.concepts.term_parts import paren_parts
from quizzer.glossary.slot import Slot
from quizzer.glossary.slug import slugify, slugify_many

#: How faithfully a transliteration spells a script, best first: alphabets (every vowel
#: written), then abugidas and the rest, then abjads (short vowels left out), then Latin
#: (a Latin term is taken as it is before any transliteration is tried).
_TRANSLITERATION_RANK: dict[str, int] = {
    "Cyrl": 0, "Grek": 0, "Armn": 0, "Geor": 0,
    "Arab": 2, "Aran": 2, "Hebr": 2, "Syrc": 2,
    "Latn": 3,
}  # fmt: skip


def _latin_script(lang: str) -> bool:
    return script_of(lang) == "Latn"


def _english_first(langs: Sequence[str]) -> list[str]:
    """``langs`` with English first: the decks' common language names concepts best."""
    return sorted(langs, key=lambda lang: lang != "en")


def _transliteration_order(langs: Sequence[str]) -> list[str]:
    """``langs`` by how faithfully their script transliterates (stable within a rank)."""
    return sorted(langs, key=lambda lang: _TRANSLITERATION_RANK.get(script_of(lang) or "", 1))


def new_concept_ids(slots: Sequence[Slot], taken: set[str]) -> list[str]:
    """A readable slug for each new concept in turn, not in ``taken`` (each is added to it,
    so no two get one id): from its acronym, else its Latin (English, French) term, else a
    Latin name in a parenthesis, else a transliteration. The terms of one-language concepts
    (most of a big import's) are slugged together (:func:`~quizzer.glossary.slug.slugify_many`)."""
    single: list[tuple[int, str, str, tuple[str, ...]]] = []  # (index, lang, head, alternatives)
    for i, slot in enumerate(slots):
        if not slot.acronym and len(slot.entries) == 1:
            ((lang, entry),) = slot.entries.items()
            single.append((i, lang, *_split(entry.term.text)))
    heads = slugify_many([head for _i, _lang, head, _alternatives in single])
    bases: list[str | None] = [None] * len(slots)
    for (i, lang, head, alternatives), base in zip(single, heads, strict=True):
        bases[i] = _from_split(lang, head, alternatives, base)
    for i, (slot, named) in enumerate(zip(slots, bases, strict=True)):
        if named is None:
            named = slugify(slot.acronym) if slot.acronym else ""
            bases[i] = named or _from_terms(slot)
    return numbered([base or "concept" for base in bases], taken)


def numbered(bases: Sequence[str], taken: set[str]) -> list[str]:
    """Each of ``bases`` in turn made unique: itself when not in ``taken``, else the first of
    ``base-2``, ``base-3``… that isn't; each id given is added to ``taken``.

    The number to try next is remembered per base: ids are only ever added to ``taken``, so
    the numbers below it stay taken, and n identical terms cost n steps, not n²/2 (32,000
    identical entries took 65 s to name; 100,000 now take well under a second).
    """
    next_number: dict[str, int] = {}
    ids = []
    for base in bases:
        candidate = base
        if candidate in taken:
            n = next_number.get(base, 2)
            candidate = f"{base}-{n}"
            while candidate in taken:
                n += 1
                candidate = f"{base}-{n}"
            next_number[base] = n + 1
        taken.add(candidate)
        ids.append(candidate)
    return ids


def _from_terms(slot: Slot) -> str:
    """The slug of the first term (or parenthesised name) the rules of
    :func:`new_concept_ids` accept, or ``""``; each term is split only once."""
    entries = slot.entries
    if len(entries) == 1:  # most concepts of a big import: the rules for one language
        ((lang, entry),) = entries.items()
        return _from_term(lang, entry.term.text)
    parts: dict[str, tuple[str, tuple[str, ...]]] = {}
    for lang, entry in entries.items():
        parts[lang] = _split(entry.term.text)
    # A term in a Latin-script language (English first), then any mostly Latin term.
    order = _english_first(list(parts))
    latin_first = [lang for lang in order if _latin_script(lang)]
    for lang in [*latin_first, *(lang for lang in order if lang not in latin_first)]:
        head = parts[lang][0]
        if _latin_script(lang) or _mostly_latin(head):
            base = slugify(head)
            if base:
                return base
    # A Latin name in parentheses ("Адаптация (Low-Rank Adaptation)") reads
    # better than a transliteration of the head.
    for lang in order:
        for part in parts[lang][1]:
            if _mostly_latin(part):
                base = slugify(part)
                if base:
                    return base
    for lang in _transliteration_order(order):
        base = slugify(parts[lang][0])
        if base:
            return base
    return ""


def _split(term: str) -> tuple[str, tuple[str, ...]]:
    split = paren_parts(term)
    return split if split is not None else (term.strip(), ())


def _from_term(lang: str, term: str) -> str:
    """:func:`_from_terms` for a concept with a term in one language only: its Latin head,
    else a Latin name in its parenthesis, else its head transliterated."""
    head, alternatives = _split(term)
    return _from_split(lang, head, alternatives, slugify(head))


def _from_split(lang: str, head: str, alternatives: tuple[str, ...], base: str) -> str:
    """:func:`_from_term` of a term split into ``head`` (whose slug is ``base``) and the
    ``alternatives`` of its parenthesis."""
    latin = _latin_script(lang) or _mostly_latin(head)
    if latin and base:
        return base
    for part in alternatives:
        if _mostly_latin(part):
            named = slugify(part)
            if named:
                return named
    return base


_ASCII_LETTER_RE = re.compile("[A-Za-z]")


def _mostly_latin(text: str) -> bool:
    if not _ASCII_LETTER_RE.search(text):  # the common case for Bengali, Arabic, Russian
        return False
    letters = [ch for ch in text if ch.isalpha()]
    latin = [ch for ch in letters if ch.isascii()]
    return bool(letters) and len(latin) * 2 > len(letters)
