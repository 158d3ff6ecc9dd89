"""`quizzer import` of a deck made with Anki's own engine, then `quizzer merge` of it.

The collection is Anki's: "Basic (and reversed card)" notes, a word in one language on the
front and its translation on the back, some cards answered through Anki's scheduler,
exported by Anki to an ``.apkg`` with scheduling. Each note must become one concept, the
merge must put Anki's answers on those concepts' cards, and importing again must change
nothing.
"""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import pytest
from anki.collection import Collection
from anki.decks import DeckId

from quizzer.anki import export_apkg
from quizzer.cards.card import CardKey
from quizzer.cli.main import main
from quizzer.library.decks import read_deck
from quizzer.progress import open_store
from tests.anki_support import add_notes, db_of, export_with_scheduling, fixture_deck

#: Front (Spanish) and back (English) of each note; HTML as a learner's deck has it.
WORDS = [
    ("el perro de la casa", "the dog of the house"),
    ("<b>un gato</b> negro", "a black cat"),
    ("la casa &amp; el jardín", "the house and the garden"),
    ("el libro está sobre la mesa", "the book is on the table"),
]


def _collection(folder: Path) -> Collection:
    folder.mkdir(parents=True, exist_ok=True)
    return Collection(str(folder / "collection.anki2"))


def _answer(col: Collection, count: int) -> int:
    """Answer ``count`` cards through Anki's scheduler (Good); the revlog rows it wrote."""
    for cid in col.find_cards("")[:count]:
        card = col.get_card(cid)
        card.start_timer()
        col.sched.answerCard(card, 3)
    rows = db_of(col).scalar("SELECT count() FROM revlog")
    assert isinstance(rows, int)
    return rows


@pytest.fixture(scope="module")
def anki_deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """(the .apkg, the legacy .apkg, answers in its revlog) of Anki's own collection; its
    .colpkg beside them as ``words.colpkg``."""
    tmp = tmp_path_factory.mktemp("anki")
    col = _collection(tmp / "col")
    try:
        add_notes(col, WORDS)
        answers = _answer(col, 5)
        apkg = export_with_scheduling(col, tmp / "words.apkg")
        legacy = export_with_scheduling(col, tmp / "words-legacy.apkg", legacy=True)
    finally:
        # Exporting the whole collection closes it.
        col.export_collection_package(str(tmp / "words.colpkg"), include_media=False, legacy=False)
    return apkg, legacy, answers


def _import(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["import", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_each_note_becomes_one_concept_with_its_texts(anki_deck, decks, capsys):
    apkg, _legacy, _answers = anki_deck
    code, out, _err = _import(capsys, str(apkg), "--deck", "words")
    assert code == 0
    assert "read as Anki package (collection.anki21b; 4 notes" in out
    assert "field 1 (Front): es term" in out and "field 2 (Back): en term" in out
    deck = read_deck(decks / "words.toml")
    assert len(deck) == len(WORDS)
    by_english = {c.text("en", "term"): c for c in deck}
    cat = by_english["a black cat"]
    # HTML is reduced to its text: no tag, entities decoded.
    assert cat.text("es", "term") == "un gato negro"
    assert by_english["the house and the garden"].text("es", "term") == "la casa & el jardín"
    # One text per language: it is the term and the definition both.
    assert cat.text("en", "definition") == "a black cat"
    assert cat.entries["es"].term.source.file == "words.apkg"


def test_legacy_export_gives_the_same_concepts(anki_deck, decks, capsys):
    apkg, legacy, _answers = anki_deck
    assert _import(capsys, str(apkg), "--deck", "new-format")[0] == 0
    assert _import(capsys, str(legacy), "--deck", "old-format")[0] == 0
    new = read_deck(decks / "new-format.toml")
    old = read_deck(decks / "old-format.toml")
    assert [c.id for c in new] == [c.id for c in old]
    texts = [(c.text("es", "term"), c.text("en", "term")) for c in new]
    assert texts == [(c.text("es", "term"), c.text("en", "term")) for c in old]


def test_a_colpkg_gives_the_same_concepts_and_its_answers_merge(anki_deck, decks, tmp_path, capsys):
    apkg, _legacy, answers = anki_deck
    colpkg = apkg.with_name("words.colpkg")
    assert _import(capsys, str(apkg), "--deck", "words")[0] == 0
    before = (decks / "words.toml").read_bytes()
    code, out, _err = _import(capsys, str(colpkg), "--deck", "words")
    assert code == 0 and "0 new, 4 updated" in out  # the same notes; only the file name differs
    assert [c.id for c in read_deck(decks / "words.toml")] == [
        c.id for c in read_deck_bytes(before, tmp_path)
    ]
    db = tmp_path / "store" / "progress.json"
    assert main(["merge", str(colpkg), "--db", str(db)]) == 0
    assert f"added {answers} answers" in capsys.readouterr().out


@pytest.mark.parametrize("damage", ["truncated", "not a zip", "empty"])
def test_a_damaged_package_is_refused_and_nothing_is_written(
    anki_deck, decks, tmp_path, capsys, damage
):
    apkg, _legacy, _answers = anki_deck
    data = apkg.read_bytes()
    bad = tmp_path / "bad.apkg"
    bad.write_bytes(
        {
            "truncated": data[: len(data) // 2],
            "not a zip": b"PK\x03\x04" + b"x" * 100,
            "empty": b"",
        }[damage]
    )
    code, _out, err = _import(capsys, str(bad), "--deck", "words")
    assert code == 2
    assert "bad.apkg" in err and "Traceback" not in err
    assert not list(decks.iterdir())


def read_deck_bytes(raw: bytes, folder: Path):
    path = folder / "copy" / "words.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(raw)
    return read_deck(path)


def test_reimporting_changes_nothing(anki_deck, decks, capsys):
    apkg, _legacy, _answers = anki_deck
    assert _import(capsys, str(apkg), "--deck", "words")[0] == 0
    before = (decks / "words.toml").read_bytes()
    code, out, _err = _import(capsys, str(apkg), "--deck", "words")
    assert code == 0
    assert "unchanged" in out and "0 new, 0 updated, 4 unchanged" in out
    assert (decks / "words.toml").read_bytes() == before


def test_merge_brings_ankis_answers_onto_the_imported_cards(anki_deck, decks, tmp_path, capsys):
    apkg, _legacy, answers = anki_deck
    assert _import(capsys, str(apkg), "--deck", "words")[0] == 0
    deck = read_deck(decks / "words.toml")
    db = tmp_path / "store" / "progress.json"
    assert main(["merge", str(apkg), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"added {answers} answers" in out
    assert "4 notes found in your decks by their GUID" in out
    assert "didn't export" not in out
    with open_store(db, read_only=True) as store:
        reviews = store.reviews()
    assert len(reviews) == answers
    uids = {c.uid for c in deck}
    keys = [CardKey.parse(r.card_id) for r in reviews]
    assert {k.concept_uid for k in keys} <= uids
    # Card 1 asks the front (Spanish) for the back (English); card 2 the reverse.
    assert {k.pair.code for k in keys} == {"es:term>en:term", "en:term>es:term"}
    # Merging again adds nothing; importing again keeps the cards the answers are on.
    assert main(["merge", str(apkg), "--db", str(db)]) == 0
    assert "added 0 answers" in capsys.readouterr().out
    assert _import(capsys, str(apkg), "--deck", "words")[0] == 0
    assert [c.uid for c in read_deck(decks / "words.toml")] == [c.uid for c in deck]


def test_a_note_edited_in_anki_updates_its_concept_in_place(decks, tmp_path, capsys):
    col = _collection(tmp_path / "col")
    try:
        add_notes(col, WORDS)
        (tmp_path / "before").mkdir()
        (tmp_path / "after").mkdir()
        first = export_with_scheduling(col, tmp_path / "before" / "words.apkg")
        note = col.get_note(col.find_notes("")[1])
        note["Back"] = "a small black cat"
        col.update_note(note)
        second = export_with_scheduling(col, tmp_path / "after" / "words.apkg")
    finally:
        col.close()
    assert _import(capsys, str(first), "--deck", "words")[0] == 0
    ids = [c.id for c in read_deck(decks / "words.toml")]
    code, out, _err = _import(capsys, str(second), "--deck", "words")
    assert code == 0 and "0 new, 1 updated, 3 unchanged" in out
    deck = read_deck(decks / "words.toml")
    assert [c.id for c in deck] == ids
    assert deck.concepts[1].text("en", "term") == "a small black cat"


def test_cloze_notes_are_refused_and_nothing_is_written(decks, tmp_path, capsys):
    col = _collection(tmp_path / "col")
    try:
        add_notes(col, WORDS[:1])
        cloze = col.models.by_name("Cloze")
        assert cloze is not None
        note = col.new_note(cloze)
        note["Text"] = "{{c1::el perro}} is the dog"
        col.add_note(note, DeckId(1))
        apkg = export_with_scheduling(col, tmp_path / "cloze.apkg")
    finally:
        col.close()
    code, _out, err = _import(capsys, str(apkg), "--deck", "words")
    assert code == 2
    assert "cloze.apkg" in err and "cloze notes (note type 'Cloze'" in err
    assert "move the cloze notes to another deck" in err
    assert not list(decks.iterdir())


def test_quizzers_own_notes_come_back_as_the_concepts_they_were(decks, tmp_path, capsys):
    original = fixture_deck()
    package = tmp_path / "fixture.apkg"
    export_apkg([original], package)
    code, out, _err = _import(capsys, str(package))
    assert code == 0
    assert "field 2 (English term): en term (by its name)" in out
    assert "field(s) left out: Concept, Acronym, Source" in out
    deck = read_deck(decks / "fixture.toml")
    assert deck.id == original.id
    assert [c.id for c in deck] == [c.id for c in original]
    for back, before in zip(deck, original, strict=True):
        assert back.languages == before.languages
        for lang, side, text in before.texts():
            # Line breaks become spaces; everything else, markup-like text included, is kept.
            assert back.text(lang, side) == " ".join(text.text.split())


@pytest.mark.parametrize(
    "models",
    [
        "{not json",
        '{"1": {"name": "Basic", "flds": [{"name": "Front"}], "tmpls": []}}',
        '{"1": {"name": "Basic", "flds": "x", "tmpls": [{"ord": "a"}]}}',
        "[1, 2, 3]",
    ],
)
def test_a_package_with_damaged_note_types_is_refused(anki_deck, decks, tmp_path, capsys, models):
    _apkg, legacy, _answers = anki_deck
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(legacy) as archive:
        archive.extractall(folder)
    conn = sqlite3.connect(folder / "collection.anki21")
    with conn:
        conn.execute("UPDATE col SET models = ?", (models,))
    conn.close()
    bad = tmp_path / "bad.apkg"
    with zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            archive.write(path, path.name)
    code, _out, err = _import(capsys, str(bad), "--deck", "words")
    assert code == 2
    assert "bad.apkg" in err and "damaged Anki package" in err and "Traceback" not in err
    assert not list(decks.iterdir())


def test_a_bad_note_is_named_by_its_number_not_a_line(decks, tmp_path, capsys):
    col = _collection(tmp_path / "col")
    try:
        add_notes(col, [WORDS[0], (WORDS[1][0], "")])
        apkg = export_with_scheduling(col, tmp_path / "gap.apkg")
    finally:
        col.close()
    code, _out, err = _import(capsys, str(apkg), "--columns", "es:term,en:term")
    assert code == 2
    assert f"{apkg}: note 2: this note has fewer than two texts" in err, err
    assert "hint: in Anki, move the notes without two texts" in err
    assert not list(decks.iterdir())


def test_a_language_not_told_is_asked_of_each_field(decks, tmp_path, capsys):
    col = _collection(tmp_path / "col")
    try:
        add_notes(col, [("42", "1024")])
        apkg = export_with_scheduling(col, tmp_path / "short.apkg")
    finally:
        col.close()
    code, _out, err = _import(capsys, str(apkg))
    assert code == 2
    assert "can't tell the language of field 1 (Front)" in err
    assert "say what each of its 2 fields holds, in order: --columns LANG1:term,LANG2:term" in err
    assert not list(decks.iterdir())


def test_a_note_type_with_few_notes_takes_its_fields_languages_from_the_others(
    decks, tmp_path, capsys
):
    # One "Basic" note alone says too little of its languages; its fields share their names
    # with the "Basic (and reversed card)" notes', whose texts tell them.
    col = _collection(tmp_path / "col")
    try:
        add_notes(col, WORDS)
        add_notes(col, [("el teclado", "the keyboard")], note_type="Basic")
        apkg = export_with_scheduling(col, tmp_path / "mixed.apkg")
    finally:
        col.close()
    code, out, err = _import(capsys, str(apkg), "--deck", "words")
    assert code == 0, err
    assert "5 notes: 4 of note type 'Basic (and reversed card)', 1 of note type 'Basic'" in out
    assert "Basic: field 1 (Front): es term" in out and "Basic: field 2 (Back): en term" in out
    keyboard = read_deck(decks / "words.toml").concepts[-1]
    assert (keyboard.text("es", "term"), keyboard.text("en", "term")) == (
        "el teclado",
        "the keyboard",
    )


def test_a_field_too_long_is_named_by_its_note_and_field(decks, tmp_path, capsys):
    col = _collection(tmp_path / "col")
    try:
        add_notes(col, [WORDS[0], ("el ordenador " * 1000, "the computer")])
        apkg = export_with_scheduling(col, tmp_path / "long.apkg")
    finally:
        col.close()
    code, _out, err = _import(capsys, str(apkg), "--columns", "es:term,en:term")
    assert code == 2
    assert f"{apkg}: note 2: field 1 is 12,999 characters long (a text holds at most 10,000)" in err
    assert "hint: " in err and not list(decks.iterdir())


def test_lang_leaves_out_the_fields_no_card_shows(decks, tmp_path, capsys):
    # "Basic (optional reversed card)" has a third field, Add Reverse, that only switches
    # the reverse card on: --lang is the language of the texts, not of that switch.
    col = _collection(tmp_path / "col")
    try:
        add_notes(
            col,
            [("la biblioteca", "un lugar con libros"), ("el ordenador", "una máquina")],
            note_type="Basic (optional reversed card)",
        )
        apkg = export_with_scheduling(col, tmp_path / "optional.apkg")
    finally:
        col.close()
    code, out, err = _import(capsys, str(apkg), "--deck", "words", "--lang", "es")
    assert code == 0, err
    assert "field 2 (Back): es definition (by --lang)" in out
    assert "1 field(s) left out: Add Reverse" in out
    concept = read_deck(decks / "words.toml").concepts[0]
    assert concept.text("es", "definition") == "un lugar con libros"


def test_merging_a_deck_not_imported_yet_says_to_import_it_first(
    anki_deck, decks, tmp_path, capsys
):
    apkg, _legacy, _answers = anki_deck
    db = tmp_path / "store" / "progress.json"
    assert main(["merge", str(apkg), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "4 notes quizzer didn't export" in out
    assert f"to study those notes here with their answers: quizzer import {apkg}, then" in out
    assert _import(capsys, str(apkg), "--deck", "words")[0] == 0
    assert main(["merge", str(apkg), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "4 notes found in your decks by their GUID" in out and "merge it again" not in out
