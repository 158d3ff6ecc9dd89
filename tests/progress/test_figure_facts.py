"""The card facts kept in ``P.figures`` never make the figures differ from the whole log's.

Real stores on disk (:mod:`tests.synthetic_history` through ``merge_batch``). Each time
the figures equal :func:`compute_stats` over the whole log read back (``_same``), after
answers, undos, buries, suspensions, compactions, other days, zones and settings, a hand
edit of the snapshot and a planted facts section.
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
from tests.progress.store_builder import GRADES
from tests.progress.test_stats_cache import _filled, _open, _same
from tests.synthetic_history import CONCEPTS, DECK_ID, PAIRS

CARDS = 30  # _filled's history


def test_the_figures_follow_answers_undo_bury_suspension_and_a_new_card(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=21)
    fresh = CardKey(f"{DECK_ID}/{CONCEPTS[-1]}", PAIRS[-1]).id  # no state yet
    with _open(db) as store:
        assert store.state.get(fresh) is None
        _same(store, now)
        cards = [c.card_id for c in store.cards()][:3]
        store.record(cards[0], 1, now + timedelta(minutes=1))
        _same(store, now + timedelta(minutes=2))
        store.record(cards[1], 3, now + timedelta(minutes=3))
        store.record(cards[1], 4, now + timedelta(minutes=4))
        _same(store, now + timedelta(minutes=5))
        assert store.undo() is not None
        _same(store, now + timedelta(minutes=6))
        store.bury(cards[2], now + timedelta(minutes=7))
        store.set_suspended(cards[0], True, now + timedelta(minutes=8))
        _same(store, now + timedelta(minutes=9))
        store.record(fresh, 3, now + timedelta(minutes=10))  # a card's first answer
        _same(store, now + timedelta(minutes=11))
        assert store.undo() is not None  # the card has no state again
        assert store.state.get(fresh) is None
        _same(store, now + timedelta(minutes=12))
        _same(store, now + timedelta(minutes=12))


def test_a_reader_sees_a_writers_answers_before_and_after_its_compaction(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=22)
    with _open(db) as store:
        _same(store, now)
        answered = [c.card_id for c in store.cards()][:2]
        for i, card_id in enumerate(answered):
            store.record(card_id, GRADES[1 + i], now + timedelta(minutes=1 + i))
        with _open(db, read_only=True) as reader:  # another process: the journal's answers
            _same(reader, now + timedelta(minutes=3))
        store.record(answered[0], 1, now + timedelta(minutes=4))
    # Closed: compacted into a new snapshot, to which the writer tied the facts, bringing
    # them up to its states first (the card answered since the reader counted).
    with _open(db, read_only=True) as reader:
        assert reader.state.raw.lazy
        _same(reader, now + timedelta(minutes=5))
    with _open(db) as store:  # the writer's own next session
        _same(store, now + timedelta(minutes=6))


def test_the_figures_hold_across_days_parameters_zones_and_day_starts(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=23)
    with _open(db):
        pass  # leaves the card index
    with _open(db, read_only=True) as reader:
        _same(reader, now)
        _same(reader, now + timedelta(days=1))  # recall and forecast of another day
        _same(reader, now + timedelta(days=9))
        _same(reader, now + timedelta(days=9), tz=ZoneInfo("America/Sao_Paulo"))
    with _open(db) as store:
        params = store.settings.parameters
        store.set_settings(replace(store.settings, parameters=(*params[:20], 0.3)))
        _same(store, now + timedelta(days=1))
        store.set_settings(replace(store.settings, day_start_hour=0))
        _same(store, now + timedelta(days=1))


def test_a_snapshot_edited_by_hand_is_counted_from_its_own_states(tmp_path: Path) -> None:
    """The facts name the snapshot they are of by its CRC: an edit of the same size that
    the card index doesn't fit any more gives other states, all counted again."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=24)
    with _open(db):
        pass
    with _open(db, read_only=True) as reader:
        before = _same(reader, now)
    raw = db.read_bytes()
    found = re.search(rb'"stability":(\d)', raw)
    assert found is not None
    digit = b"2" if found.group(1) == b"1" else b"1"
    db.write_bytes(raw[: found.start(1)] + digit + raw[found.end(1) :])
    with _open(db, read_only=True) as reader:
        after = _same(reader, now)
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
def test_a_planted_facts_section_is_not_used(tmp_path: Path, facts_section: Any) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=25)
    with _open(db):
        pass
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    file = figures_path(db)
    doc, _ = unseal(file.read_bytes(), MAGIC, VERSION)
    doc["facts"] = facts_section(doc["facts"])
    doc["key"]["day"] += 1  # the digest isn't served: the facts would be
    file.write_bytes(seal(MAGIC, VERSION, doc))
    with _open(db, read_only=True) as reader:
        _same(reader, now)
