"""The quizzer note type: fixed fields, one card template per study direction, CSS.

Every note holds one concept in every language, so the field list never depends
on what is exported: ``Concept`` (the namespaced uid), then term and definition
for en, bn, ar, ru, fr, then ``Acronym`` and ``Source``, then one hidden guard
field per pair of languages (``Terms differ en-fr``). What varies is the set
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

import html
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import genanki

from quizzer.anki.ids import stable_id, stable_id62
from quizzer.cards.card import Pair
from quizzer.concepts.languages import LANGUAGE_NAMES, LANGUAGES, NATIVE_NAMES, Side, is_rtl

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
)
_GUARD_FIELDS = frozenset(guard_field(a, b) for a, b in GUARD_PAIRS)
FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(FIELD_NAMES)}
#: The browser sorts by the English term.
SORT_FIELD_INDEX = FIELD_INDEX[field_name("en", "term")]

#: Editor fonts per script (the cards themselves use :data:`CSS`).
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


def _lang_attrs(lang: str) -> str:
    direction = "rtl" if is_rtl(lang) else "ltr"
    return f'dir="{direction}" lang="{lang}"'


def _context_block(exclude: Sequence[str]) -> str:
    """The concept in the other languages, for the back of a card."""
    rows = []
    for lang in LANGUAGES:
        if lang in exclude:
            continue
        term, definition = field_name(lang, "term"), field_name(lang, "definition")
        rows.append(
            f"{{{{#{term}}}}}"
            f'<div class="ctx" {_lang_attrs(lang)}>'
            f'<span class="ctx-term">{{{{{term}}}}}</span>'
            f"{{{{#{definition}}}}}"
            f'<span class="ctx-def">{{{{{definition}}}}}</span>'
            f"{{{{/{definition}}}}}"
            f"</div>"
            f"{{{{/{term}}}}}"
        )
    return '<div class="context">' + "".join(rows) + "</div>"


def template_for(direction: Direction) -> dict[str, Any]:
    """The genanki template dict (with its stable ``id``) for one direction."""
    prompt_side, answer_side = direction.sides
    prompt = field_name(direction.source, prompt_side)
    answer = field_name(direction.target, answer_side)
    # The label mixes two languages ("العربية · definition"): each part gets its own
    # lang and direction, or the English word would be laid out right-to-left.
    language = html.escape(NATIVE_NAMES[direction.target])
    ask = (
        f"<span {_lang_attrs(direction.target)}>{language}</span>"
        f' · <span dir="ltr" lang="en">{html.escape(answer_side)}</span>'
    )
    label = html.escape(direction.name)
    qfmt = (
        f"{{{{#{prompt}}}}}{{{{#{answer}}}}}"
        f'<div class="kind">{label}</div>'
        f'<div class="prompt {prompt_side}" {_lang_attrs(direction.source)}>{{{{{prompt}}}}}</div>'
        f'<div class="ask">{ask}</div>'
        f"{{{{/{answer}}}}}{{{{/{prompt}}}}}"
    )
    if direction.kind == "translate":
        guard = guard_field(direction.source, direction.target)
        qfmt = f"{{{{#{guard}}}}}{qfmt}{{{{/{guard}}}}}"
    afmt = (
        "{{FrontSide}}"
        '<hr id="answer">'
        f'<div class="answer {answer_side}" {_lang_attrs(direction.target)}>{{{{{answer}}}}}</div>'
        f"{{{{#{FIELD_ACRONYM}}}}}"
        f'<div class="acronym" dir="ltr" lang="en">{{{{{FIELD_ACRONYM}}}}}</div>'
        f"{{{{/{FIELD_ACRONYM}}}}}" + _context_block((direction.source, direction.target))
    )
    return {"name": direction.name, "id": direction.template_id, "qfmt": qfmt, "afmt": afmt}


def _field_spec(name: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name, "id": stable_id62("field", name)}
    if name in _GUARD_FIELDS:
        # Bookkeeping, not study material: collapsed in the editor, left out of searches.
        spec["collapsed"] = True
        spec["excludeFromSearch"] = True
        spec["description"] = "Filled by quizzer when the two terms differ; gates translate cards."
    for lang in LANGUAGES:
        if name in (field_name(lang, "term"), field_name(lang, "definition")):
            spec["rtl"] = is_rtl(lang)
            if lang in _FIELD_FONTS:
                spec["font"] = _FIELD_FONTS[lang]
    return spec


CSS = """\
.card {
  font-family: "Noto Sans", "Segoe UI", "Helvetica Neue", Arial, sans-serif;
  font-size: 22px;
  line-height: 1.5;
  text-align: center;
  color: black;
  background-color: white;
}
.nightMode .card, .card.nightMode { color: #eee; background-color: #222; }
[lang="en"], [lang="fr"] {
  font-family: "Noto Sans", "Segoe UI", "Helvetica Neue", Arial, sans-serif;
}
[lang="ru"] { font-family: "Noto Sans", "PT Sans", "Segoe UI", Arial, sans-serif; }
[lang="bn"] {
  font-family: "Noto Sans Bengali", "Noto Serif Bengali", "Hind Siliguri", "Kohinoor Bangla",
    "Shonar Bangla", "Vrinda", sans-serif;
  line-height: 1.8;
}
[lang="ar"] {
  font-family: "Noto Naskh Arabic", "Noto Sans Arabic", "Amiri", "Geeza Pro", "Segoe UI",
    "Arabic Typesetting", sans-serif;
  line-height: 1.9;
}
[dir="rtl"] { direction: rtl; unicode-bidi: isolate; }
[dir="ltr"] { direction: ltr; unicode-bidi: isolate; }
.kind { font-size: 0.6em; color: #888; letter-spacing: 0.05em; }
.prompt { font-size: 1.3em; margin: 0.4em 0; }
.prompt.definition { font-size: 1em; }
.ask { font-size: 0.7em; color: #888; }
.answer { font-size: 1.2em; margin: 0.4em 0; }
.answer.definition { font-size: 1em; }
.acronym { font-size: 0.8em; color: #666; }
.context { margin-top: 1.2em; font-size: 0.75em; color: #555; }
.ctx { margin: 0.5em auto; max-width: 40em; }
.ctx[dir="rtl"] { text-align: right; }
.ctx[dir="ltr"] { text-align: left; }
.ctx-term { font-weight: bold; }
.ctx-def::before { content: " — "; }
"""


def build_model(directions: Sequence[Direction]) -> genanki.Model:
    """The genanki model: fixed fields, one template per direction (in the given order)."""
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
