"""Decks: named, ordered collections of concepts, and their human-editable TOML file format.

A deck file looks like::

    format = 1
    id = "training-efficiency"
    name = "Training efficiency"

    [[concepts]]
    id = "lora"
    acronym = "LoRA"

    [concepts.bn.term]
    text = "লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)"
    source = "seed"
    file = "000_048e4d4c80912def.txt"
    line = 5

:func:`dumps` of :func:`loads` gives back the same bytes for a file it wrote.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from quizzer.concepts.concept import SLUG_RE, SOURCE_KINDS, Concept, RecordError, check_plain
from quizzer.concepts.languages import order_languages
from quizzer.errors import SourceError

FORMAT_VERSION = 1

#: The top-level fields of a deck file.
TOP_LEVEL_KEYS = frozenset({"format", "id", "name", "description", "concepts"})

#: Largest deck file read (a 50,000-concept deck in five languages is ~40 MB).
MAX_DECK_BYTES = 256 * 2**20

HEADER = (
    "# quizzer deck file: one [[concepts]] table per concept.\n"
    "# Edit texts freely; keep each concept's id, it ties progress and Anki notes to it.\n"
    "# source: seed (copied from a glossary file, named with its line), authored (written by\n"
    "# hand), corrected (a seed text fixed: original keeps the seed text, reason says why).\n\n"
)


class DeckFormatError(SourceError):
    """A deck file can't be read; ``line`` is 1-based when it could be found."""


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: stable slug ``id``, display ``name`` and its concepts in file order."""

    id: str
    name: str
    concepts: tuple[Concept, ...] = field(default_factory=tuple)
    description: str = ""

    def __iter__(self) -> Iterator[Concept]:
        return iter(self.concepts)

    def __len__(self) -> int:
        return len(self.concepts)

    def get(self, concept_id: str) -> Concept | None:
        """The concept with this (un-namespaced) id, if any."""
        for concept in self.concepts:
            if concept.id == concept_id:
                return concept
        return None

    @property
    def languages(self) -> tuple[str, ...]:
        """Languages any concept of the deck has, in the order they first come."""
        return order_languages(lang for concept in self.concepts for lang in concept.entries)

    def source_counts(self) -> dict[str, int]:
        """How many texts are seed, authored and corrected."""
        counts: dict[str, int] = dict.fromkeys(SOURCE_KINDS, 0)
        for concept in self.concepts:
            # The entries directly, not Concept.texts(): a generator per concept is most
            # of the time a 50,000-concept deck's summary takes.
            for entry in concept.entries.values():
                counts[entry.term.source.kind] += 1
                counts[entry.definition.source.kind] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """The deck file's table layout."""
        out: dict[str, Any] = {"format": FORMAT_VERSION, "id": self.id, "name": self.name}
        if self.description:
            out["description"] = self.description
        out["concepts"] = [c.to_dict() for c in self.concepts]
        return out


def _line_of(text: str, needle: str) -> int | None:
    idx = text.find(needle)
    return None if idx < 0 else text.count("\n", 0, idx) + 1


def _concept_line(text: str, index: int, cid: object) -> int | None:
    """The line of the ``index``-th concept's id (computed only for errors: it scans the text)."""
    tables = [m.start() for m in re.finditer(r"(?m)^[ \t]*\[\[[ \t]*concepts[ \t]*\]\]", text)]
    start = tables[index] if index < len(tables) else 0
    if isinstance(cid, str):
        found = text.find(f'id = "{cid}"', start)
        if found >= 0:
            return text.count("\n", 0, found) + 1
    return text.count("\n", 0, start) + 1 if index < len(tables) else None


def check_name(name: str) -> None:
    """Raise :class:`DeckFormatError` unless ``name`` may be a deck's name (plain text).

    The loader's rule, which the importer applies to ``--deck`` before writing: a deck
    file written with a name the loader refuses would stop every later command.
    """
    if not name.strip():
        raise DeckFormatError("deck name is empty", field="name")
    try:
        check_plain(name, "name")
    except RecordError as exc:
        raise DeckFormatError(f"deck name {exc.message}", field="name") from exc


def from_dict(data: Mapping[str, Any], source_text: str = "") -> Deck:
    """Validate a parsed deck file; ``source_text`` lets errors carry a line number."""
    unknown = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown:
        # Also what stops dotted keys nested 1000 deep (which tomllib builds without
        # recursing) before anything walks them.
        raise DeckFormatError(
            f"unknown field {unknown[0]!r} (a deck file has {', '.join(sorted(TOP_LEVEL_KEYS))})",
            _line_of(source_text, unknown[0]),
            field=unknown[0],
        )
    fmt = data.get("format")
    if fmt != FORMAT_VERSION:
        raise DeckFormatError(
            f"format must be {FORMAT_VERSION} (found {fmt!r})", _line_of(source_text, "format")
        )
    deck_id = data.get("id")
    if not isinstance(deck_id, str) or not SLUG_RE.match(deck_id):
        raise DeckFormatError(
            "deck id missing or not a slug like 'training-efficiency'", 1, field="id"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DeckFormatError("deck name missing", 1, field="name")
    try:
        check_name(name)
    except DeckFormatError as exc:
        line = _line_of(source_text, "name =")
        raise DeckFormatError(exc.message, line, field="name") from exc
    raw = data.get("concepts", [])
    if not isinstance(raw, list):
        raise DeckFormatError("concepts must be an array of tables ([[concepts]])", None)
    concepts: list[Concept] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise DeckFormatError(
                f"concept #{index + 1} must be a table ([[concepts]] with id = ...)", None
            )
        cid = item.get("id")
        try:
            concept = Concept.from_dict(item, deck_id)
        except RecordError as exc:
            label = f"concept {cid!r}" if cid else f"concept #{index + 1}"
            line = _concept_line(source_text, index, cid)
            raise DeckFormatError(
                f"{label}: {exc.field}: {exc.message}", line, field=exc.field
            ) from exc
        if concept.id in seen:
            raise DeckFormatError(
                f"duplicate concept id {concept.id!r} (also concept #{seen[concept.id] + 1})",
                _concept_line(source_text, index, cid),
                field=concept.id,
            )
        seen[concept.id] = index
        concepts.append(concept)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise DeckFormatError("description must be a string", _line_of(source_text, "description"))
    try:
        check_plain(description.replace("\n", " "), "description")
    except RecordError as exc:
        raise DeckFormatError(
            f"description {exc.message}", _line_of(source_text, "description"), field="description"
        ) from exc
    return Deck(id=deck_id, name=name, concepts=tuple(concepts), description=description)


def parse(text: str) -> dict[str, Any]:
    """The TOML tables of a deck file's text, not yet validated (see :func:`from_dict`)."""
    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        line = int(found.group(1)) if found else None
        raise DeckFormatError(f"not valid TOML: {exc}", line) from exc
    except RecursionError as exc:  # tomllib recurses into nested arrays and inline tables
        raise DeckFormatError(
            "arrays or tables nested thousands deep (a deck file nests 6 deep)",
            hint="this is no deck file quizzer wrote; restore it, or re-import its glossaries",
        ) from exc
    return tables


def loads(text: str) -> Deck:
    """Parse and validate a deck file's text."""
    return from_dict(parse(text), text)


def dumps(deck: Deck) -> str:
    """Render a deck file; stable key and concept order, UTF-8 text, no escapes."""
    return HEADER + tomli_w.dumps(deck.to_dict(), multiline_strings=False)
