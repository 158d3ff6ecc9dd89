"""Card directions: which of a concept's texts a card shows and which it asks for.

A :class:`Direction` is one template of the quizzer note type (``meaning en→bn``:
the English term, asking the Bengali definition). The sets an export can ask for:
:func:`every_direction` (``--all``), :func:`directions_for` (``--pair``/``--kinds``)
and :func:`default_directions` (neither, and no study history).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from quizzer.anki.ids import stable_id62
from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.languages import Side, is_language

#: The languages of quizzer's first note type, in the order its templates and fields have
#: had since: a note type's languages are ordered these first, then the others by tag, so
#: the templates of an exported note type keep their ordinals.
FIRST_LANGUAGES: tuple[str, ...] = ("en", "bn", "ar", "ru", "fr")


def language_order(lang: str) -> tuple[int, str]:
    """Sort key of a language among a note type's: :data:`FIRST_LANGUAGES` first, in their
    order, then any other by its tag."""
    if lang in FIRST_LANGUAGES:
        return (FIRST_LANGUAGES.index(lang), "")
    return (len(FIRST_LANGUAGES), lang)


def ordered_languages(languages: Iterable[str]) -> tuple[str, ...]:
    """``languages`` without repeats, in note type order (:func:`language_order`)."""
    return tuple(sorted(set(languages), key=language_order))


Kind = Literal["meaning", "term", "translate"]
#: Card kinds, in template order.
KINDS: tuple[Kind, ...] = ("meaning", "term", "translate")

#: (prompt side, answer side) per kind.
KIND_SIDES: dict[Kind, tuple[Side, Side]] = {
    "meaning": ("term", "definition"),
    "term": ("definition", "term"),
    "translate": ("term", "term"),
}


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
            if not is_language(lang):
                raise ValueError(f"unknown language {lang!r} (not a BCP 47 language tag)")
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

    @classmethod
    def from_pair(cls, pair: Pair) -> Direction | None:
        """The template that asks quizzer's study direction ``pair``, if one does
        (definition → definition has none)."""
        for kind, sides in KIND_SIDES.items():
            if sides == (pair.prompt_side, pair.answer_side):
                return cls(kind, pair.prompt_lang, pair.answer_lang)
        return None

    @property
    def name(self) -> str:
        """Template name shown in Anki, e.g. ``"meaning en→bn"`` (stable: tools key on it)."""
        return f"{self.kind} {self.source}→{self.target}"

    @property
    def guard(self) -> str:
        """The note field that makes this card exist, e.g. ``"Card meaning en→bn"``."""
        return f"Card {self.name}"

    @property
    def template_id(self) -> int:
        """Stable template id (from kind and languages, not from the display name)."""
        return stable_id62("template", self.kind, self.source, self.target)

    @property
    def sort_key(self) -> tuple[int, tuple[int, str], tuple[int, str]]:
        """Canonical template order: kind, then source and target in language order."""
        return (KINDS.index(self.kind), language_order(self.source), language_order(self.target))


_TAG = r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*"
_NAME_RE = re.compile(rf"^(meaning|term|translate) ({_TAG})→({_TAG})$")


def parse_template_name(name: str) -> Direction:
    """``"meaning en→bn"`` → its :class:`Direction`; ``ValueError`` for any other name."""
    found = _NAME_RE.match(name)
    if not found:
        raise ValueError(f"not a quizzer template name: {name!r}")
    kind, source, target = found.groups()
    return Direction(kind, source, target)  # type: ignore[arg-type]


def every_direction(languages: Iterable[str]) -> tuple[Direction, ...]:
    """Every kind between every ordered pair of the languages (a language with itself
    too, for meaning and term), in canonical order: the templates of a note type."""
    present = ordered_languages(languages)
    return tuple(
        Direction(kind, source, target)
        for kind in KINDS
        for source in present
        for target in present
        if not (kind == "translate" and source == target)
    )


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


#: Most cards per concept the default export asks for.
DEFAULT_MAX_PER_CONCEPT = 12


def default_directions(languages: Iterable[str]) -> tuple[Direction, ...]:
    """What an export without ``--pair``/``--kinds``/``--all`` and without study history
    gives: recognition and production of terms between English and each other
    language (``translate X→en`` and ``en→X``), plus ``meaning en→en`` (the term asks
    its definition, the one card a concept whose term is the same word everywhere,
    "GPTQ", still gets): 9 for the five languages. Without English the first
    language present stands in for it; a deck of one language gets its
    term → definition and definition → term cards."""
    present = ordered_languages(languages)
    if not present:
        return ()
    if len(present) == 1:
        (only,) = present
        return directions_for(("meaning", "term"), [(only, only)])
    pivot = "en" if "en" in present else present[0]
    others = [lang for lang in present if lang != pivot]
    translate = [p for lang in others for p in ((lang, pivot), (pivot, lang))]
    return (*directions_for(("translate",), translate), Direction("meaning", pivot, pivot))


def studied_directions(card_ids: Iterable[str]) -> dict[str, set[Direction]]:
    """Concept uid → the directions of those quizzer card ids that have a template."""
    out: dict[str, set[Direction]] = {}
    for card_id in card_ids:
        try:
            key = CardKey.parse(card_id)
        except ValueError:
            continue
        direction = Direction.from_pair(key.pair)
        if direction is not None:
            out.setdefault(key.concept_uid, set()).add(direction)
    return out
