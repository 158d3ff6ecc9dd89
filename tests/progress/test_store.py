"""The progress store on real files: round trip, undo, the lock, damage, migration, UTF-8."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from tinydb import Query

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.errors import StoreError
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.settings import SchedulerSettings
from tests.factories import ru_bn_deck

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("training-efficiency/lora", RU_BN)
KEY2 = CardKey("training-efficiency/peft", RU_BN)


def test_round_trip(tmp_path: Path, open_db) -> None:
    db = tmp_path / "progress.json"
    with open_db(db) as store:
        r1 = store.record(
            KEY, 3, NOW, Answer(mode="typed", duration_ms=2500, typed="ЛоРА", correct=True)
        )
        r2 = store.record(
            KEY2, 1, NOW + timedelta(seconds=30), Answer(mode="choice", duration_ms=900)
        )
        state = store.card(KEY)
        assert state is not None
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [r1.id, r2.id]
        got = store.reviews(KEY)[0]
        assert got == r1
        assert got.typed == "ЛоРА" and got.mode == "typed" and got.duration_ms == 2500
        again = store.card(KEY)
        assert again is not None
        assert again.to_dict() == state.to_dict()
        assert store.card(CardKey("training-efficiency/zero", RU_BN)) is None
    text = "".join(p.read_text(encoding="utf-8") for p in db.rglob("*.log"))
    assert "ЛоРА" in text
    assert "\\u" not in text


def test_a_typed_answer_longer_than_a_log_line_keeps_is_kept_to_its_start(
    tmp_path: Path, open_db
) -> None:
    pasted = "ЛоРА " * 2001  # 10,005 characters: a log line keeps 10,000
    with open_db(tmp_path / "p") as store:
        review = store.record(KEY, 3, NOW, Answer(mode="typed", typed=pasted))
    assert review.typed == pasted[:10_000]
    with open_db(tmp_path / "p") as store:
        assert store.reviews(KEY) == [review] and store.problems == []


def test_default_location_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "env" / "p.json"
    monkeypatch.setenv("QUIZZER_DB", str(target))
    with open_store(tz=UTC) as store:
        store.record(KEY, 3, NOW)
    assert json.loads((target / "quizzer-store.json").read_text())["format"] == "quizzer-store"


def _deck(n: int = 4) -> Deck:
    return ru_bn_deck("demo", n)


def test_due_cards_limits_and_burying_through_the_store(tmp_path: Path, open_db) -> None:
    deck = _deck(4)
    pairs = [RU_BN, Pair("bn", "term", "ru", "term")]
    with open_db(tmp_path / "p.json") as store:
        store.set_settings(SchedulerSettings(new_per_day=3))
        q = store.due_cards(deck, pairs, NOW)
        assert len(q.new) == 3  # 4 concepts, one card each, limit 3
        first = q.new[0]
        store.record(first, 4, NOW)  # Easy: straight to review
        q = store.due_cards(deck, pairs, NOW + timedelta(minutes=1))
        assert store.today("demo", NOW).new == 1
        assert q.new_left == 2 and len(q.new) == 2
        sibling = CardKey(first.concept_uid, pairs[1])
        assert sibling in q.buried
        # Studying only the other direction: still buried today (any pair counts).
        only_other = store.due_cards(deck, [pairs[1]], NOW + timedelta(minutes=2))
        assert sibling in only_other.buried and sibling not in only_other.cards
    with open_db(tmp_path / "p.json") as store:
        assert store.settings.new_per_day == 3  # settings persisted
        assert store.today("demo", NOW + timedelta(hours=2)).new == 1
        assert store.today("demo", NOW + timedelta(days=1)).new == 0


def test_undo_several_steps(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        r1 = store.record(KEY, 3, NOW)
        s1 = store.card(KEY)
        r2 = store.record(KEY, 3, NOW + timedelta(minutes=10))
        r3 = store.record(KEY2, 1, NOW + timedelta(minutes=11))
        assert store.undo_depth == 3
    with open_db(db) as store:  # the undo stack survives a restart
        assert store.undo() == r3
        assert store.card(KEY2) is None  # a first answer undone: the card is new again
        assert store.undo() == r2
        assert store.card(KEY).to_dict() == s1.to_dict()
        assert [r.id for r in store.reviews()] == [r1.id]
        assert store.today(KEY.deck, NOW).new == 1
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [r1.id]
        assert store.undo() == r1
        assert store.undo() is None
        assert store.reviews() == [] and len(store) == 0


def test_second_writer_refused_naming_the_holder_read_only_allowed(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
        with pytest.raises(StoreError) as err:
            open_db(db)
        assert "another quizzer on this machine is writing" in str(err.value)
        assert str(db) in str(err.value)
        with open_db(db, read_only=True) as ro:
            assert ro.card(KEY) is not None
            with pytest.raises(StoreError, match="read-only"):
                ro.record(KEY, 3, NOW)
    with open_db(db) as again:  # released on close
        assert len(again.reviews()) == 1


def test_review_log_queryable_through_tinydb(tmp_path: Path, open_db) -> None:
    with open_db(tmp_path / "p.json") as store:
        store.record(KEY, 1, NOW)
        store.record(KEY2, 3, NOW + timedelta(seconds=5), Answer(mode="typed", typed="পেফট"))
        table = store.reviews_db().table("reviews")
        assert [r["card_id"] for r in table.search(Query().grade == 1)] == [KEY.id]
        assert table.get(Query().mode == "typed")["typed"] == "পেফট"
        with pytest.raises(StoreError, match="read-only"):
            table.insert({"grade": 4})


def test_unusable_paths_and_naive_times_are_clear_errors(tmp_path: Path, open_db) -> None:
    (tmp_path / "dir.json").mkdir()
    (tmp_path / "dir.json" / "notes.txt").write_text("mine")
    with pytest.raises(StoreError) as err:
        open_db(tmp_path / "dir.json")
    assert "dir.json" in str(err.value) and "quizzer-store.json" in str(err.value)
    assert sorted(p.name for p in (tmp_path / "dir.json").iterdir()) == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    with open_db(tmp_path / "empty") as store:  # an empty folder becomes a store
        assert len(store) == 0
    with open_db(tmp_path / "p.json") as store, pytest.raises(ValueError, match="timezone"):
        store.record(KEY, 3, datetime(2026, 3, 10, 12))


def test_leech_suspended_through_the_store_and_resumed(tmp_path: Path, open_db) -> None:
    deck = _deck(1)
    key = CardKey("demo/c0", RU_BN)
    with open_db(tmp_path / "p.json") as store:
        store.set_settings(SchedulerSettings(fuzz=False, leech_threshold=2, leech_every=1))
        now = NOW
        store.record(key, 4, now)  # Easy: into review
        for _ in range(2):
            now = store.card(key).due
            store.record(key, 1, now)  # a lapse
            now = store.card(key).due
            store.record(key, 3, now)  # relearnt
        state = store.card(key)
        assert state is not None and state.lapses == 2 and state.leech and state.suspended
        later = now + timedelta(days=400)
        assert key not in store.due_cards(deck, [RU_BN], later).cards
        store.set_suspended(key, False, later)
    with open_db(tmp_path / "p.json") as store:
        state = store.card(key)
        assert state is not None and not state.suspended and not state.leech
        assert key in store.due_cards(deck, [RU_BN], later).cards
