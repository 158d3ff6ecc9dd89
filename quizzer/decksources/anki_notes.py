"""Anki notes of any note type as rows: which fields a card shows, cloze refused, and which
quizzer card an Anki card is once its note is a concept.

The Anki adapter (:mod:`quizzer.anki.package_reader`) reads note types and notes from a
package into the plain records here; everything else is decided without Anki.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import SIDES, Side
from quizzer.decksources.html_text import html_to_text
from quizzer.decksources.table import DeckSourceError, Row

#: Field names Anki's templates may name that are no field of the note.
_SPECIAL = frozenset({"FrontSide", "Tags", "Type", "Deck", "Subdeck", "Card", "CardFlag", "CardID"})
_REF_RE = re.compile(r"\{\{([^{}]*)\}\}")


@dataclass(frozen=True, slots=True)
class Template:
    """A card template: its ordinal and the fields its question and its answer show."""

    ord: int
    name: str
    front: tuple[str, ...]
    back: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoteType:
    """A note type: its fields in order, its templates, and whether it is a cloze type."""

    id: int
    name: str
    fields: tuple[str, ...]
    templates: tuple[Template, ...]
    cloze: bool

    @property
    def shown(self) -> tuple[str, ...]:
        """The fields some card shows, in field order (not those only tested, ``{{#Add}}``)."""
        used = {name for template in self.templates for name in (*template.front, *template.back)}
        return tuple(name for name in self.fields if name in used)


@dataclass(frozen=True, slots=True)
class Note:
    """A note: its GUID, note type, field values (HTML, as Anki keeps them) and its number
    in the package (1-based, in the order Anki created the notes)."""

    guid: str
    type_id: int
    fields: tuple[str, ...]
    number: int


def field_refs(template: str, *, typed: bool = True) -> list[str]:
    """The fields a template shows, in order: ``{{Front}}``, ``{{text:Back}}``,
    ``{{tts es_ES:Front}}``, ``{{type:Back}}`` name one; conditionals and special names don't.
    ``typed=False`` leaves out ``{{type:…}}`` (on a question, the box the answer is typed in)."""
    out: list[str] = []
    for found in _REF_RE.finditer(template):
        inner = found.group(1).strip()
        if not inner or inner[0] in "#^/!":
            continue
        if not typed and inner.startswith("type:"):
            continue
        name = inner.rsplit(":", 1)[-1].strip()
        if name and name not in _SPECIAL and name not in out:
            out.append(name)
    return out


def template_of(ord_: int, name: str, question: str, answer: str) -> Template:
    """A :class:`Template` from its question and answer formats."""
    front = tuple(field_refs(question, typed=False))
    back = tuple(ref for ref in field_refs(answer) if ref not in front)
    return Template(ord_, name, front, back)


def is_cloze_template(question: str) -> bool:
    """Whether a question format asks cloze deletions (``{{cloze:Text}}``)."""
    return any(ref.strip().startswith("cloze:") for ref in _REF_RE.findall(question))


def note_rows(note_type: NoteType, notes: Sequence[Note]) -> list[Row]:
    """One row per note: its fields' text (HTML reduced), its package number and GUID."""
    return [
        Row(note.number, tuple(html_to_text(value) for value in note.fields), note.guid)
        for note in notes
    ]


def refuse_cloze(note_types: Mapping[int, NoteType], notes: Sequence[Note]) -> None:
    """Raise :class:`DeckSourceError` when any note is of a cloze note type."""
    cloze = [note for note in notes if note_types[note.type_id].cloze]
    if cloze:
        first = cloze[0]
        name = note_types[first.type_id].name
        raise DeckSourceError(
            f"{len(cloze)} note(s) are cloze notes (note type {name!r}, the first is note "
            f"{first.number}): a cloze deletion is no term and definition quizzer can ask",
            hint="in Anki, move the cloze notes to another deck and export the rest",
        )


#: The deck every Anki collection has, where notes go when no other deck is chosen: it
#: names nothing.
DEFAULT_DECK = "Default"


def package_deck(deck_cards: Mapping[str, int]) -> str | None:
    """The name of the deck a package's cards are in (full names, ``Spanish::Animals``, and
    how many cards each holds): the one deck, else the deepest deck they are all under
    (``Spanish`` for ``Spanish::Verbs`` and ``Spanish::Nouns``), else the deck holding the
    most. ``None`` when that is Anki's ``Default`` deck, or there are no cards."""
    names = sorted(name for name, count in deck_cards.items() if count > 0)
    if not names:
        return None
    common: list[str] = []
    for level in zip(*(name.split("::") for name in names), strict=False):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    name = "::".join(common) if common else max(names, key=lambda n: deck_cards[n])
    return None if name == DEFAULT_DECK else name


def _text_key(text: str) -> str:
    return text.casefold().strip()


def _side_of(concept: Concept, text: str) -> tuple[str, Side] | None:
    """The (language, side) of ``concept`` holding ``text`` (a term before a definition)."""
    key = _text_key(text)
    if not key:
        return None
    for side in SIDES:
        for lang in concept.entries:
            value = concept.text(lang, side)
            if value is not None and _text_key(value) == key:
                return lang, side
    return None


def card_direction(
    concept: Concept, note_type: NoteType, values: Sequence[str], ord_: int
) -> tuple[str, Side, str, Side] | None:
    """The quizzer direction of the card ``ord_`` of a note (field ``values`` as HTML) made
    into ``concept``: its question's field is the prompt, its answer's the answer, each
    found among the concept's texts. ``None`` when the card is none of the concept's."""
    template = next((t for t in note_type.templates if t.ord == ord_), None)
    if template is None:
        return None
    texts = dict(zip(note_type.fields, (html_to_text(v) for v in values), strict=False))

    def first(names: Sequence[str]) -> tuple[str, Side] | None:
        for name in names:
            found = _side_of(concept, texts.get(name, ""))
            if found is not None:
                return found
        return None

    prompt, answer = first(template.front), first(template.back)
    if prompt is None or answer is None or prompt == answer:
        return None
    return (*prompt, *answer)
