"""A concept as an Anki note: HTML-escaped fields, tags, and a GUID from the concept uid.

Anki renders field content as HTML, so every text is escaped: a term
``<script>alert(1)</script>`` or ``&`` arrives and shows literally. Anki does not
re-read field content as template syntax, so ``{{Front}}`` needs nothing beyond
that. Line breaks become ``<br>``. Text is NFC-normalised, as Anki stores it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from quizzer.anki.faces import also_seen
from quizzer.anki.ids import note_guid
from quizzer.anki.model import (
    FIELD_ACRONYM,
    FIELD_CONCEPT,
    FIELD_INDEX,
    FIELD_NAMES,
    FIELD_SOURCE,
    GUARD_PAIRS,
    GUARD_VALUE,
    field_name,
    guard_field,
    variants_field,
)
from quizzer.concepts.concept import Concept, Provenance
from quizzer.concepts.languages import LANGUAGES

_NEWLINE_RE = re.compile(r"\r\n|\r|\n")
_BR_RE = re.compile(r"<br>")
_TAG_BAD_RE = re.compile(r"[\s\"]+")
_CONCEPT = FIELD_INDEX[FIELD_CONCEPT]
_ACRONYM = FIELD_INDEX[FIELD_ACRONYM]
_SOURCE = FIELD_INDEX[FIELD_SOURCE]


def to_field(text: str) -> str:
    """Plain text → field HTML that displays exactly ``text`` (NFC)."""
    if not unicodedata.is_normalized("NFC", text):  # the C check is much cheaper than normalize
        text = unicodedata.normalize("NFC", text)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if "\n" in escaped or "\r" in escaped:
        escaped = _NEWLINE_RE.sub("<br>", escaped)
    return escaped


def from_field(value: str) -> str:
    """Inverse of :func:`to_field` (for tests and round trips)."""
    return html.unescape(_BR_RE.sub("\n", value))


@lru_cache(maxsize=4096)
def _provenance(prov: Provenance) -> str:
    text: str = prov.kind
    if prov.file:
        text += f" {prov.file}"
        if prov.line:
            text += f":{prov.line}"
    if prov.kind == "corrected":
        text += f" (was: {prov.original}; why: {prov.reason})"
    return text


def source_text(concept: Concept) -> str:
    """Plain-text provenance of every text of the concept, one line each."""
    return "\n".join(
        f"{lang} {side}: {_provenance(text.source)}" for lang, side, text in concept.texts()
    )


_GUARDS: tuple[tuple[str, str, int], ...] = tuple(
    (a, b, FIELD_INDEX[guard_field(a, b)]) for a, b in GUARD_PAIRS
)


def _same_term_key(text: str) -> str:
    """What two terms must share to be "the same word": NFC, case-folded, trimmed."""
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text.casefold().strip()


_SLOTS: tuple[tuple[str, int, int], ...] = tuple(
    (lang, FIELD_INDEX[field_name(lang, "term")], FIELD_INDEX[field_name(lang, "definition")])
    for lang in LANGUAGES
)
_VARIANT_SLOTS: dict[str, int] = {lang: FIELD_INDEX[variants_field(lang)] for lang in LANGUAGES}


@lru_cache(maxsize=4096)
def _source_line(lang: str, side: str, prov: Provenance) -> str:
    return to_field(f"{lang} {side}: {_provenance(prov)}")


def note_fields(concept: Concept) -> list[str]:
    """The note's field values, in :data:`~quizzer.anki.model.FIELD_NAMES` order."""
    # One pass over the entries (this runs once per note of a 10k-concept export).
    values = [""] * len(FIELD_NAMES)
    values[_CONCEPT] = to_field(concept.uid)
    sources: list[str] = []
    entries = concept.entries
    term_keys: dict[str, str] = {}
    for lang, term_slot, definition_slot in _SLOTS:
        entry = entries.get(lang)
        if entry is None:
            continue
        term_keys[lang] = _same_term_key(entry.term.text)
        values[term_slot] = to_field(entry.term.text)
        values[definition_slot] = to_field(entry.definition.text)
        if entry.term.source.kind == "corrected":
            variant = also_seen(entry.term)
            if variant:
                values[_VARIANT_SLOTS[lang]] = to_field(variant)
        sources.append(_source_line(lang, "term", entry.term.source))
        sources.append(_source_line(lang, "definition", entry.definition.source))
    if concept.acronym:
        values[_ACRONYM] = to_field(concept.acronym)
    values[_SOURCE] = "<br>".join(sources)
    # Guard fields gate the translate cards: filled only where the terms differ.
    if len(term_keys) > 1:
        for lang_a, lang_b, slot in _GUARDS:
            key_a = term_keys.get(lang_a)
            if key_a:
                key_b = term_keys.get(lang_b)
                if key_b and key_a != key_b:
                    values[slot] = GUARD_VALUE
    return values


def _tag_part(text: str) -> str:
    # Anki tags can't hold spaces; keep everything else (tags are Unicode).
    return _TAG_BAD_RE.sub("_", unicodedata.normalize("NFC", text).strip())


def note_tags(concept: Concept, pairs: Iterable[tuple[str, str]] = ()) -> list[str]:
    """``quizzer``, ``deck::<id>``, ``lang::<code>`` per language, ``acronym::<acronym>``,
    ``direction::<from>-<to>`` per language pair the note has cards for (``pairs``), and
    ``quizzer::corrected`` when a text of the concept corrects its glossary."""
    tags = ["quizzer", f"deck::{concept.deck}"]
    tags.extend(f"lang::{lang}" for lang in concept.languages)
    acronym = _tag_part(concept.acronym) if concept.acronym else ""
    if acronym:
        tags.append(f"acronym::{acronym}")
    tags.extend(f"direction::{source}-{target}" for source, target in dict.fromkeys(pairs))
    if any(text.source.kind == "corrected" for _, _, text in concept.texts()):
        tags.append("quizzer::corrected")
    return tags


def guid(concept: Concept) -> str:
    """The note GUID: from the namespaced uid only, so edits update the same note."""
    return note_guid(concept.uid)
