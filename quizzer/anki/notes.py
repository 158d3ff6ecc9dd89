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

from quizzer.anki.ids import note_guid
from quizzer.anki.model import (
    FIELD_ACRONYM,
    FIELD_CONCEPT,
    FIELD_INDEX,
    FIELD_NAMES,
    FIELD_SOURCE,
    field_name,
)
from quizzer.core.concept import Concept, Provenance

_NEWLINE_RE = re.compile(r"\r\n|\r|\n")
_BR_RE = re.compile(r"<br>")
_TAG_BAD_RE = re.compile(r"[\s\"]+")


def to_field(text: str) -> str:
    """Plain text → field HTML that displays exactly ``text`` (NFC)."""
    escaped = html.escape(unicodedata.normalize("NFC", text), quote=False)
    return _NEWLINE_RE.sub("<br>", escaped)


def from_field(value: str) -> str:
    """Inverse of :func:`to_field` (for tests and round trips)."""
    return html.unescape(_BR_RE.sub("\n", value))


def _provenance(prov: Provenance) -> str:
    text = prov.kind
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


def note_fields(concept: Concept) -> list[str]:
    """The note's field values, in :data:`~quizzer.anki.model.FIELD_NAMES` order."""
    values = [""] * len(FIELD_NAMES)
    values[FIELD_INDEX[FIELD_CONCEPT]] = to_field(concept.uid)
    for lang, side, text in concept.texts():
        values[FIELD_INDEX[field_name(lang, side)]] = to_field(text.text)
    if concept.acronym:
        values[FIELD_INDEX[FIELD_ACRONYM]] = to_field(concept.acronym)
    values[FIELD_INDEX[FIELD_SOURCE]] = to_field(source_text(concept))
    return values


def _tag_part(text: str) -> str:
    # Anki tags can't hold spaces; keep everything else (tags are Unicode).
    return _TAG_BAD_RE.sub("_", unicodedata.normalize("NFC", text).strip())


def note_tags(concept: Concept) -> list[str]:
    """``quizzer``, ``deck::<id>``, ``lang::<code>`` per language, ``acronym::<acronym>``."""
    tags = ["quizzer", f"deck::{concept.deck}"]
    tags.extend(f"lang::{lang}" for lang in concept.languages)
    if concept.acronym and _tag_part(concept.acronym):
        tags.append(f"acronym::{_tag_part(concept.acronym)}")
    return tags


def guid(concept: Concept) -> str:
    """The note GUID: from the namespaced uid only, so edits update the same note."""
    return note_guid(concept.uid)
