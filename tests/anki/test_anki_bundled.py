"""The bundled decks exported to Anki, through the command and imported into real Anki."""

from __future__ import annotations

import io
import time
from dataclasses import replace

import pytest
from rich.console import Console

from quizzer.anki import export_apkg
from quizzer.anki.ids import PARENT_DECK
from quizzer.anki.model import FIELD_INDEX, FIELD_SOURCE, default_directions
from quizzer.anki.notes import from_field, source_text
from quizzer.cli.export_cmd import progress_bar
from quizzer.cli.main import main
from quizzer.concepts.concept import Entry, Text
from quizzer.library.decks import deck_files, read_deck
from quizzer.paths import bundled_decks_dir
from tests.anki_support import (
    db_of,
    import_package,
    nfc,
    note_text,
    notes_by_uid,
    open_collection,
    recent,
)
from tests.factories import BUNDLED_LANGUAGES


@pytest.fixture(scope="module")
def bundled():
    decks = [read_deck(path) for path in deck_files(bundled_decks_dir())]
    assert {d.id for d in decks} == {"training-efficiency", "quantization"}
    return decks


def test_cli_export_of_bundled_decks_imports_completely(tmp_path, bundled, monkeypatch, capsys):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "glossary.apkg"
    argv = ["export", "anki", "--out", str(out), "--timestamp", str(int(recent(600)))]
    assert main([*argv, "--db", str(tmp_path / "no-store.json")]) == 0
    # the default: 9 directions × 36 concepts, less the cards between identical terms
    # ("GPTQ" → "GPTQ") and the repeats of one front
    assert "36 notes, 298 cards" in capsys.readouterr().out
    col = open_collection(tmp_path)
    try:
        log = import_package(col, out)
        assert len(log.new) == 36
        assert col.note_count() == 36
        default = {d.name for d in default_directions(BUNDLED_LANGUAGES)}
        assert len(default) == 9
        assert col.card_count() == 298 <= 9 * 36
        per_note = [len(col.get_note(nid).card_ids()) for nid in col.find_notes("")]
        assert max(per_note) <= 12 and min(per_note) >= 1
        assert {col.get_card(c).template()["name"] for c in col.find_cards("")} == default
        for cid in col.find_cards("card:translate*"):
            card = col.get_card(cid)
            name = str(card.template()["name"])
            source, target = name.split(" ", 1)[1].split("→")
            note = card.note()
            terms = (note_text(note, source, "term"), note_text(note, target, "term"))
            assert terms[0].casefold() != terms[1].casefold(), (name, terms)
        names = {d.name for d in col.decks.all_names_and_ids()}
        assert {f"{PARENT_DECK}::Training efficiency", f"{PARENT_DECK}::Quantization"} <= names
        notes = notes_by_uid(col)
        assert set(notes) == {c.uid for deck in bundled for c in deck}
        for deck in bundled:
            for concept in deck:
                note = notes[concept.uid]
                for lang in BUNDLED_LANGUAGES:
                    for side in ("term", "definition"):
                        assert note_text(note, lang, side) == nfc(concept.text(lang, side)), (
                            concept.uid,
                            lang,
                            side,
                        )
                assert from_field(note.fields[FIELD_INDEX[FIELD_SOURCE]]) == source_text(concept)
                assert f"deck::{deck.id}" in note.tags
    finally:
        col.close()


def test_bundled_edit_reexport_updates_and_unchanged_reimport_changes_nothing(tmp_path, bundled):
    first, second = tmp_path / "first.apkg", tmp_path / "second.apkg"
    export_apkg(bundled, first, timestamp=recent(900))
    deck = bundled[0]
    concept = deck.concepts[3]
    old = concept.entries["ru"]
    new_text = old.definition.text + " (исправлено)"
    edited_concept = concept.with_entry(
        "ru", Entry(old.term, Text(new_text, old.definition.source))
    )
    concepts = list(deck.concepts)
    concepts[3] = edited_concept
    edited = [replace(deck, concepts=tuple(concepts)), *bundled[1:]]
    export_apkg(edited, second, timestamp=recent(300))

    col = open_collection(tmp_path)
    try:
        import_package(col, first)
        cards = col.card_count()
        log = import_package(col, second)
        assert len(log.new) == 0
        assert len(log.updated) >= 1
        assert col.note_count() == 36
        assert col.card_count() == cards
        assert note_text(notes_by_uid(col)[concept.uid], "ru", "definition") == nfc(new_text)

        state = db_of(col).all("select id, guid, mod, flds, tags from notes order by id")
        log = import_package(col, second)
        assert len(log.new) == 0 and len(log.updated) == 0
        assert db_of(col).all("select id, guid, mod, flds, tags from notes order by id") == state
        assert col.card_count() == cards
    finally:
        col.close()


def test_cli_selects_decks_pairs_and_kinds(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "q.apkg"
    argv = ["export", "anki", "--out", str(out), "--deck", "quantization"]
    argv += ["--pair", "en:bn", "--pair", "ar:ru", "--kinds", "meaning,translate"]
    assert main(argv) == 0
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        assert col.note_count() == 20
        # less gptq, llm-int8 (en→bn and ar→ru) and SmoothQuant (ar→ru): the same word
        assert col.card_count() == 20 * 4 - 5
        templates = {col.get_card(cid).template()["name"] for cid in col.find_cards("")}
        assert templates == {"meaning en→bn", "meaning ar→ru", "translate en→bn", "translate ar→ru"}
    finally:
        col.close()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--out", "x.txt"], "does not end in .apkg"),
        (["--pair", "en-bn"], "is not FROM:TO"),
        (["--pair", "en:zz"], "unknown language 'zz'"),
        (["--pair", "en:de"], "no exported deck has de"),
        (["--kinds", "meaning,recall"], "unknown card kind 'recall'"),
        (["--deck", "no-such-deck"], "no deck named 'no-such-deck'"),
        (["--pair", "en:en", "--kinds", "translate"], "no card direction"),
        (["--timestamp", "99999999999"], "is not a time up to now"),
    ],
)
def test_cli_bad_input_is_a_clear_error(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    monkeypatch.chdir(tmp_path)
    full = ["export", "anki", "--out", str(tmp_path / "o.apkg"), *argv]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "o.apkg").exists() and not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("parent", ["missing/sub", "a-file"])
def test_cli_refuses_an_out_folder_that_does_not_exist(tmp_path, monkeypatch, capsys, parent):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    (tmp_path / "a-file").write_text("not a folder")
    out = tmp_path / parent / "x.apkg"
    assert main(["export", "anki", "--out", str(out), "--deck", "quantization"]) == 2
    err = capsys.readouterr().err
    problem = "does not exist" if parent.startswith("missing") else "is not a folder"
    assert f"folder {out.parent} {problem}" in err and "Traceback" not in err
    assert not (tmp_path / "missing").exists()
    assert (tmp_path / "a-file").read_text() == "not a folder"


def test_cli_with_progress_and_no_store_is_a_store_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "o.apkg"
    db = tmp_path / "missing.json"
    assert main(["export", "anki", "--out", str(out), "--with-progress", "--db", str(db)]) == 3
    assert "no progress store" in capsys.readouterr().err
    assert not out.exists()


def test_default_timestamp_is_now(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    # A store of its own: an export made a second newer than the store's last one (so
    # Anki updates its notes) would not be "now" after another test's export there.
    monkeypatch.setenv("QUIZZER_DB", str(tmp_path / "store"))
    out = tmp_path / "now.apkg"
    before = time.time()
    assert main(["export", "anki", "--out", str(out), "--deck", "quantization"]) == 0
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        mods = set(db_of(col).list("select mod from notes"))
        assert len(mods) == 1 and int(before) <= mods.pop() <= time.time() + 1
    finally:
        col.close()


def test_progress_bar_shows_on_a_terminal_only():
    written = io.StringIO()
    terminal = Console(file=written, force_terminal=True, width=100)
    with progress_bar(10_000, console=terminal) as update:
        assert update is not None
        update(5_000, 10_000)
        update(10_000, 10_000)
    assert "Writing notes" in written.getvalue()
    pipe = Console(file=io.StringIO(), force_terminal=False)
    with progress_bar(10_000, console=pipe) as update:
        assert update is None
    with progress_bar(10, console=terminal) as update:
        assert update is None  # too small to bother
