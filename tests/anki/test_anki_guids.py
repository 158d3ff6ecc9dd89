"""Note GUIDs come from the concept's identity only: edits update notes, other decks never clash.

Checked by importing real packages into Anki's own engine: a GUID that
depended on the English term, or one without the deck, would fail here.
"""

from __future__ import annotations

from dataclasses import replace

from quizzer.anki import export_apkg
from quizzer.concepts.concept import Entry, Text
from quizzer.concepts.deck import Deck
from tests.anki_support import (
    fixture_deck,
    import_package,
    note_text,
    notes_by_uid,
    open_collection,
    recent,
)
from tests.factories import concept


def _note_ids(col) -> dict[str, tuple[int, str]]:
    return {uid: (note.id, note.guid) for uid, note in notes_by_uid(col).items()}


def test_editing_term_definition_and_acronym_keeps_every_note(tmp_path) -> None:
    deck = fixture_deck()
    lora = deck.concepts[0]
    en = lora.entries["en"]
    edited_entry = Entry(
        Text("Low-rank adaptation (edited term)", en.term.source),
        Text("An edited definition.", en.definition.source),
    )
    edited = replace(lora.with_entry("en", edited_entry), acronym="LoRA-X")
    first, second = tmp_path / "first.apkg", tmp_path / "second.apkg"
    export_apkg([deck], first, timestamp=recent(900))
    export_apkg(
        [replace(deck, concepts=(edited, *deck.concepts[1:]))], second, timestamp=recent(300)
    )
    col = open_collection(tmp_path)
    try:
        import_package(col, first)
        before = _note_ids(col)
        cards_before = col.card_count()
        log = import_package(col, second)
        assert len(log.new) == 0
        assert _note_ids(col) == before
        assert col.card_count() == cards_before
        assert note_text(notes_by_uid(col)["fixture/lora"], "en", "term") == (
            "Low-rank adaptation (edited term)"
        )
    finally:
        col.close()


def test_two_decks_sharing_a_concept_id_get_two_notes(tmp_path) -> None:
    texts = {"en": ("Adapter", "A small trained module."), "fr": ("Adaptateur", "Un petit module.")}
    decks = [
        Deck(id=deck_id, name=deck_id.title(), concepts=(concept(deck_id, "adapter", texts),))
        for deck_id in ("mine", "theirs")
    ]
    paths = []
    for d in decks:
        paths.append(tmp_path / f"{d.id}.apkg")
        export_apkg([d], paths[-1], timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        for path in paths:
            log = import_package(col, path)
            assert len(log.new) == 1
        ids = _note_ids(col)
        assert set(ids) == {"mine/adapter", "theirs/adapter"}
        assert ids["mine/adapter"][1] != ids["theirs/adapter"][1]
        assert col.note_count() == 2
    finally:
        col.close()


#: Note GUIDs of fixed concepts, as every quizzer release has written them. A learner's
#: Anki collection finds its notes by these: if one changes, re-importing an export makes
#: a second copy of every note instead of updating the first.
GOLDEN_GUIDS = {
    "ai-basics/lora": "i@v0pR4dS~",
    "mine/adapter": "m.f<u<:cP:",
    "theirs/adapter": "CTP[9*1Bab",
}


def test_a_fixed_concept_gets_the_same_note_guid_in_anki_as_always(tmp_path) -> None:
    texts = {"en": ("Low-rank adaptation", "Fine-tuning small low-rank matrices.")}
    decks = [
        Deck(id="ai-basics", name="AI basics", concepts=(concept("ai-basics", "lora", texts),)),
        Deck(id="mine", name="Mine", concepts=(concept("mine", "adapter", texts),)),
        Deck(id="theirs", name="Theirs", concepts=(concept("theirs", "adapter", texts),)),
    ]
    path = tmp_path / "golden.apkg"
    export_apkg(decks, path, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, path)
        assert {uid: guid for uid, (_, guid) in _note_ids(col).items()} == GOLDEN_GUIDS
    finally:
        col.close()
