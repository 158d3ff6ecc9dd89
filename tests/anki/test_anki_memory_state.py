"""Anki's replay of an exported history agrees with quizzer's memory state.

A real store answers cards mornings and evenings over ten days (so answers at 21:00
and 08:00 the next morning, one study day apart, are common); ``quizzer export anki
--with-progress`` writes it; Anki's own engine imports it with scheduling, FSRS on and
the store's parameters, and recomputes every card's memory state from its revlog
(``col.compute_memory_state``, what Card info and a preset change do). Stability and
difficulty must agree within 1 % for every card. Counting 24-hour periods instead of
study days (py-fsrs's own rule) left this history up to 90 % apart (16 of 16 cards over
1 % in another trial, worst 231 %).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.library.decks import deck_files, read_deck
from quizzer.paths import bundled_decks_dir
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.studyday import days_between
from tests.anki_support import import_package, open_collection, recent

PAIRS = (Pair.parse("en:term>fr:term"), Pair.parse("ru:term>en:definition"))


@pytest.fixture
def history(tmp_path, monkeypatch):
    """A store with 10 days of answers at 07-08h and 21-23h local time; returns (db, keys)."""
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    (path,) = [p for p in deck_files(bundled_decks_dir()) if p.stem.endswith("quantization")]
    deck = read_deck(path)
    keys = [CardKey(c.uid, p) for c in deck.concepts[:8] for p in PAIRS]
    rng = random.Random(11)
    local_now = datetime.now().astimezone()
    base = (local_now - timedelta(days=11)).replace(hour=0, minute=0, second=0, microsecond=0)
    moments = [
        base + timedelta(days=day, hours=hour, minutes=rng.randrange(60))
        for day in range(10)
        for hour in (7, 8, 21, 22, 23)
    ]
    db = tmp_path / "progress.json"
    with open_store(db) as store:
        for at in moments:
            for key in rng.sample(keys, 5):
                grade: Grade = rng.choice((1, 2, 3, 3, 3, 4))
                store.record(key, grade, at.astimezone(UTC), Answer(duration_ms=3000))
        reviews = store.reviews()
        tz = store.tz
    # the case the rule is about: an evening answer, then the next morning's (< 24 h, 1 day)
    overnight = 0
    for key in keys:
        mine = [r.reviewed_at for r in reviews if r.card_id == key.id]
        overnight += sum(
            1
            for a, b in pairwise(mine)
            if b - a < timedelta(hours=24) and days_between(a, b, tz) == 1
        )
    assert overnight >= 20
    return db, keys


def test_anki_replays_the_exported_revlog_to_the_same_memory_state(tmp_path, history) -> None:
    db, keys = history
    out = tmp_path / "progress.apkg"
    argv = ["export", "anki", "--out", str(out), "--with-progress", "--db", str(db)]
    assert main([*argv, "--deck", "quantization", "--timestamp", str(int(recent(60)))]) == 0
    with open_store(db, read_only=True) as store:
        params = store.settings.parameters
        studied = {key.id for key in keys if store.card(key) is not None}
    col = open_collection(tmp_path)
    try:
        import_package(col, out, scheduling=True)
        col.set_config("fsrs", True)
        for conf in col.decks.all_config():
            conf["fsrsParams6"] = list(params)
            col.decks.update_config(conf)
        checked, worst = 0, 0.0
        for cid in col.find_cards("-is:new"):
            exported = col.get_card(cid).memory_state
            replayed = col.compute_memory_state(cid)
            assert exported is not None
            assert replayed.stability is not None and replayed.difficulty is not None
            for have, want in (
                (exported.stability, replayed.stability),
                (exported.difficulty, replayed.difficulty),
            ):
                worst = max(worst, abs(have - want) / want)
            checked += 1
    finally:
        col.close()
    assert checked == len(studied) == len(keys)
    assert worst < 0.01, f"worst relative difference {worst:.2%} over {checked} cards"
