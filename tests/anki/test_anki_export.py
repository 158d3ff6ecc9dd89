"""The Anki exporter, checked by importing its packages into Anki's own engine."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from quizzer.anki import export_apkg
from quizzer.anki.ids import PARENT_DECK
from quizzer.anki.model import (
    BASE,
    FIELD_ACRONYM,
    FIELD_INDEX,
    FIELD_NAMES,
    FIELD_SOURCE,
    GUARD_VALUE,
    MODEL_ID,
    Direction,
    default_directions,
    directions_for,
    every_direction,
    field_name,
)
from quizzer.anki.notes import from_field, source_text, to_field
from quizzer.cli.main import main
from quizzer.concepts.concept import Entry, Text
from quizzer.concepts.deck import Deck
from quizzer.library.decks import write_deck
from tests.anki_support import (
    HOSTILE,
    db_of,
    fixture_deck,
    import_package,
    nfc,
    note_text,
    notes_by_uid,
    open_collection,
    recent,
    template_name,
)
from tests.factories import BUNDLED_LANGUAGES
from tests.factories import concept as make_concept


def expected_cards(deck: Deck, directions) -> int:
    """Cards a deck should give: one per direction whose prompt and answer texts exist
    and differ, and whose front (prompt text, asked language and side) no earlier
    direction of the same note already asks."""
    count = 0
    for concept in deck:
        fronts = set()
        for d in sorted(directions, key=lambda d: d.sort_key):
            prompt, answer = d.sides
            asked, expected = concept.text(d.source, prompt), concept.text(d.target, answer)
            if not (asked and expected):
                continue
            if nfc(asked).casefold().strip() == nfc(expected).casefold().strip():
                continue
            front = (nfc(asked).casefold().strip(), d.target, answer)
            if front in fronts:
                continue
            fronts.add(front)
            count += 1
    return count


#: Every direction of the five-language note type (``--all``).
ALL = every_direction(BUNDLED_LANGUAGES)


@pytest.fixture
def deck() -> Deck:
    return fixture_deck()


def test_import_gives_one_note_per_concept_and_only_filled_cards(tmp_path, deck):
    out = tmp_path / "fixture.apkg"
    directions = every_direction(BUNDLED_LANGUAGES)
    # meaning and term: 25 ordered pairs of 5 languages each (a language with itself too);
    # translate: the 20 pairs of two different languages
    assert len(directions) == 70
    result = export_apkg([deck], out, directions=directions, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        log = import_package(col, out)
        assert len(log.new) == 3
        assert col.note_count() == 3
        assert col.card_count() == expected_cards(deck, directions) == result.cards
        # the en+ar concept: meaning, term and translate in both directions, nothing else
        partial = col.find_cards('"Concept:fixture/zero-point"')
        names = sorted(template_name(col.get_card(cid)) for cid in partial)
        assert names == sorted(
            [
                f"{kind} {a}→{b}"
                for kind in ("meaning", "term", "translate")
                for a, b in (("en", "ar"), ("ar", "en"))
            ]
            + [f"{kind} {a}→{a}" for kind in ("meaning", "term") for a in ("en", "ar")]
        )
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            assert card.question().strip(), "no empty fronts"
        # Anki's own check finds nothing to fix: no missing cards, no empty ones
        _message, ok = col.fix_integrity()
        assert ok and col.card_count() == result.cards
        assert db_of(col).scalar("select count() from notes where mid = ?", MODEL_ID) == 3
    finally:
        col.close()


def test_concepts_without_a_card_in_the_requested_languages_are_left_out(tmp_path, deck):
    out = tmp_path / "en-ar.apkg"
    directions = directions_for(["meaning", "term", "translate"], [("en", "ar")])
    result = export_apkg([deck], out, directions=directions, timestamp=recent(600))
    # the en+fr concept has no Arabic: no card, so no note
    assert (result.notes, result.skipped_concepts) == (2, 1)
    assert result.cards == expected_cards(deck, directions) == 6
    col = open_collection(tmp_path)
    try:
        log = import_package(col, out)
        assert len(log.new) == col.note_count() == 2
        assert set(notes_by_uid(col)) == {"fixture/lora", "fixture/zero-point"}
        card_less = "select count() from notes where id not in (select nid from cards)"
        assert db_of(col).scalar(card_less) == 0
        _message, ok = col.fix_integrity()  # Anki's Check Database deletes card-less notes
        assert ok and (col.note_count(), col.card_count()) == (2, 6)
    finally:
        col.close()


def test_cli_reports_skipped_concepts(tmp_path, deck, capsys):
    decks_dir = tmp_path / "decks"
    decks_dir.mkdir()
    en_fr = make_concept("fixture", "en-fr", {"en": ("Term", "Meaning."), "fr": ("Terme", "Sens.")})
    write_deck(replace(deck, concepts=(*deck.concepts[:2], en_fr)), decks_dir / "fixture.toml")
    out = tmp_path / "en-ar.apkg"
    argv = ["export", "anki", "--out", str(out), "--decks-dir", str(decks_dir)]
    assert main([*argv, "--deck", "fixture", "--pair", "en:ar"]) == 0
    captured = capsys.readouterr()
    assert "2 notes, 6 cards" in captured.out
    assert "1 concepts skipped: no text in the requested languages" in captured.err
    assert main([*argv, "--deck", "fixture", "--pair", "en:bn", "--kinds", "meaning"]) == 0
    captured = capsys.readouterr()
    assert "1 notes, 1 cards" in captured.out
    assert "2 concepts skipped: no text in the requested languages" in captured.err
    assert main([*argv, "--deck", "fixture", "--all"]) == 0
    assert "skipped" not in capsys.readouterr().err


def test_no_card_between_identical_terms_even_after_check_database(tmp_path, deck):
    same = make_concept(
        "fixture",
        "gptq",
        {
            "en": ("GPTQ", "Post-training quantization, layer by layer."),
            "bn": ("জিপিটিকিউ", "স্তর ধরে প্রশিক্ষণ-পরবর্তী কোয়ান্টাইজেশন।"),
            "ru": ("gptq", "Квантование после обучения, слой за слоем."),
            "fr": ("GPTQ", "Quantification après entraînement, couche par couche."),
        },
    )
    # the same word in NFC (é) and NFD (e + U+0301): one term after Anki's normalisation
    accent = make_concept(
        "fixture",
        "cafe",
        {"en": ("Café", "A place."), "fr": ("Cafe\u0301", "Un lieu.")},
    )
    deck = replace(deck, concepts=(*deck.concepts, same, accent))
    out = tmp_path / "same.apkg"
    directions = directions_for(
        ["translate"], [("en", "ru"), ("en", "fr"), ("fr", "en"), ("en", "bn")]
    )
    result = export_apkg([deck], out, directions=directions, timestamp=recent(600))
    assert result.cards == expected_cards(deck, directions)
    # cafe has only en and fr, and they are the same word: no card, so no note
    assert result.skipped_concepts == 2  # and zero-point (en+ar only)
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        names = sorted(template_name(col.get_card(c)) for c in col.find_cards("Concept:*gptq"))
        assert names == ["translate en→bn"]  # not en→ru (casefold), en→fr, fr→en
        lora = sorted(template_name(col.get_card(c)) for c in col.find_cards("Concept:*lora"))
        assert len(lora) == 4
        cards = col.card_count()
        assert cards == result.cards
        # Anki's own card generation agrees: Check Database and editing a note add nothing
        _message, ok = col.fix_integrity()
        assert ok and col.card_count() == cards
        note = notes_by_uid(col)["fixture/gptq"]
        note.fields[FIELD_INDEX[field_name("en", "definition")]] += " (edited)"
        col.update_note(note)
        assert col.card_count() == cards
        # the card's guard is filled only where the terms differ
        assert note[Direction("translate", "en", "bn").guard] == GUARD_VALUE
        assert note[Direction("translate", "en", "fr").guard] == ""
        assert note[Direction("translate", "fr", "en").guard] == ""
        assert note[Direction("translate", "en", "ar").guard] == ""  # no Arabic
        assert note[Direction("translate", "ru", "fr").guard] == ""  # not asked for
    finally:
        col.close()


def test_every_field_arrives_as_the_deck_text(tmp_path, deck):
    out = tmp_path / "fixture.apkg"
    export_apkg([deck], out, directions=ALL, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        notes = notes_by_uid(col)
        assert set(notes) == {c.uid for c in deck}
        for concept in deck:
            note = notes[concept.uid]
            for lang in BUNDLED_LANGUAGES:
                for side in ("term", "definition"):
                    expected = concept.text(lang, side)
                    assert note_text(note, lang, side) == (nfc(expected) if expected else "")
            acronym = from_field(note.fields[FIELD_INDEX[FIELD_ACRONYM]])
            assert acronym == (concept.acronym or "")
            assert from_field(note.fields[FIELD_INDEX[FIELD_SOURCE]]) == source_text(concept)
    finally:
        col.close()


def test_hostile_text_shows_literally(tmp_path, deck):
    out = tmp_path / "fixture.apkg"
    export_apkg([deck], out, directions=ALL, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        note = notes_by_uid(col)["fixture/hostile"]
        assert note_text(note, "en", "term") == HOSTILE
        assert "<script>" not in note.fields[FIELD_INDEX[field_name("en", "term")]]
        (cid,) = col.find_cards('"Concept:fixture/hostile" card:"translate en→fr"')
        card = col.get_card(cid)
        question, answer = card.question(), card.answer()
        assert "<script>" not in question and "<b>" not in question
        assert (
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; {{Front}} &amp;amp; &lt;b&gt;" in question
        )
        assert "{{Front}}" in question  # not re-read as a template field
        assert "Terme « piégé »" in answer
        (cid,) = col.find_cards('"Concept:fixture/hostile" card:"meaning fr→en"')
        answer = col.get_card(cid).answer()
        assert "Definition with a line<br>break &amp; an ampersand." in answer
        assert "A&amp;B &lt;x&gt;" in answer  # acronym on the back, escaped
    finally:
        col.close()


def test_arabic_is_rtl_and_every_text_carries_its_language(tmp_path, deck):
    out = tmp_path / "fixture.apkg"
    export_apkg([deck], out, directions=ALL, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        notetype = col.models.get(col.get_note(col.find_notes("")[0]).mid)
        assert notetype is not None
        rtl = {f["name"]: f["rtl"] for f in notetype["flds"]}
        assert rtl[field_name("ar", "term")] and rtl[field_name("ar", "definition")]
        assert not any(rtl[field_name(lang, "term")] for lang in BUNDLED_LANGUAGES if lang != "ar")
        full = deck.concepts[0]
        (cid,) = col.find_cards('"Concept:fixture/lora" card:"meaning bn→ar"')
        card = col.get_card(cid)
        assert f'dir="ltr" lang="bn">{full.text("bn", "term")}</div>' in card.question()
        answer = card.answer()
        assert f'dir="rtl" lang="ar">{full.text("ar", "definition")}</div>' in answer
        # the back shows the concept in the other languages, each tagged with its language
        for lang in ("en", "ru", "fr"):
            row = f'<div class="ctx" dir="ltr" lang="{lang}"><span class="ctx-lang">'
            assert row in answer
            term = full.text(lang, "term")
            assert f'<span class="ctx-term" dir="ltr" lang="{lang}">{term}</span>' in answer
        assert 'class="ctx" dir="rtl"' not in answer  # ar is the answer, not context here
        (cid,) = col.find_cards('"Concept:fixture/lora" card:"translate en→ru"')
        answer = col.get_card(cid).answer()
        assert '<div class="ctx" dir="rtl" lang="ar"><span class="ctx-lang">العربية' in answer
        term = full.text("ar", "term")
        assert f'<span class="ctx-term" dir="rtl" lang="ar">{term}</span>' in answer
        assert "font-family" in notetype["css"] and '[lang="bn"]' in notetype["css"]
        assert '[lang="ar"]' in notetype["css"]
    finally:
        col.close()


def test_decks_tags_and_sort_field(tmp_path, deck):
    out = tmp_path / "fixture.apkg"
    export_apkg([deck], out, directions=ALL, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        names = {d.name for d in col.decks.all_names_and_ids()}
        assert {PARENT_DECK, f"{PARENT_DECK}::Fixture deck"} <= names
        sub = col.decks.id_for_name(f"{PARENT_DECK}::Fixture deck")
        assert {col.get_card(cid).did for cid in col.find_cards("")} == {sub}
        note = notes_by_uid(col)["fixture/lora"]
        assert set(note.tags) >= {
            "quizzer",
            "deck::fixture",
            "lang::en",
            "lang::bn",
            "lang::ar",
            "lang::ru",
            "lang::fr",
            "acronym::LoRA",
        }
        partial = notes_by_uid(col)["fixture/zero-point"]
        assert "lang::bn" not in partial.tags and "lang::ar" in partial.tags
        sfld = db_of(col).scalar("select sfld from notes where id = ?", note.id)
        assert sfld == "Low-rank adaptation"
        notetype = col.models.get(note.mid)
        assert notetype is not None
        assert notetype["sortf"] == FIELD_INDEX[field_name("en", "term")]
        assert [f["name"] for f in notetype["flds"]] == list(FIELD_NAMES)
        assert FIELD_NAMES[0] == "Concept"
    finally:
        col.close()


def test_same_input_and_timestamp_give_the_same_bytes(tmp_path, deck):
    stamp = recent(600)
    a, b, c = tmp_path / "a.apkg", tmp_path / "b.apkg", tmp_path / "c.apkg"
    export_apkg([deck], a, timestamp=stamp)
    export_apkg([deck], b, timestamp=stamp)
    export_apkg([deck], c, timestamp=stamp + 60)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()

    def mods(path: Path) -> tuple[set[int], int]:
        with zipfile.ZipFile(path) as archive:
            db = tmp_path / f"{path.stem}.anki2"
            db.write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(db) as conn:
            note_mods = {row[0] for row in conn.execute("select mod from notes")}
            models = json.loads(conn.execute("select models from col").fetchone()[0])
        return note_mods, models[str(MODEL_ID)]["mod"]

    assert mods(a) == ({int(stamp)}, int(stamp))
    assert mods(c) == ({int(stamp + 60)}, int(stamp + 60))


def test_stable_ids_for_model_fields_templates_and_guids(tmp_path, deck):
    first, second = tmp_path / "1.apkg", tmp_path / "2.apkg"
    export_apkg([deck], first, timestamp=recent(900))
    edited = replace(deck, name="Fixture deck")  # same ids, later export
    export_apkg([edited], second, timestamp=recent(300))

    def read(
        path: Path,
    ) -> tuple[list[int], list[tuple[str, int]], list[str], list[str]]:
        with zipfile.ZipFile(path) as archive:
            db = tmp_path / f"{path.stem}.anki2"
            db.write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(db) as conn:
            models = json.loads(conn.execute("select models from col").fetchone()[0])
            guids = sorted(row[0] for row in conn.execute("select guid from notes"))
            decks = sorted(json.loads(conn.execute("select decks from col").fetchone()[0]))
        model = models[str(MODEL_ID)]
        return (
            [f["id"] for f in model["flds"]],
            [(t["name"], t["id"]) for t in model["tmpls"]],
            guids,
            decks,
        )

    a, b = read(first), read(second)
    assert a == b
    field_ids, template_ids, guids, _decks = a
    assert len(set(field_ids)) == len(FIELD_NAMES) and all(isinstance(i, int) for i in field_ids)
    assert len({i for _n, i in template_ids}) == len(template_ids) == 70
    assert [n for n, _i in template_ids] == [d.name for d in BASE.directions]
    assert len(set(guids)) == 3


def test_edit_then_reexport_updates_in_place(tmp_path, deck):
    first, second = tmp_path / "first.apkg", tmp_path / "second.apkg"
    export_apkg([deck], first, timestamp=recent(900))
    lora = deck.concepts[0]
    new_text = "Fine-tuning that learns a low-rank update (edited)."
    old = lora.entries["en"]
    changed = lora.with_entry("en", Entry(old.term, Text(new_text, old.definition.source)))
    edited = replace(deck, concepts=(changed, *deck.concepts[1:]))
    export_apkg([edited], second, timestamp=recent(300))
    col = open_collection(tmp_path)
    try:
        import_package(col, first)
        cards_before = col.card_count()
        log = import_package(col, second)
        assert len(log.new) == 0
        assert len(log.updated) >= 1
        assert col.note_count() == 3
        assert col.card_count() == cards_before
        assert note_text(notes_by_uid(col)["fixture/lora"], "en", "definition") == new_text
        assert [m.id for m in col.models.all_names_and_ids() if m.id == MODEL_ID] == [MODEL_ID]
        assert len([m for m in col.models.all_names_and_ids() if m.name.startswith("quizzer")]) == 1
    finally:
        col.close()


def test_reimporting_an_unchanged_export_changes_nothing(tmp_path, deck):
    out = tmp_path / "fixture.apkg"
    export_apkg([deck], out, directions=ALL, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        before = db_of(col).all("select id, guid, mod, flds, tags from notes order by id")
        cards = db_of(col).all("select id, nid, ord, did, mod from cards order by id")
        log = import_package(col, out)
        assert len(log.new) == 0 and len(log.updated) == 0
        assert len(log.duplicate) == 3
        assert db_of(col).all("select id, guid, mod, flds, tags from notes order by id") == before
        assert db_of(col).all("select id, nid, ord, did, mod from cards order by id") == cards
    finally:
        col.close()


def test_unchanged_reexport_with_a_later_timestamp_is_updated_harmlessly(tmp_path, deck):
    """Anki (26.9) calls every note of a newer package "updated", even with identical text.

    No deterministic content-derived ``mod`` can be both reproducible and newer
    after an edit, so quizzer keeps mod = export time; this pins down that the
    "update" changes neither text nor cards nor their scheduling.
    """
    first, second = tmp_path / "first.apkg", tmp_path / "second.apkg"
    export_apkg([deck], first, timestamp=recent(900))
    export_apkg([deck], second, timestamp=recent(300))
    col = open_collection(tmp_path)
    try:
        import_package(col, first)
        studied = col.find_cards("")[:2]
        col.sched.set_due_date(studied, "5!")
        fields = db_of(col).all("select id, guid, flds, tags from notes order by id")
        cards = db_of(col).all(
            "select id, nid, ord, did, type, queue, due, ivl from cards order by id"
        )
        log = import_package(col, second)
        assert (len(log.new), len(log.updated), len(log.duplicate)) == (0, 3, 0)
        assert db_of(col).all("select id, guid, flds, tags from notes order by id") == fields
        after = db_of(col).all(
            "select id, nid, ord, did, type, queue, due, ivl from cards order by id"
        )
        assert after == cards
        assert {c[4] for c in after if c[0] in studied} == {2}  # still review cards
    finally:
        col.close()


def test_directions_and_pairs():
    assert Direction("meaning", "en", "en").pair.code == "en:term>en:definition"
    assert Direction("term", "ru", "bn").pair.code == "ru:definition>bn:term"
    assert Direction("translate", "ar", "fr").pair.code == "ar:term>fr:term"
    with pytest.raises(ValueError):
        Direction("translate", "en", "en")
    with pytest.raises(ValueError):
        Direction("meaning", "en", "xx")
    got = directions_for(["translate", "meaning"], [("en", "en"), ("bn", "en")])
    assert [d.name for d in got] == ["meaning en→en", "meaning bn→en", "translate bn→en"]
    assert [d.name for d in default_directions(["en", "ar"])] == [
        "translate en→ar",
        "translate ar→en",
        "meaning en→en",
    ]
    assert [d.name for d in default_directions(["fr"])] == ["meaning fr→fr", "term fr→fr"]
    assert [d.name for d in default_directions(["ru", "fr"])] == [
        "translate ru→fr",
        "translate fr→ru",
        "meaning ru→ru",
    ]
    assert len(default_directions(BUNDLED_LANGUAGES)) == 9


def test_field_escaping_round_trips():
    for text in (HOSTILE, "a\nb", "plain", "x &amp; y", "<br>", "ক্ষ"):
        assert from_field(to_field(text)) == text
    assert to_field("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"


def test_progress_callback_reports_every_note(tmp_path, deck):
    seen: list[tuple[int, int]] = []
    export_apkg(
        [deck],
        tmp_path / "p.apkg",
        timestamp=recent(60),
        on_progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
