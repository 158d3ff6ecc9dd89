"""The quizzer note type as a genanki model: field specs, wrapped templates, the CSS.

:mod:`quizzer.anki.model` says what the note type is (fields, directions, ids) and
:mod:`quizzer.anki.faces` what its cards look like; this module puts the two together
in the shape genanki writes into a package.
"""

from __future__ import annotations

from typing import Any

import genanki

from quizzer.anki.faces import back_html, css_for, front_html, script_font
from quizzer.anki.ids import stable_id62
from quizzer.anki.model import (
    BASE,
    GUARD_VALUE,
    Direction,
    NoteType,
    audio_field,
    field_name,
    variants_field,
)
from quizzer.concepts.languages import is_rtl

#: Editor fonts of the first note type's languages (the cards use :func:`css_for`); other
#: languages get their script's (:func:`quizzer.anki.faces.script_font`).
_FIELD_FONTS = {"bn": "Noto Sans Bengali", "ar": "Noto Naskh Arabic"}


def _editor_font(lang: str) -> str | None:
    if lang in _FIELD_FONTS:
        return _FIELD_FONTS[lang]
    font = script_font(lang) if lang not in BASE.languages else None
    return font.editor_font if font else None


def _section(field_: str, inner: str) -> str:
    return f"{{{{#{field_}}}}}{inner}{{{{/{field_}}}}}"


def template_for(direction: Direction, note_type: NoteType = BASE) -> dict[str, Any]:
    """The genanki template dict (with its stable ``id``) for one direction.

    The faces come from :mod:`quizzer.anki.faces`; here they are wrapped in the
    conditionals that decide whether Anki generates the card at all: the front
    renders only when the card's guard field and both texts it shows are filled.
    """
    prompt_side, answer_side = direction.sides
    prompt = field_name(direction.source, prompt_side)
    answer = field_name(direction.target, answer_side)
    front = front_html(direction)
    qfmt = _section(direction.guard, _section(prompt, _section(answer, front)))
    afmt = back_html(direction, note_type.languages)
    return {"name": direction.name, "id": direction.template_id, "qfmt": qfmt, "afmt": afmt}


def card_requirements(note_type: NoteType = BASE) -> list[list[Any]]:
    """Anki's legacy ``req`` list (template ordinal, "all", field indexes), which old
    Anki versions read to generate cards; computed from the guards, not by rendering."""
    out: list[list[Any]] = []
    for ord_, direction in enumerate(note_type.directions):
        prompt_side, answer_side = direction.sides
        needed = [
            note_type.guard_index(direction),
            note_type.text_index(direction.source, prompt_side),
            note_type.text_index(direction.target, answer_side),
        ]
        out.append([ord_, "all", needed])
    return out


def _field_spec(note_type: NoteType, index: int) -> dict[str, Any]:
    name = note_type.field_names[index]
    spec: dict[str, Any] = {"name": name, "id": stable_id62("field", name)}
    first_guard = note_type.guard_index(note_type.directions[0])
    if index >= first_guard + len(note_type.directions):
        spec["collapsed"] = True
        spec["excludeFromSearch"] = True
        spec["description"] = "Not used any more; kept so older quizzer notes upgrade in place."
        return spec
    if index >= first_guard:
        direction = note_type.directions[index - first_guard]
        # Bookkeeping, not study material: collapsed in the editor, left out of searches.
        spec["collapsed"] = True
        spec["excludeFromSearch"] = True
        spec["description"] = (
            f"Filled ({GUARD_VALUE}) by quizzer: this note has a {direction.name} card. "
            "Type anything here to add the card; empty: none."
        )
        return spec
    if name in {audio_field(lang) for lang in note_type.languages}:
        spec["collapsed"] = True
        spec["excludeFromSearch"] = True
        spec["description"] = "The term's recording, filled by quizzer export anki --audio."
    for lang in note_type.languages:
        if name in (field_name(lang, "term"), field_name(lang, "definition"), variants_field(lang)):
            spec["rtl"] = is_rtl(lang)
            if font := _editor_font(lang):
                spec["font"] = font
    return spec


def build_model(note_type: NoteType = BASE) -> genanki.Model:
    """The genanki model: every field and template of ``note_type``, always all of them."""
    model = genanki.Model(
        note_type.id,
        note_type.name,
        fields=[_field_spec(note_type, i) for i in range(len(note_type.field_names))],
        templates=[template_for(d, note_type) for d in note_type.directions],
        css=css_for(note_type.languages),
        sort_field_index=note_type.text_index(note_type.languages[0], "term"),
    )
    # genanki would find the requirements by rendering every template once per field
    # (70 x 83 renders); they are known: the guard and the two texts.
    model._req = card_requirements(note_type)
    return model
