"""The quizzer note type: one fixed shape per language set, one template per direction.

**Fixed shape.** Every deck whose languages are among the bundled decks' (en, bn, ar, ru, fr)
gets the same note type, :data:`BASE`, in every export whatever ``--pair``,
``--kinds`` or ``--deck`` say: the same fields, the same templates in the same order
(ordinals), the same field and template ids. What an export chooses is which cards
each note *generates*: every template is wrapped in its own guard field
(``{{#Card meaning en→bn}}…{{/Card meaning en→bn}}``), which the exporter fills
(``y``) only for the cards it wants. Anki generates a card exactly when its front
renders, so Anki's own card generation (on import, on edit, in Check Database)
makes the chosen cards and no others, and two exports never disagree about which
template an ordinal is. A learner can add a card in Anki by typing into its guard
field. A deck in another set of languages (any BCP 47 language: ``es``, ``pt-BR``,
``zh-Hans``) gets a note type of its own, named and numbered by its language set
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
    FIRST_LANGUAGES,
    KIND_SIDES,
    KINDS,
    Direction,
    Kind,
    default_directions,
    directions_for,
    every_direction,
    ordered_languages,
    parse_template_name,
)
from quizzer.anki.ids import stable_id
from quizzer.concepts.languages import Side, language_name

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
    "field_language",
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


#: The names the first note type's fields have had since its first export. Anki keys a
#: note's fields by name (and quizzer derives each field's id from it), so they stay as
#: they are even where CLDR's English name differs (it says "Bangla").
_FIRST_NAMES: dict[str, str] = {
    "en": "English",
    "bn": "Bengali",
    "ar": "Arabic",
    "ru": "Russian",
    "fr": "French",
}


def field_language(lang: str) -> str:
    """The language's name in field names and card labels: its English name from CLDR
    (``pt-BR`` → ``Portuguese (Brazil)``), the first note type's names kept as they were."""
    return _FIRST_NAMES.get(lang) or language_name(lang)


def field_name(lang: str, side: Side) -> str:
    """The note field holding ``lang``'s term or definition, e.g. ``"Bengali term"``."""
    return f"{field_language(lang)} {side}"


def variants_field(lang: str) -> str:
    """The field with variants of ``lang``'s term readers meet, e.g. ``"Arabic also seen"``."""
    return f"{field_language(lang)} also seen"


def audio_field(lang: str) -> str:
    """The field with the recording of ``lang``'s term (``[sound:…]``), e.g. ``"Arabic audio"``."""
    return f"{field_language(lang)} audio"


def retired_fields(languages: Sequence[str]) -> tuple[str, ...]:
    """Fields the note type of quizzer's earlier exports had and this one no longer uses
    (``Terms differ en-fr``, the old translate guards). They stay, empty, at the end, so
    "Merge note types" upgrades an old collection onto exactly this shape: a field that
    went away would come back from the old note type, and the shapes would differ."""
    if tuple(languages) != FIRST_LANGUAGES:
        return ()
    return tuple(f"Terms differ {a}-{b}" for a, b in itertools.combinations(FIRST_LANGUAGES, 2))


@dataclass(frozen=True, slots=True)
class NoteType:
    """A note type of fixed shape for one set of languages (see the module docstring)."""

    #: The languages, in note type order (:func:`quizzer.anki.directions.language_order`).
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


#: The note type of every deck in the languages of quizzer's bundled decks.
BASE = _note_type(FIRST_LANGUAGES)


def note_type_for(languages: Iterable[str]) -> NoteType:
    """The note type for a deck in ``languages``: :data:`BASE` when they are all among its
    languages, else one of the deck's own language set (``quizzer: en es`` for a
    Spanish–English deck), its id derived from the set, so every export of the same set
    agrees and two sets never share a note type."""
    wanted = set(languages)
    if wanted <= set(BASE.languages):
        return BASE
    return _note_type(ordered_languages(wanted))


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
