"""The shipped deck options preset and the order of new cards, in Anki.

Imported with "Import any deck presets", the decks get the "quizzer" preset: siblings
buried, new cards in the package's order, the learner's retention and fitted FSRS
parameters. Without it (Anki's default options), the first 20 new cards Anki serves
still span many directions, because of the positions the package gives them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import fsrs
import pytest

from quizzer.anki import export_apkg
from quizzer.anki.exporter import new_card_positions
from quizzer.anki.ids import PARENT_DECK
from quizzer.anki.model import every_direction
from quizzer.anki.preset import PRESET_NAME
from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.library.decks import deck_files, read_deck
from quizzer.paths import bundled_decks_dir
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from tests.anki_support import import_package, open_collection, recent
from tests.factories import BUNDLED_LANGUAGES


@pytest.fixture(scope="module")
def bundled():
    return [read_deck(p) for p in deck_files(bundled_decks_dir())]


def _first_new_cards(col, limit: int = 20):
    col.decks.select(col.decks.id_for_name(PARENT_DECK))
    queued = col.sched.get_queued_cards(fetch_limit=limit)
    return [col.get_card(q.card.id) for q in queued.cards]


@pytest.mark.parametrize("presets", [False, True], ids=["Anki's default options", "preset"])
@pytest.mark.parametrize("which", ["default", "all"])
def test_the_first_20_new_cards_span_many_directions(tmp_path, bundled, presets, which):
    out = tmp_path / "decks.apkg"
    directions = every_direction(BUNDLED_LANGUAGES) if which == "all" else None
    export_apkg(bundled, out, directions=directions, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out, presets=presets)
        first = _first_new_cards(col)
        assert len(first) == 20
        directions_seen = {card.template()["name"] for card in first}
        assert len(directions_seen) >= (9 if which == "default" else 20)
        assert len({card.nid for card in first}) == 20  # one card per concept
    finally:
        col.close()


def test_positions_mix_directions_and_keep_siblings_a_round_apart():
    positions = new_card_positions([3, 3, 3, 2], start=1)
    flat = sorted(
        (pos, note, card) for note, row in enumerate(positions) for card, pos in enumerate(row)
    )
    assert [p for p, _n, _c in flat] == list(range(1, 12))  # unique, no gaps
    first_round = [card for pos, _note, card in flat if pos <= 4]
    assert first_round == [0, 1, 2, 1]  # neighbours start on different directions
    assert all(
        b - a >= 4 for row in positions for a, b in zip(sorted(row), sorted(row)[1:], strict=False)
    )


def test_the_preset_buries_siblings_and_keeps_the_package_order(tmp_path, bundled):
    out = tmp_path / "decks.apkg"
    export_apkg(bundled, out, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out, presets=True)
        for deck in bundled:
            did = col.decks.id_for_name(f"{PARENT_DECK}::{deck.name}")
            assert did is not None
            conf = col.decks.config_dict_for_deck_id(did)
            assert conf["name"] == PRESET_NAME
            assert conf["new"]["bury"] and conf["rev"]["bury"] and conf["buryInterdayLearning"]
            assert conf["newSortOrder"] == 1  # "order gathered": the package's mixed order
            assert conf["newGatherPriority"] == 0  # by deck, then position
            assert conf["desiredRetention"] == pytest.approx(0.9)
        # burying works: answering a new card buries its siblings for today
        (card,) = _first_new_cards(col, 1)
        card.start_timer()
        col.sched.answerCard(card, 3)
        siblings = [c for c in card.note().card_ids() if c != card.id]
        assert siblings and all(col.get_card(c).queue in (-2, -3) for c in siblings)
    finally:
        col.close()
    # without "Import any deck presets", the decks keep Anki's default options
    col = open_collection(tmp_path, "plain.anki2")
    try:
        import_package(col, out)
        did = col.decks.id_for_name(f"{PARENT_DECK}::{bundled[0].name}")
        assert did is not None
        assert col.decks.config_dict_for_deck_id(did)["name"] == "Default"
    finally:
        col.close()


def test_the_preset_carries_the_learners_retention_and_fitted_parameters(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    db = tmp_path / "progress.json"
    fitted = tuple(round(p * 1.05, 4) for p in fsrs.scheduler.DEFAULT_PARAMETERS)
    with open_store(db) as store:
        store.record(
            CardKey("quantization/gptq", Pair.parse("en:term>bn:term")),
            3,
            datetime.now(UTC),
            Answer(mode="flip", duration_ms=2000),
        )
        store.set_settings(replace(store.settings, desired_retention=0.85, parameters=fitted))
    out = tmp_path / "decks.apkg"
    argv = ["export", "anki", "--out", str(out), "--db", str(db)]
    assert main([*argv, "--timestamp", str(int(recent(600)))]) == 0
    for scheduling in (True, False):
        col = open_collection(tmp_path, f"{scheduling}.anki2")
        try:
            import_package(col, out, presets=True, scheduling=scheduling)
            did = col.decks.id_for_name(f"{PARENT_DECK}::Quantization")
            assert did is not None
            conf = col.decks.config_dict_for_deck_id(did)
            assert conf["name"] == PRESET_NAME
            assert conf["desiredRetention"] == pytest.approx(0.85)
            if scheduling:
                assert conf["fsrsParams6"] == pytest.approx(list(fitted), abs=1e-4)
            else:  # Anki drops a preset's parameters unless progress is imported too
                assert not conf["fsrsParams6"]
        finally:
            col.close()
