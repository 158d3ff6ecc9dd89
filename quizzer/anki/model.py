"""The quizzer note type: fixed fields, one card template per study direction.

What the cards look like (template HTML, CSS) lives in :mod:`quizzer.anki.faces`.

Every note holds one concept in every language, so the field list never depends
on what is exported: ``Concept`` (the namespaced uid), then term and definition
for en, bn, ar, ru, fr, then ``Acronym`` and ``Source``, then one hidden guard
field per pair of languages (``Terms differ en-fr``), then per language the term's
variants readers meet (``Arabic also seen``) and its recording (``Arabic audio``,
filled by ``--audio``). What varies is the set
of card templates, one per :class:`Direction` asked for. Each template's front
is wrapped in ``{{#prompt}}{{#answer}}…{{/answer}}{{/prompt}}``, so a concept
lacking a language simply gets no card in that direction (never an empty one).

A translate card whose two terms are the same word ("GPTQ" → "GPTQ") teaches
nothing. Anki templates can't compare fields, and deleting such cards from the
package doesn't last: Anki's Check Database regenerates every card a template
renders. So the translate templates also require the pair's guard field, which
the exporter fills only when the two terms differ (after NFC and casefolding):
Anki's own card generation then never makes the trivial card.

Fields and templates carry ids derived from their names (``"id"`` in Anki's
notetype JSON), and the model id is constant: Anki 23.10+ can then merge a note
type that gained templates instead of duplicating it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import genanki

from quizzer.anki.ids import stable_id, stable_id62
from quizzer.cards.card import Pair
from quizzer.concepts.languages import LANGUAGE_NAMES, LANGUAGES, Side, is_rtl

Kind = Literal["meaning", "term", "translate"]
#: Card kinds, in template order.
KINDS: tuple[Kind, ...] = ("meaning", "term", "translate")

#: (prompt side, answer side) per kind.
KIND_SIDES: dict[Kind, tuple[Side, Side]] = {
    "meaning": ("term", "definition"),
    "term": ("definition", "term"),
    "translate": ("term", "term"),
}

MODEL_NAME = "quizzer: AI glossary"
MODEL_ID = stable_id("model", "glossary-v1")

FIELD_CONCEPT = "Concept"
FIELD_ACRONYM = "Acronym"
FIELD_SOURCE = "Source"


def field_name(lang: str, side: Side) -> str:
    """The note field holding ``lang``'s term or definition, e.g. ``"Bengali term"``."""
    return f"{LANGUAGE_NAMES[lang]} {side}"


def variants_field(lang: str) -> str:
    """The field with variants of ``lang``'s term readers meet, e.g. ``"Arabic also seen"``."""
    return f"{LANGUAGE_NAMES[lang]} also seen"


def audio_field(lang: str) -> str:
    """The field with the recording of ``lang``'s term (``[sound:…]``), e.g. ``"Arabic audio"``."""
    return f"{LANGUAGE_NAMES[lang]} audio"


#: Unordered language pairs that get a guard field, in language order.
GUARD_PAIRS: tuple[tuple[str, str], ...] = tuple(itertools.combinations(LANGUAGES, 2))
#: What a guard field holds when the pair's terms differ (empty otherwise).
GUARD_VALUE = "yes"


def guard_field(lang_a: str, lang_b: str) -> str:
    """The field filled when the two languages' terms differ, e.g. ``"Terms differ en-fr"``."""
    first, second = sorted((lang_a, lang_b), key=LANGUAGES.index)
    return f"Terms differ {first}-{second}"


#: Every field, in note order.
FIELD_NAMES: tuple[str, ...] = (
    FIELD_CONCEPT,
    *(field_name(lang, side) for lang in LANGUAGES for side in ("term", "definition")),
    FIELD_ACRONYM,
    FIELD_SOURCE,
    *(guard_field(a, b) for a, b in GUARD_PAIRS),
    *(variants_field(lang) for lang in LANGUAGES),
    *(audio_field(lang) for lang in LANGUAGES),
)
_GUARD_FIELDS = frozenset(guard_field(a, b) for a, b in GUARD_PAIRS)
_AUDIO_FIELDS = frozenset(audio_field(lang) for lang in LANGUAGES)
FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(FIELD_NAMES)}
#: The browser sorts by the English term.
SORT_FIELD_INDEX = FIELD_INDEX[field_name("en", "term")]

#: Editor fonts per script (the cards themselves use :data:`quizzer.anki.faces.CSS`).
_FIELD_FONTS = {"bn": "Noto Sans Bengali", "ar": "Noto Naskh Arabic"}


@dataclass(frozen=True, slots=True, order=True)
class Direction:
    """One card template: ``kind`` from language ``source`` to language ``target``."""

    kind: Kind
    source: str
    target: str

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r} (known: {', '.join(KINDS)})")
        for lang in (self.source, self.target):
            if lang not in LANGUAGES:
                raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
        if self.kind == "translate" and self.source == self.target:
            raise ValueError("translate needs two different languages")

    @property
    def sides(self) -> tuple[Side, Side]:
        """(prompt side, answer side)."""
        return KIND_SIDES[self.kind]

    @property
    def pair(self) -> Pair:
        """The quizzer study direction this template shows (ties Anki cards to progress)."""
        prompt, answer = self.sides
        return Pair(self.source, prompt, self.target, answer)

    @property
    def name(self) -> str:
        """Template name shown in Anki, e.g. ``"meaning en→bn"``."""
        return f"{self.kind} {self.source}→{self.target}"

    @property
    def template_id(self) -> int:
        """Stable template id (from kind and languages, not from the display name)."""
        return stable_id62("template", self.kind, self.source, self.target)

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Canonical template order: kind, then source and target in language order."""
        return (
            KINDS.index(self.kind),
            LANGUAGES.index(self.source),
            LANGUAGES.index(self.target),
        )


def default_directions(
    languages: Iterable[str], kinds: Iterable[str] = KINDS
) -> tuple[Direction, ...]:
    """Every kind between every ordered pair of different languages present."""
    present = [lang for lang in LANGUAGES if lang in set(languages)]
    pairs = [(a, b) for a in present for b in present if a != b]
    return directions_for(kinds, pairs)


def directions_for(kinds: Iterable[str], pairs: Iterable[tuple[str, str]]) -> tuple[Direction, ...]:
    """Directions for the given kinds × pairs, in canonical order, without duplicates.

    A same-language pair (``en:en``) makes sense for ``meaning`` and ``term`` but
    not for ``translate``, which is skipped for it.
    """
    found: set[Direction] = set()
    for kind in kinds:
        for source, target in pairs:
            if kind == "translate" and source == target:
                continue
            found.add(Direction(kind, source, target))  # type: ignore[arg-type]
    return tuple(sorted(found, key=lambda d: d.sort_key))


def card_requirements(directions: Sequence[Direction]) -> tuple[tuple[int, ...], ...]:
    """Per direction, the field indexes that must all be filled for its card to exist.

    This mirrors the templates' conditionals (Anki's own rule for generating
    cards), so the exporter can tell a note that would get no card at all.
    """
    out = []
    for direction in directions:
        prompt_side, answer_side = direction.sides
        needed = [
            FIELD_INDEX[field_name(direction.source, prompt_side)],
            FIELD_INDEX[field_name(direction.target, answer_side)],
        ]
        if direction.kind == "translate":
            needed.append(FIELD_INDEX[guard_field(direction.source, direction.target)])
        out.append(tuple(needed))
    return tuple(out)


def template_for(direction: Direction) -> dict[str, Any]:
    """The genanki template dict (with its stable ``id``) for one direction.

    The faces come from :mod:`quizzer.anki.faces`; here they are wrapped in the
    conditionals that decide whether Anki generates the card at all.
    """
    from quizzer.anki import faces  # faces builds on this module's field names

    prompt_side, answer_side = direction.sides
    prompt = field_name(direction.source, prompt_side)
    answer = field_name(direction.target, answer_side)
    front = faces.front_html(direction)
    qfmt = f"{{{{#{prompt}}}}}{{{{#{answer}}}}}{front}{{{{/{answer}}}}}{{{{/{prompt}}}}}"
    if direction.kind == "translate":
        guard = guard_field(direction.source, direction.target)
        qfmt = f"{{{{#{guard}}}}}{qfmt}{{{{/{guard}}}}}"
    return {
        "name": direction.name,
        "id": direction.template_id,
        "qfmt": qfmt,
        "afmt": faces.back_html(direction),
    }


def _field_spec(name: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name, "id": stable_id62("field", name)}
    if name in _GUARD_FIELDS or name in _AUDIO_FIELDS:
        # Bookkeeping, not study material: collapsed in the editor, left out of searches.
        spec["collapsed"] = True
        spec["excludeFromSearch"] = True
        spec["description"] = (
            "Filled by quizzer when the two terms differ; gates translate cards."
            if name in _GUARD_FIELDS
            else "The term's recording, filled by quizzer export anki --audio."
        )
    for lang in LANGUAGES:
        if name in (field_name(lang, "term"), field_name(lang, "definition"), variants_field(lang)):
            spec["rtl"] = is_rtl(lang)
            if lang in _FIELD_FONTS:
                spec["font"] = _FIELD_FONTS[lang]
    return spec


def build_model(directions: Sequence[Direction]) -> genanki.Model:
    """The genanki model: fixed fields, one template per direction (in the given order)."""
    from quizzer.anki.faces import CSS

    if not directions:
        raise ValueError("at least one direction is needed")
    return genanki.Model(
        MODEL_ID,
        MODEL_NAME,
        fields=[_field_spec(name) for name in FIELD_NAMES],
        templates=[template_for(d) for d in directions],
        css=CSS,
        sort_field_index=SORT_FIELD_INDEX,
    )
