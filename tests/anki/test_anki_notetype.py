"""One note type that never changes shape, in Anki's own engine.

Any mix of exports, in any order, with or without "Merge note types", gives one
quizzer note type, every card on its own template, no blank front; an old
collection (numbered templates) upgrades in place, scheduling kept.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import anki.collection  # noqa: F401  (anki.cards imported first hits a cycle inside anki)
import pytest
from anki.cards import CardId
from anki.collection import Collection

from quizzer.anki.model import BASE, LEGACY_MODEL_ID, Direction, template_direction
from quizzer.cli.main import main
from quizzer.concepts.deck import Deck
from quizzer.library.decks import write_deck
from quizzer.services.anki_export import exports_record_path
from tests.anki_support import (
    check_every_card,
    db_of,
    fixture_deck,
    import_package,
    open_collection,
    quizzer_note_types,
    recent,
    template_name,
    what_it_asks,
)
from tests.factories import concept

LEGACY = Path(__file__).parent / "data" / "legacy-v1-ar-en.apkg"


def _french_deck() -> Deck:
    """A learner's own one-language list."""
    return Deck(
        id="mes-mots",
        name="Mes mots",
        concepts=(
            concept("mes-mots", "quantification", {"fr": ("Quantification", "Moins de bits.")}),
            concept("mes-mots", "gptq", {"fr": ("GPTQ", "Quantification couche par couche.")}),
        ),
    )


@pytest.fixture
def exporter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """Runs ``quizzer export anki`` on the fixture and French decks; returns the package."""
    decks = tmp_path / "decks"
    decks.mkdir()
    fixture = fixture_deck()  # its hostile concept has a line break, which deck files refuse
    en_fr = concept("fixture", "en-fr", {"en": ("Term", "Meaning."), "fr": ("Terme", "Sens.")})
    write_deck(replace(fixture, concepts=(*fixture.concepts[:2], en_fr)), decks / "fixture.toml")
    write_deck(_french_deck(), decks / "mes-mots.toml")
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))
    counter = iter(range(100))

    def export(*flags: str) -> Path:
        n = next(counter)
        out = tmp_path / f"export-{n}.apkg"
        stamp = str(int(recent(3600 - 60 * n)))  # each export newer than the one before
        argv = ["export", "anki", "--out", str(out), "--db", str(tmp_path / "store.json")]
        assert main([*argv, "--timestamp", stamp, *flags]) == 0
        return out

    return export


MIXES = {
    "all then en:ru": (["--deck", "fixture", "--all"], ["--deck", "fixture", "--pair", "en:ru"]),
    "en:ru then all": (["--deck", "fixture", "--pair", "en:ru"], ["--deck", "fixture", "--all"]),
    "default then en:ru": (["--deck", "fixture"], ["--deck", "fixture", "--pair", "en:ru"]),
    "en:ru then default": (["--deck", "fixture", "--pair", "en:ru"], ["--deck", "fixture"]),
    "user deck then bundled": (["--deck", "mes-mots"], ["--deck", "quantization"]),
}


@pytest.mark.parametrize("merge", [False, True], ids=["keep note types", "merge note types"])
@pytest.mark.parametrize("mix", list(MIXES))
def test_any_mix_of_exports_gives_one_note_type_and_no_blank_front(tmp_path, exporter, mix, merge):
    first, second = (exporter(*flags) for flags in MIXES[mix])
    col = open_collection(tmp_path)
    try:
        import_package(col, first, merge=merge)
        before = check_every_card(col)
        log = import_package(col, second, merge=merge)
        assert len(log.conflicting) == 0
        assert quizzer_note_types(col) == [BASE.name]
        after = check_every_card(col)  # every card on its own template, none blank
        assert after >= before  # an import never takes a card away
        # Anki's own check agrees: nothing to generate, nothing empty
        _message, ok = col.fix_integrity()
        assert ok and col.card_count() == after
        assert check_every_card(col) == after
    finally:
        col.close()


def test_the_note_type_is_the_same_whatever_the_export_asks(tmp_path, exporter):
    Shape = list[tuple[str, int, int | None]]
    shapes: list[tuple[int, Shape, Shape]] = []
    for flags in (["--all"], ["--pair", "en:ru"], ["--kinds", "meaning"], ["--deck", "mes-mots"]):
        col = open_collection(tmp_path, f"{len(shapes)}.anki2")
        try:
            import_package(col, exporter(*flags))
            (model,) = [m for m in col.models.all() if m["name"].startswith("quizzer")]
            shapes.append(
                (
                    model["id"],
                    [(f["name"], f["ord"], f.get("id")) for f in model["flds"]],
                    [(t["name"], t["ord"], t.get("id")) for t in model["tmpls"]],
                )
            )
        finally:
            col.close()
    assert all(shape == shapes[0] for shape in shapes)
    model_id, fields, templates = shapes[0]
    assert model_id == BASE.id
    assert [name for name, _ord, _id in templates] == [d.name for d in BASE.directions]
    assert len(templates) == 70 and len(fields) == len(BASE.field_names)


def test_template_direction_maps_ordinals_and_names_both_ways():
    for ord_, direction in enumerate(BASE.directions):
        assert template_direction(BASE, ord_) == direction
        assert template_direction(None, direction.name) == direction
        assert BASE.ord_of(direction) == ord_
    assert template_direction(None, "meaning en→bn") == Direction("meaning", "en", "bn")
    for bad in ("Card 1", "meaning en-bn", "translate en→en"):
        with pytest.raises(ValueError):
            template_direction(None, bad)
    with pytest.raises(ValueError):
        template_direction(BASE, 70)


def test_no_two_cards_of_a_note_ask_the_same_thing(tmp_path, monkeypatch):
    """The bundled decks with every direction: GPTQ, SmoothQuant… are one word in several
    languages; each front (prompt text and question) appears once per note."""
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "all.apkg"
    argv = ["export", "anki", "--out", str(out), "--all", "--db", str(tmp_path / "s.json")]
    assert main([*argv, "--timestamp", str(int(recent(600)))]) == 0
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        cards = check_every_card(col)
        repeats = 0
        for nid in col.find_notes(""):
            fronts = [what_it_asks(col.get_card(cid)) for cid in col.get_note(nid).card_ids()]
            repeats += sum(1 for a, b in combinations(fronts, 2) if a == b)
            # and no card whose answer is its prompt ("GPTQ" → "GPTQ")
        assert repeats == 0
        shared = col.find_notes('"Concept:quantization/gptq"')
        assert shared, "GPTQ is in the bundled decks"
        asks_en_definition = [
            template_name(col.get_card(c))
            for c in col.get_note(shared[0]).card_ids()
            if template_name(col.get_card(c)).startswith("meaning")
            and template_name(col.get_card(c)).endswith("→en")
        ]
        assert len(asks_en_definition) == len(set(asks_en_definition))
        assert cards == 2390  # 36 concepts × 70 directions, less repeats and trivial cards
    finally:
        col.close()


def _study(col: Collection) -> dict[CardId, tuple[int, ...]]:
    """Give some of the collection's cards a schedule; returns card id → schedule."""
    cids = sorted(col.find_cards(""))
    col.sched.set_due_date(cids[:3], "5!")
    col.sched.set_due_date(cids[3:5], "12!")
    col.sched.suspend_cards(cids[5:6])
    return {
        row[0]: tuple(row[1:])
        for row in db_of(col).all("select id, nid, type, queue, due, ivl, reps, lapses from cards")
    }


@pytest.mark.parametrize(
    "flags", [["--all"], ["--pair", "en:ar", "--pair", "ar:en"]], ids=["all", "same pairs"]
)
def test_an_old_collection_upgrades_in_place_keeping_every_schedule(tmp_path, exporter, flags):
    """A collection holding an export of the old note type (templates numbered per export:
    here meaning en→ar was ordinal 0) takes a new export with "Merge note types", of at
    least the directions it had (quizzer's record of exports didn't exist then). Notes of
    concepts the new export leaves out stay on the old note type, see the next test."""
    legacy = tmp_path / "legacy.apkg"
    shutil.copy(LEGACY, legacy)
    col = open_collection(tmp_path)
    try:
        import_package(col, legacy)
        old = [m for m in col.models.all() if m["id"] == LEGACY_MODEL_ID]
        assert [t["name"] for t in old[0]["tmpls"]][:2] == ["meaning en→ar", "meaning ar→en"]
        names_before = {c: template_name(col.get_card(c)) for c in col.find_cards("")}
        schedules = _study(col)
        revlog = db_of(col).scalar("select count() from revlog")
        log = import_package(col, exporter("--deck", "fixture", *flags), merge=True)
        assert len(log.conflicting) == 0
        assert quizzer_note_types(col) == [BASE.name]  # the old one is gone
        check_every_card(col)
        after = {
            row[0]: tuple(row[1:])
            for row in db_of(col).all(
                "select id, nid, type, queue, due, ivl, reps, lapses from cards"
            )
        }
        for cid, schedule in schedules.items():
            assert after[cid] == schedule  # same card, same note, same schedule
            assert template_name(col.get_card(cid)) == names_before[cid]
        assert db_of(col).scalar("select count() from revlog") == revlog
        suspended = [c for c, s in after.items() if s[2] == -1]
        assert len(suspended) == 1
    finally:
        col.close()


def test_an_upgrade_moves_only_the_notes_the_export_holds(tmp_path, exporter):
    legacy = tmp_path / "legacy.apkg"
    shutil.copy(LEGACY, legacy)
    col = open_collection(tmp_path)
    try:
        import_package(col, legacy)
        schedules = _study(col)
        # en:ru: the en+ar concept has no card, so its note isn't in the package
        import_package(col, exporter("--deck", "fixture", "--pair", "en:ru"), merge=True)
        assert sorted(quizzer_note_types(col)) == sorted([BASE.name, "quizzer: AI glossary"])
        after = {
            row[0]: tuple(row[1:])
            for row in db_of(col).all(
                "select id, nid, type, queue, due, ivl, reps, lapses from cards"
            )
        }
        assert all(after[cid] == schedule for cid, schedule in schedules.items())
        # a full export later moves the rest
        import_package(col, exporter("--deck", "fixture", "--all"), merge=True)
        assert quizzer_note_types(col) == [BASE.name]
        check_every_card(col)
    finally:
        col.close()


def test_without_merging_an_old_collection_keeps_its_notes_apart(tmp_path, exporter):
    """What the README warns about: Anki's default (no merging) leaves the old notes on the
    old note type, untouched, and says so in its log."""
    legacy = tmp_path / "legacy.apkg"
    shutil.copy(LEGACY, legacy)
    col = open_collection(tmp_path)
    try:
        import_package(col, legacy)
        schedules = _study(col)
        log = import_package(col, exporter("--deck", "fixture", "--all"))
        assert len(log.conflicting) == 2  # the two old notes
        assert sorted(quizzer_note_types(col)) == sorted([BASE.name, "quizzer: AI glossary"])
        after = {
            row[0]: tuple(row[1:])
            for row in db_of(col).all(
                "select id, nid, type, queue, due, ivl, reps, lapses from cards"
            )
        }
        assert all(after[cid] == schedule for cid, schedule in schedules.items())
    finally:
        col.close()


def test_fresh_forgets_earlier_exports(tmp_path, exporter):
    exporter("--deck", "fixture", "--all")
    narrow = exporter("--deck", "fixture", "--pair", "en:ru")
    fresh = exporter("--deck", "fixture", "--pair", "en:ru", "--fresh")
    counts = []
    for name, package in (("narrow", narrow), ("fresh", fresh)):
        col = open_collection(tmp_path, f"{name}.anki2")
        try:
            import_package(col, package)
            imported = col.card_count()
            col.fix_integrity()  # Anki generates every card whose guard is filled
            counts.append((imported, col.card_count()))
        finally:
            col.close()
    (narrow_in, narrow_checked), (fresh_in, fresh_checked) = counts
    assert narrow_in == fresh_in == 3  # en:ru: meaning, term, translate of the one en+ru concept
    assert narrow_checked > narrow_in  # the earlier --all cards' guards were kept
    assert fresh_checked == fresh_in


def test_a_record_file_that_is_not_ours_is_left_alone(tmp_path, exporter, capsys):
    record = exports_record_path(tmp_path / "store.json")
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text('{"something": "else"}')
    exporter("--deck", "fixture", "--all")
    assert "is not quizzer's record of exported cards" in capsys.readouterr().err
    assert record.read_text() == '{"something": "else"}'
    record.unlink()
    exporter("--deck", "fixture", "--pair", "en:ru")
    assert '"meaning en→ru"' in record.read_text()  # written once it is ours to write
