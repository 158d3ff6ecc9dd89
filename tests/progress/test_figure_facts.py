"""The card facts of ``P.figures``: after an answer, only its card is
counted again, and the figures still equal those of the whole log.

Real stores on disk (:mod:`tests.synthetic_history` through ``merge_batch``). Each time
the figures equal :func:`compute_stats` over the whole log read back (``_same``); how
many card states were turned into facts (:func:`quizzer.stats.cardfacts.fact_of`) shows
whether the cached facts were used, and for how many cards they were not.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from quizzer.cards.card import CardKey
from quizzer.progress.figurecache import MAGIC, VERSION, figures_path
from quizzer.progress.sealedfile import seal, unseal
from tests.progress.test_figure_cache import calls_of
from tests.progress.test_stats_cache import _filled, _open, _same
from tests.synthetic_history import CONCEPTS, DECK_ID, PAIRS

CARDS = 30  # _filled's history


@pytest.fixture
def facts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The card ids whose states were turned into facts (not taken from the cache)."""
    return calls_of(monkeypatch, "fact_of", lambda card, days: card.card_id)


def _counted(facts: list[str]) -> int:
    n = len(facts)
    facts.clear()
    return n


def test_answers_undo_bury_suspension_and_a_new_card_count_only_the_cards_changed(
    tmp_path: Path, facts: list[str]
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=21)
    fresh = CardKey(f"{DECK_ID}/{CONCEPTS[-1]}", PAIRS[-1]).id  # no state yet
    with _open(db) as store:
        assert store.state.get(fresh) is None
        _same(store, now)
        assert _counted(facts) == CARDS  # no cache yet: every card
        cards = [c.card_id for c in store.cards()][:3]
        store.record(cards[0], 1, now + timedelta(minutes=1))
        _same(store, now + timedelta(minutes=2))
        assert facts == [cards[0]]
        facts.clear()
        store.record(cards[1], 3, now + timedelta(minutes=3))
        store.record(cards[1], 4, now + timedelta(minutes=4))
        _same(store, now + timedelta(minutes=5))
        assert facts == [cards[1]]  # answered twice: counted once
        facts.clear()
        assert store.undo() is not None
        _same(store, now + timedelta(minutes=6))
        assert facts == [cards[1]]
        facts.clear()
        store.bury(cards[2], now + timedelta(minutes=7))
        store.set_suspended(cards[0], True, now + timedelta(minutes=8))
        _same(store, now + timedelta(minutes=9))
        assert sorted(facts) == sorted([cards[2], cards[0]])
        facts.clear()
        store.record(fresh, 3, now + timedelta(minutes=10))  # a card's first answer
        _same(store, now + timedelta(minutes=11))
        assert facts == [fresh]
        facts.clear()
        assert store.undo() is not None  # the card has no state again
        assert store.state.get(fresh) is None
        _same(store, now + timedelta(minutes=12))
        assert _counted(facts) == 0  # gone: nothing to count
        _same(store, now + timedelta(minutes=12))
        assert _counted(facts) == 0  # served


def test_a_reader_after_a_writers_answers_and_after_its_compaction_counts_no_other_card(
    tmp_path: Path, facts: list[str]
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=22)
    with _open(db) as store:
        _same(store, now)
        assert _counted(facts) == CARDS
        answered = [c.card_id for c in store.cards()][:2]
        for i, card_id in enumerate(answered):
            store.record(card_id, 2 + i, now + timedelta(minutes=1 + i))
        with _open(db, read_only=True) as reader:  # another process: the journal's answers
            _same(reader, now + timedelta(minutes=3))
        assert sorted(facts) == sorted(answered)
        facts.clear()
        store.record(answered[0], 1, now + timedelta(minutes=4))
    # Closed: compacted into a new snapshot, to which the writer tied the facts, bringing
    # them up to its states first (the card answered since the reader counted).
    assert facts == [answered[0]]
    facts.clear()
    with _open(db, read_only=True) as reader:
        assert reader.state.raw.lazy
        _same(reader, now + timedelta(minutes=5))
        assert _counted(facts) == 0
    with _open(db) as store:  # the writer's own next session
        _same(store, now + timedelta(minutes=6))
        assert _counted(facts) == 0


def test_another_day_or_parameters_reuse_the_facts_another_zone_or_day_start_does_not(
    tmp_path: Path, facts: list[str]
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=23)
    with _open(db):
        pass  # leaves the card index
    with _open(db, read_only=True) as reader:
        _same(reader, now)
        assert _counted(facts) == CARDS
        _same(reader, now + timedelta(days=1))  # recall and forecast of another day
        _same(reader, now + timedelta(days=9))
        assert _counted(facts) == 0
        _same(reader, now + timedelta(days=9), tz=ZoneInfo("America/Sao_Paulo"))
        assert _counted(facts) == CARDS  # other study days: due and last days move
    with _open(db) as store:
        params = store.settings.parameters
        store.set_settings(replace(store.settings, parameters=(*params[:20], 0.3)))
        _same(store, now + timedelta(days=1))
        _counted(facts)  # the states were recomputed from the log: as many as changed
        store.set_settings(replace(store.settings, day_start_hour=0))
        _same(store, now + timedelta(days=1))
        assert _counted(facts) == CARDS


def test_a_snapshot_edited_by_hand_is_counted_from_its_own_states(
    tmp_path: Path, facts: list[str]
) -> None:
    """The facts name the snapshot they are of by its CRC: an edit of the same size that
    the card index doesn't fit any more gives other states, all counted again."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=24)
    with _open(db):
        pass
    with _open(db, read_only=True) as reader:
        before = _same(reader, now)
        assert _counted(facts) == CARDS
    raw = db.read_bytes()
    found = re.search(rb'"stability":(\d)', raw)
    assert found is not None
    digit = b"2" if found.group(1) == b"1" else b"1"
    db.write_bytes(raw[: found.start(1)] + digit + raw[found.end(1) :])
    with _open(db, read_only=True) as reader:
        after = _same(reader, now)
        assert _counted(facts) == CARDS
    assert after["mastery"] != before["mastery"] or after["languages"] != before["languages"]


@pytest.mark.parametrize(
    "facts_section",
    [
        lambda s: {**s, "cards": s["cards"].replace("\t", " ", 3)},
        lambda s: {**s, "cards": 7},
        lambda s: {**s, "bases": [["x", 0, "x"]]},
        lambda s: {**s, "days": ["Europe/Paris", 4]},
        lambda s: None,
    ],
    ids=["damaged-line", "not-lines", "other-states", "other-days", "none"],
)
def test_a_planted_facts_section_is_not_used(
    tmp_path: Path, facts: list[str], facts_section: Any
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=25)
    with _open(db):
        pass
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    assert _counted(facts) == CARDS
    file = figures_path(db)
    doc, _ = unseal(file.read_bytes(), MAGIC, VERSION)
    doc["facts"] = facts_section(doc["facts"])
    doc["key"]["day"] += 1  # the digest isn't served: the facts would be
    file.write_bytes(seal(MAGIC, VERSION, doc))
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    assert _counted(facts) == CARDS
