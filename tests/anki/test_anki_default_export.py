"""What `quizzer export anki` gives without --pair/--kinds, in Anki.

At most 12 cards per concept: the directions studied in quizzer when the store has
any, else terms to and from English plus the English term's meaning; a deck of one
language gets its term → definition and definition → term cards.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from quizzer.anki.directions import DEFAULT_MAX_PER_CONCEPT, Direction, every_direction
from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.concepts.deck import Deck
from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from tests.anki_support import check_every_card, import_package, open_collection, recent
from tests.factories import BUNDLED_LANGUAGES, concept


@pytest.fixture
def decks_dir(tmp_path, monkeypatch):
    folder = tmp_path / "decks"
    folder.mkdir()
    french = Deck(
        id="mes-mots",
        name="Mes mots",
        concepts=(
            concept("mes-mots", "quantification", {"fr": ("Quantification", "Moins de bits.")}),
            concept("mes-mots", "elagage", {"fr": ("Élagage", "Retirer des poids.")}),
        ),
    )
    write_deck(french, folder / "mes-mots.toml")
    monkeypatch.setenv("QUIZZER_DECKS", str(folder))
    return folder


def _export(tmp_path, capsys, *flags: str, db=None):
    out = tmp_path / "out.apkg"
    argv = ["export", "anki", "--out", str(out), "--db", str(db or tmp_path / "none.json")]
    assert main([*argv, "--timestamp", str(int(recent(600))), *flags]) == 0
    return out, capsys.readouterr().out


def _templates(tmp_path, out) -> Counter[str]:
    col = open_collection(tmp_path, f"{out.stem}-{len(list(tmp_path.iterdir()))}.anki2")
    try:
        import_package(col, out)
        check_every_card(col)
        return Counter(str(col.get_card(c).template()["name"]) for c in col.find_cards(""))
    finally:
        col.close()


def test_a_one_language_deck_exports_without_flags(tmp_path, decks_dir, capsys):
    out, printed = _export(tmp_path, capsys, "--deck", "mes-mots")
    assert "2 notes, 4 cards" in printed
    assert _templates(tmp_path, out) == {"meaning fr→fr": 2, "term fr→fr": 2}


def test_each_deck_gets_its_own_default(tmp_path, decks_dir, capsys):
    out, printed = _export(tmp_path, capsys)  # the French deck and the bundled ones
    names = _templates(tmp_path, out)
    assert names["meaning fr→fr"] == names["term fr→fr"] == 2
    five = {n for n in names if "fr→fr" not in n}
    assert five == {
        *(f"translate {lang}→en" for lang in BUNDLED_LANGUAGES[1:]),
        *(f"translate en→{lang}" for lang in BUNDLED_LANGUAGES[1:]),
        "meaning en→en",
    }
    assert "38 notes" in printed and "(at most 9 cards per concept)" in printed


def _study(db, plan: dict[str, int]) -> None:
    """Answer ``n`` cards in each direction (pair code → n) of the quantization deck."""
    concepts = ["quantization", "ptq", "qat", "scale-factor", "zero-point"]
    now = datetime.now(UTC) - timedelta(days=1)
    with open_store(db) as store:
        for code, n in plan.items():
            for uid in concepts[:n]:
                key = CardKey(f"quantization/{uid}", Pair.parse(code))
                store.record(key, 3, now, Answer(mode="flip", duration_ms=1500))


def test_the_directions_studied_in_quizzer_are_the_default(tmp_path, decks_dir, capsys):
    db = tmp_path / "progress.json"
    _study(db, {"ru:term>bn:definition": 2, "en:term>ar:term": 1, "fr:definition>fr:term": 1})
    out, _printed = _export(tmp_path, capsys, "--deck", "quantization", db=db)
    names = _templates(tmp_path, out)
    assert set(names) == {"meaning ru→bn", "translate en→ar", "term fr→fr"}


def test_at_most_12_studied_directions_most_studied_first(tmp_path, decks_dir, capsys):
    db = tmp_path / "progress.json"
    studied = [d for d in every_direction(BUNDLED_LANGUAGES) if d.kind == "translate"][:14]
    # the first two directions are studied on 3 concepts, the others on 1 or 2
    plan = {d.pair.code: (3 if i < 2 else 1 + i % 2) for i, d in enumerate(studied)}
    _study(db, plan)
    out, printed = _export(tmp_path, capsys, "--deck", "quantization", db=db)
    names = _templates(tmp_path, out)
    assert len(names) <= DEFAULT_MAX_PER_CONCEPT
    assert f"{DEFAULT_MAX_PER_CONCEPT} directions" in printed
    assert {studied[0].name, studied[1].name} <= set(names)


def test_all_gives_every_direction_and_kinds_filter_it(tmp_path, decks_dir, capsys):
    out, printed = _export(tmp_path, capsys, "--deck", "quantization", "--all")
    assert "70 directions" in printed
    out, printed = _export(tmp_path, capsys, "--deck", "quantization", "--kinds", "meaning")
    names = _templates(tmp_path, out)
    assert {Direction("meaning", "ar", "en").name, "meaning en→en"} <= set(names)
    assert all(name.startswith("meaning ") for name in names)
