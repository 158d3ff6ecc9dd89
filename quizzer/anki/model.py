"""The quizzer note type: one fixed shape per language set, one template per direction.

**Fixed shape.** Every deck whose languages are among quizzer's (en, bn, ar, ru, fr)
gets the same note type, :data:`BASE`, in every export whatever ``--pair``,
``--kinds`` or ``--deck`` say: the same fields, the same templates in the same order
(ordinals), the same field and template ids. What an export chooses is which cards
each note *generates*: every template is wrapped in its own guard field
(``{{#Card meaning en→bn}}…{{/Card meaning en→bn}}``), which the exporter fills
(``y``) only for the cards it wants. Anki generates a card exactly when its front
renders, so Anki's own card generation (on import, on edit, in Check Database)
makes the chosen cards and no others, and two exports never disagree about which
template an ordinal is. A learner can add a card in Anki by typing into its guard
field. A deck in another set of languages (quizzer will open to any ISO 639
language) gets a note type of its own, named and numbered by its language set
(:func:`note_type_for`), rather than growing this one.

**Upgrading.** The note type of quizzer's earlier exports (``"quizzer: AI glossary"``,
:data:`LEGACY_MODEL_ID`) numbered its templates by the directions it held. Its
field and template ids all reappear in :data:`BASE` (the old ``Terms differ a-b``
guards became ``Card translate a→b``), so importing a new export with Anki's
"Merge note types" moves the old notes onto the new note type card by card,
keeping every card's scheduling and history.

What the cards look like (template HTML, CSS) lives in :mod:`quizzer.anki.faces`; the
genanki model built from both, in :mod:`quizzer.anki.genanki_model`.
Which card a template is: :func:`template_direction` (the one mapping of note type
and template ordinal or name to a :class:`Direction`) and :meth:`NoteType.ord_of`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from quizzer.anki.directions import (
    DEFAULT_MAX_PER_CONCEPT,
    KIND_SIDES,
    KINDS,
    Direction,
    Kind,
    default_directions,
    directions_for,
    every_direction,
    parse_template_name,
)
from quizzer.anki.ids import stable_id
from quizzer.concepts.languages import LANGUAGE_NAMES, LANGUAGES, Side

__all__ = [
    "BASE",
    "DEFAULT_MAX_PER_CONCEPT",
    "FIELD_ACRONYM",
    "FIELD_CONCEPT",
    "FIELD_INDEX",
    "FIELD_NAMES",
    "FIELD_SOURCE",
    "GUARD_VALUE",
    "KINDS",
    "KIND_SIDES",
    "LEGACY_MODEL_ID",
    "MODEL_ID",
    "Direction",
    "Kind",
    "NoteType",
    "audio_field",
    "default_directions",
    "directions_for",
    "every_direction",
    "field_name",
    "note_type_for",
    "parse_template_name",
    "template_direction",
    "variants_field",
]

#: The note type of exports before the fixed shape (templates numbered per export).
LEGACY_MODEL_ID = stable_id("model", "glossary-v1")

FIELD_CONCEPT = "Concept"
FIELD_ACRONYM = "Acronym"
FIELD_SOURCE = "Source"
#: What a card's guard field holds when the export wants that card (empty: no card).
GUARD_VALUE = "y"


def field_name(lang: str, side: Side) -> str:
    """The note field holding ``lang``'s term or definition, e.g. ``"Bengali term"``."""
    return f"{LANGUAGE_NAMES[lang]} {side}"


def variants_field(lang: str) -> str:
    """The field with variants of ``lang``'s term readers meet, e.g. ``"Arabic also seen"``."""
    return f"{LANGUAGE_NAMES[lang]} also seen"


def audio_field(lang: str) -> str:
    """The field with the recording of ``lang``'s term (``[sound:…]``), e.g. ``"Arabic audio"``."""
    return f"{LANGUAGE_NAMES[lang]} audio"


def retired_fields(languages: Sequence[str]) -> tuple[str, ...]:
    """Fields the note type of quizzer's earlier exports had and this one no longer uses
    (``Terms differ en-fr``, the old translate guards). They stay, empty, at the end, so
    "Merge note types" upgrades an old collection onto exactly this shape: a field that
    went away would come back from the old note type, and the shapes would differ."""
    if tuple(languages) != LANGUAGES:
        return ()
    return tuple(f"Terms differ {a}-{b}" for a, b in itertools.combinations(LANGUAGES, 2))


@dataclass(frozen=True, slots=True)
class NoteType:
    """A note type of fixed shape for one set of languages (see the module docstring)."""

    #: The languages, in quizzer's order.
    languages: tuple[str, ...]
    #: Every template's direction; a template's ordinal is its index here.
    directions: tuple[Direction, ...] = field(init=False)
    #: Every field, in note order: Concept, term and definition per language,
    #: Acronym, Source, the term's variants and recording per language, one guard per
    #: direction, then the :func:`retired_fields`.
    field_names: tuple[str, ...] = field(init=False)
    field_index: Mapping[str, int] = field(init=False, repr=False)
    _ords: Mapping[Direction, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        directions = every_direction(self.languages)
        names = (
            FIELD_CONCEPT,
            *(field_name(lang, side) for lang in self.languages for side in ("term", "definition")),
            FIELD_ACRONYM,
            FIELD_SOURCE,
            *(variants_field(lang) for lang in self.languages),
            *(audio_field(lang) for lang in self.languages),
            *(d.guard for d in directions),
            *retired_fields(self.languages),
        )
        object.__setattr__(self, "directions", directions)
        object.__setattr__(self, "field_names", names)
        object.__setattr__(self, "field_index", {n: i for i, n in enumerate(names)})
        object.__setattr__(self, "_ords", {d: i for i, d in enumerate(directions)})

    @property
    def id(self) -> int:
        """The note type id, from the language set (so every export agrees)."""
        return stable_id("notetype", *self.languages)

    @property
    def name(self) -> str:
        """``"quizzer: en bn ar ru fr"``: quizzer's, and which languages it holds."""
        return "quizzer: " + " ".join(self.languages)

    def ord_of(self, direction: Direction) -> int:
        """The template ordinal of ``direction`` (``KeyError`` if not in this set)."""
        return self._ords[direction]

    def guard_index(self, direction: Direction) -> int:
        """The index of ``direction``'s guard field in a note's fields."""
        return self.field_index[direction.guard]

    def text_index(self, lang: str, side: Side) -> int:
        """The index of ``lang``'s term or definition field."""
        return self.field_index[field_name(lang, side)]


@lru_cache(maxsize=64)
def _note_type(languages: tuple[str, ...]) -> NoteType:
    return NoteType(languages)


#: The note type of every deck in quizzer's five languages.
BASE = _note_type(LANGUAGES)


def note_type_for(languages: Iterable[str]) -> NoteType:
    """The note type for a deck in ``languages``: :data:`BASE` when they are all among
    quizzer's, else (later, for other ISO 639 languages) one of the deck's own set."""
    wanted = set(languages)
    if wanted <= set(BASE.languages):
        return BASE
    return _note_type(tuple(sorted(wanted)))


def template_direction(note_type: NoteType | None, template: int | str) -> Direction:
    """The direction a quizzer template asks: by its name (``"meaning en→bn"``, the key that
    survives anything Anki does, legacy note types included) or by its ordinal in
    ``note_type`` (valid while the user has not reordered the templates in Anki).
    The inverse is :meth:`NoteType.ord_of` and :attr:`Direction.name`. ``ValueError``
    for a template that is not quizzer's."""
    if isinstance(template, str):
        return parse_template_name(template)
    if note_type is None or not 0 <= template < len(note_type.directions):
        raise ValueError(f"no template {template} in {note_type.name if note_type else None}")
    return note_type.directions[template]


#: The base note type's fields, for callers that predate per-language-set note types.
MODEL_ID = BASE.id
FIELD_NAMES = BASE.field_names
FIELD_INDEX: Mapping[str, int] = BASE.field_index
