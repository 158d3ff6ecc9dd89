"""Shared helpers for the Anki export tests: fixture decks and importing into real Anki."""

from __future__ import annotations

import re
import time
import unicodedata
from pathlib import Path

import anki.collection  # noqa: F401  (anki.cards imported first hits a cycle inside anki)
from anki.cards import Card
from anki.collection import (
    Collection,
    ExportAnkiPackageOptions,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)
from anki.dbproxy import DBProxy
from anki.decks import DeckId
from anki.notes import Note

from quizzer.anki.model import BASE, FIELD_INDEX, field_name, template_direction
from quizzer.anki.notes import from_field
from quizzer.concepts.deck import Deck
from tests.factories import concept

HOSTILE = "<script>alert(1)</script> & {{Front}} &amp; <b>bold</b>"


def fixture_deck() -> Deck:
    """Three concepts: all five languages, only en+ar, and a hostile English term."""
    full = concept(
        "fixture",
        "lora",
        {
            "en": ("Low-rank adaptation", "Fine-tuning with small low-rank matrices."),
            "bn": ("লো-র‍্যাঙ্ক অ্যাডাপ্টেশন", "ছোট লো-র‍্যাঙ্ক ম্যাট্রিক্স দিয়ে ফাইন-টিউনিং।"),
            "ar": ("التكيّف منخفض الرتبة", "ضبط دقيق باستخدام مصفوفات صغيرة منخفضة الرتبة."),
            "ru": ("Низкоранговая адаптация", "Дообучение с малыми матрицами низкого ранга."),
            "fr": (
                "Adaptation de rang faible",
                "Affinage avec de petites matrices de rang faible.",
            ),
        },
        acronym="LoRA",
    )
    partial = concept(
        "fixture",
        "zero-point",
        {
            "en": ("Zero point", "The integer that represents real zero."),
            "ar": ("نقطة الصفر", "العدد الصحيح الذي يمثل الصفر الحقيقي."),
        },
    )
    hostile = concept(
        "fixture",
        "hostile",
        {
            "en": (HOSTILE, "Definition with a line\nbreak & an ampersand."),
            "fr": ("Terme « piégé »", "Un terme qui contient {{Back}} et <i>."),
        },
        acronym="A&B <x>",
    )
    return Deck(
        id="fixture",
        name="Fixture deck",
        concepts=(full, partial, hostile),
        description="Test deck",
    )


def open_collection(tmp_path: Path, name: str = "collection.anki2") -> Collection:
    """A fresh, empty Anki collection in ``tmp_path``."""
    return Collection(str(tmp_path / name))


def add_notes(
    col: Collection,
    words: list[tuple[str, str]],
    note_type: str = "Basic (and reversed card)",
) -> None:
    """Add a note of ``note_type`` per (front, back) to the default deck, as Anki's Add does."""
    model = col.models.by_name(note_type)
    assert model is not None
    for front, back in words:
        note = col.new_note(model)
        note["Front"], note["Back"] = front, back
        col.add_note(note, DeckId(1))


def import_package(
    col: Collection,
    path: Path,
    *,
    scheduling: bool = False,
    merge: bool = False,
    presets: bool = False,
):
    """Import ``path`` as Anki's import dialog would; returns the import log."""
    request = ImportAnkiPackageRequest(
        package_path=str(path),
        options=ImportAnkiPackageOptions(
            with_scheduling=scheduling, merge_notetypes=merge, with_deck_configs=presets
        ),
    )
    return col.import_anki_package(request).log


def export_with_scheduling(
    col: Collection, out: Path, *, legacy: bool = False, full: bool = False
) -> Path:
    """Anki's own ``.apkg`` export of the whole collection with its scheduling (as a learner
    exports from Anki to bring progress back); ``full`` adds deck presets and media,
    ``legacy`` writes the pre-2.1.50 format."""
    options = ExportAnkiPackageOptions(
        with_scheduling=True, with_deck_configs=full, with_media=full, legacy=legacy
    )
    col.export_anki_package(out_path=str(out), options=options, limit=None)
    return out


def db_of(col: Collection) -> DBProxy:
    """The open collection's database (Anki types it as possibly closed)."""
    assert col.db is not None, "the collection is closed"
    return col.db


def template_name(card: Card) -> str:
    """The name of the card's template (Anki types a template's values loosely)."""
    name = card.template()["name"]
    assert isinstance(name, str)
    return name


def recent(seconds_ago: float) -> float:
    """A timestamp in the recent past (Anki refuses ids from the future)."""
    return time.time() - seconds_ago


def nfc(text: str) -> str:
    """Anki's normalisation of imported text."""
    return unicodedata.normalize("NFC", text)


def note_text(note, lang: str, side: str) -> str:
    """The plain text a note holds for ``lang``'s term or definition."""
    return from_field(note.fields[FIELD_INDEX[field_name(lang, side)]])  # type: ignore[arg-type]


def notes_by_uid(col: Collection) -> dict[str, Note]:
    """Every note in the collection, keyed by the concept uid in its first field."""
    out: dict[str, Note] = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        out[from_field(note.fields[0])] = note
    return out


_TEXT_RE = re.compile(r'<div class="text"[^>]*>(.*?)</div>', re.S)
_ASK_RE = re.compile(r'<div class="ask"[^>]*>(.*?)</div>', re.S)


def what_it_asks(card) -> tuple[str, str]:
    """A card's rendered front reduced to what it asks: the prompt text and the question
    under it (the language labels left out). ``("", "")`` for a blank front."""
    question = card.question()
    text, ask = _TEXT_RE.search(question), _ASK_RE.search(question)
    return (text.group(1).strip() if text else "", ask.group(1).strip() if ask else "")


def check_every_card(col: Collection) -> int:
    """Assert each card renders a front showing its prompt text, and its template is the
    direction its ordinal says in quizzer's note type; returns how many cards there are."""
    cards = col.find_cards("")
    for cid in cards:
        card = col.get_card(cid)
        note = card.note()
        model = note.note_type()
        assert model is not None
        name = card.template()["name"]
        assert isinstance(name, str)
        assert model["name"] == BASE.name and model["id"] == BASE.id, model["name"]
        direction = template_direction(BASE, card.ord)
        assert direction == template_direction(BASE, name) and direction.name == name
        prompt_side = direction.sides[0]
        text, ask = what_it_asks(card)
        assert text and ask, f"blank front: {name} of {note.fields[0]}"
        assert text == note[field_name(direction.source, prompt_side)], name
    return len(cards)


def quizzer_note_types(col: Collection) -> list[str]:
    """Names of the collection's note types that are quizzer's."""
    return [m.name for m in col.models.all_names_and_ids() if m.name.startswith("quizzer")]
