"""A concept as an Anki note: HTML-escaped fields, card guards, tags, and a GUID.

Which cards a note gets (:func:`note_cards`): the wanted directions whose two texts
exist, minus any card that asks nothing (its prompt and answer are the same text,
"GPTQ" → "GPTQ") and minus any card asking the same thing as one before it (the
same prompt text, asking the same language and side: when "GPTQ" is the Bengali,
Arabic, Russian and French term, ``meaning bn→en`` is kept and ``ar→en``, ``ru→en``,
``fr→en`` are not). Texts compare after NFC and case folding. The kept cards' guard
fields are filled, so Anki's own card generation agrees (see :mod:`quizzer.anki.model`).

Anki renders field content as HTML, so every text is escaped: a term
``<script>alert(1)</script>`` or ``&`` arrives and shows literally. Anki does not
re-read field content as template syntax, so ``{{Front}}`` needs nothing beyond
that. Line breaks become ``<br>``. Text is NFC-normalised, as Anki stores it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Collection, Iterable
from functools import lru_cache

from quizzer.anki.faces import also_seen
from quizzer.anki.ids import note_guid
from quizzer.anki.model import (
    BASE,
    FIELD_ACRONYM,
    FIELD_CONCEPT,
    FIELD_SOURCE,
    GUARD_VALUE,
    Direction,
    NoteType,
    variants_field,
)
from quizzer.concepts.concept import Concept, Provenance

_NEWLINE_RE = re.compile(r"\r\n|\r|\n")
_BR_RE = re.compile(r"<br>")
_TAG_BAD_RE = re.compile(r"[\s\"]+")


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


def _same_text_key(text: str) -> str:
    """What two texts must share to be "the same": NFC, case-folded, trimmed."""
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text.casefold().strip()


@lru_cache(maxsize=4096)
def _source_line(lang: str, side: str, prov: Provenance) -> str:
    return to_field(f"{lang} {side}: {_provenance(prov)}")


def note_cards(
    concept: Concept, wanted: Iterable[Direction], prefer: Collection[Direction] = ()
) -> list[Direction]:
    """The directions of ``wanted`` this concept's note gets a card for, in the order
    given: of two cards asking the same thing the first is kept, except that a
    direction in ``prefer`` (one the learner studies for this concept) comes first."""
    wanted = list(wanted)
    if prefer:
        wanted = [d for d in wanted if d in prefer] + [d for d in wanted if d not in prefer]
    keys: dict[tuple[str, str], str] = {}
    for lang, entry in concept.entries.items():
        keys[(lang, "term")] = _same_text_key(entry.term.text)
        keys[(lang, "definition")] = _same_text_key(entry.definition.text)
    kept: list[Direction] = []
    fronts: set[tuple[str, str, str]] = set()
    for direction in wanted:
        prompt_side, answer_side = direction.sides
        prompt = keys.get((direction.source, prompt_side))
        answer = keys.get((direction.target, answer_side))
        if not prompt or not answer or prompt == answer:
            continue
        front = (prompt, direction.target, answer_side)
        if front in fronts:
            continue
        fronts.add(front)
        kept.append(direction)
    return kept


def with_texts(concept: Concept, directions: Iterable[Direction]) -> list[Direction]:
    """The directions whose prompt and answer texts this concept has (and they differ):
    those whose guard can be filled without giving a blank front, duplicates or not."""
    out: list[Direction] = []
    for direction in directions:
        prompt_side, answer_side = direction.sides
        prompt_entry = concept.entries.get(direction.source)
        answer_entry = concept.entries.get(direction.target)
        if prompt_entry is None or answer_entry is None:
            continue
        prompt = _same_text_key(prompt_entry.side(prompt_side).text)
        answer = _same_text_key(answer_entry.side(answer_side).text)
        if prompt and answer and prompt != answer:
            out.append(direction)
    return out


def note_fields(
    concept: Concept, cards: Iterable[Direction] = (), note_type: NoteType = BASE
) -> list[str]:
    """The note's field values, in ``note_type.field_names`` order, with the guard of
    each direction in ``cards`` filled (see :func:`note_cards`)."""
    # One pass over the entries (this runs once per note of a 10k-concept export).
    index = note_type.field_index
    values = [""] * len(note_type.field_names)
    values[index[FIELD_CONCEPT]] = to_field(concept.uid)
    sources: list[str] = []
    for lang in note_type.languages:
        entry = concept.entries.get(lang)
        if entry is None:
            continue
        values[note_type.text_index(lang, "term")] = to_field(entry.term.text)
        values[note_type.text_index(lang, "definition")] = to_field(entry.definition.text)
        if entry.term.source.kind == "corrected":
            variant = also_seen(entry.term)
            if variant:
                values[index[variants_field(lang)]] = to_field(variant)
        sources.append(_source_line(lang, "term", entry.term.source))
        sources.append(_source_line(lang, "definition", entry.definition.source))
    if concept.acronym:
        values[index[FIELD_ACRONYM]] = to_field(concept.acronym)
    values[index[FIELD_SOURCE]] = "<br>".join(sources)
    for direction in cards:
        values[note_type.guard_index(direction)] = GUARD_VALUE
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
