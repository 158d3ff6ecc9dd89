"""Rows of a deck source → concepts, merged into the deck they go to.

**One concept per row (or Anki note).** Each column mapped to a language and side gives
that text. A concept needs a term *and* a definition per language; a deck of vocabulary
(``perro`` / ``dog``: one text per language, no definitions) gives each language's text as
both its term and its definition. No card asks a text for itself (prompt and answer alike
make no card), so such a concept is studied term to term across its languages.

**Ids that stay.** A note quizzer exported keeps the id of the concept it came from. A
row with an Anki GUID (a note, or Anki's ``#guid column``) gets the id
``<slug of its term>-<8 letters of its GUID's hash>``; importing again finds the concept by
those 8 letters, whatever its texts became, and updates it in place. A row without one takes
the concept of the deck holding the same term in the same language (the first not yet
taken), else a new id from its term. Concepts of the deck the file doesn't mention stay.
"""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from quizzer.concepts.concept import (
    SLUG_RE,
    Concept,
    Entry,
    Provenance,
    RecordError,
    Text,
    check_length,
    check_plain,
)
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import Side
from quizzer.decksources.table import DeckSourceError, Row
from quizzer.glossary.concept_ids import numbered
from quizzer.glossary.slug import slugify

#: Longest slug part of a concept id made from a term.
MAX_BASE = 40

#: Letters of a GUID's hash in a concept id: 40 bits, no clash among a million notes.
GUID_TAG_CHARS = 8

Mapping = Sequence[tuple[str, Side] | None]


def guid_tag(guid: str) -> str:
    """The 8 lower-case letters and digits that carry an Anki GUID into a concept id."""
    digest = hashlib.blake2b(guid.encode("utf-8"), digest_size=5).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:GUID_TAG_CHARS]


def tag_of(concept_id: str) -> str | None:
    """The GUID tag a concept id ends with, if it has the shape of one."""
    head, _, tail = concept_id.rpartition("-")
    if head and len(tail) == GUID_TAG_CHARS:
        return tail
    return None


@dataclass(slots=True)
class BuildReport:
    """What importing the rows did to the deck."""

    new: int = 0
    updated: int = 0
    unchanged: int = 0
    #: Ids of the concepts the rows gave, in row order.
    concept_ids: list[str] = field(default_factory=list)


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold().strip()


def row_entries(row: Row, mapping: Mapping, file: str, noun: str = "column") -> dict[str, Entry]:
    """The entries one row gives (see the module docstring for one text per language);
    ``noun`` is what a cell is called in an error (``column``, an Anki note's ``field``)."""
    texts: dict[str, dict[Side, str]] = {}
    for number, target in enumerate(mapping, start=1):
        if target is None or number > len(row.cells) or not row.cells[number - 1]:
            continue
        lang, side = target
        text = row.cells[number - 1]
        where = f"{noun} {number}"
        try:
            check_length(text, where)
            check_plain(text, where)
        except RecordError as exc:
            raise DeckSourceError(
                f"{where} {exc.message}",
                row.line,
                hint="shorten or clean that text, or leave it out",
            ) from None
        texts.setdefault(lang, {})[side] = text
    source = Provenance("seed", file=file, line=row.line)
    entries: dict[str, Entry] = {}
    for lang, sides in texts.items():
        term = sides.get("term") or sides["definition"]
        definition = sides.get("definition") or term
        entries[lang] = Entry(Text(term, source), Text(definition, source))
    count = sum(len(sides) for sides in texts.values())
    if count < 2:
        raise DeckSourceError(
            "this row has fewer than two texts in the columns kept (a card needs a prompt "
            "and an answer)",
            row.line,
            hint="fill the row, leave it out, or map its columns with --columns"
            if noun == "column"
            else "in Anki, move the notes without two texts (a picture or a sound alone) to "
            "another deck and export the rest, or map the fields with --columns",
        )
    return entries


def _base(entries: dict[str, Entry]) -> str:
    for lang in ("en", *entries):
        entry = entries.get(lang)
        if entry is not None:
            slug = slugify(entry.term.text, MAX_BASE)
            if slug:
                return slug
    return "concept"


def build_deck(
    rows: Sequence[Row],
    mapping: Mapping,
    *,
    deck_id: str,
    deck_name: str,
    file: str,
    existing: Deck | None,
    noun: str = "column",
) -> tuple[Deck, BuildReport]:
    """The deck ``existing`` (or a new one) with a concept per row (see the module docstring).

    Raises :class:`DeckSourceError` naming the row's line for a row that gives no card, a
    text a deck can't hold, or a GUID given twice.
    """
    report = BuildReport()
    old = list(existing.concepts) if existing else []
    by_id = {concept.id: concept for concept in old}
    by_tag = {tag: concept.id for concept in old if (tag := tag_of(concept.id))}
    by_term: dict[tuple[str, str], list[str]] = defaultdict(list)
    for concept in old:
        for lang, entry in concept.entries.items():
            by_term[(lang, _key(entry.term.text))].append(concept.id)
    taken = set(by_id)
    claimed: set[str] = set()
    seen_guids: dict[str, int] = {}
    results: dict[str, Concept] = {}
    order: list[str] = []
    for row in rows:
        entries = row_entries(row, mapping, file, noun)
        concept_id: str | None = None
        if row.concept_id is not None and SLUG_RE.match(row.concept_id):
            concept_id = row.concept_id
            if concept_id in claimed:
                raise DeckSourceError(
                    f"this note's concept {concept_id!r} is also an earlier note's",
                    row.line,
                    hint="each concept has one note: remove one of the two",
                )
            taken.add(concept_id)
        elif row.guid is not None:
            if row.guid in seen_guids:
                raise DeckSourceError(
                    f"this row's GUID is also line {seen_guids[row.guid]}'s",
                    row.line,
                    hint="each note has its own GUID: remove one of the two rows",
                )
            seen_guids[row.guid] = row.line
            tag = guid_tag(row.guid)
            concept_id = by_tag.get(tag)
            if concept_id is None:
                concept_id = numbered([f"{_base(entries)}-{tag}"], taken)[0]
                by_tag[tag] = concept_id
        else:
            for lang, entry in entries.items():
                free = [
                    c for c in by_term.get((lang, _key(entry.term.text)), []) if c not in claimed
                ]
                if free:
                    concept_id = free[0]
                    break
            if concept_id is None:
                concept_id = numbered([_base(entries)], taken)[0]
        claimed.add(concept_id)
        before = by_id.get(concept_id)
        merged = dict(before.entries) if before else {}
        merged.update(entries)
        concept = Concept(
            id=concept_id,
            deck=deck_id,
            acronym=before.acronym if before else None,
            entries=merged,
        )
        if before is None:
            report.new += 1
            order.append(concept_id)
        elif concept == before:
            report.unchanged += 1
        else:
            report.updated += 1
        results[concept_id] = concept
        report.concept_ids.append(concept_id)
    concepts = [results.get(c.id, c) for c in old] + [results[c] for c in order]
    name = existing.name if existing else deck_name
    description = existing.description if existing else ""
    return Deck(deck_id, name, tuple(concepts), description), report
