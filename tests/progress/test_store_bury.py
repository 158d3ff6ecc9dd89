"""Burying through the progress store: durable, until the next 4 AM, undoable like an answer.

Every test uses a real store on disk (snapshot, journal, month files) and fixed clocks.
The learner lives at UTC+6, so the study day turns at 22:00 UTC.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.progress import Bury, doctor, journal_path
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings
from tests.factories import ru_bn_deck

TZ = timezone(timedelta(hours=6))
#: 18:00 local time on 10 March; the next study day starts 11 March 04:00 local.
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
NEXT_DAY = datetime(2026, 3, 10, 22, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")


@pytest.fixture
def store_tz():
    return TZ


@pytest.fixture
def store_seed():
    return 3


def _deck(n: int = 4) -> Deck:
    return ru_bn_deck("demo", n)


DECK = _deck()
CARDS = [CardKey(c.uid, RU_BN) for c in DECK.concepts]


def _due(store, now: datetime) -> list[str]:
    return [k.id for k in store.due_cards(DECK, [RU_BN], now).cards]


def _events(db: Path) -> list[dict[str, Any]]:
    lines = journal_path(db).read_bytes().splitlines()
    return [json.loads(line[9:]) for line in lines]


def test_bury_new_card_hidden_today_across_reopen_back_at_4am(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    card = CARDS[1]
    with open_db(db) as store:
        assert card.id in _due(store, NOW)
        bury = store.bury(card, NOW)
        assert isinstance(bury, Bury) and bury.until == NEXT_DAY
        # In the journal, fsynced, before compaction.
        assert any(e.get("op") == "bury" for e in _events(db))
        assert card.id not in _due(store, NOW)
        queue = store.due_cards(DECK, [RU_BN], NOW)
        assert card in queue.buried
        assert [k.id for k in queue.new] == [CARDS[0].id, CARDS[2].id, CARDS[3].id]
        state = store.card(card)
        assert state is not None and state.is_new and state.buried_until == NEXT_DAY
    # Closed (compacted into the snapshot), reopened: still hidden for the rest of the day.
    snapshot = json.loads(db.read_text(encoding="utf-8"))
    assert [d["buried_until"] for d in snapshot["cards"].values()] == [NEXT_DAY.isoformat()]
    with open_db(db) as store:
        assert card.id not in _due(store, NOW + timedelta(hours=2))
        assert card.id not in _due(store, NEXT_DAY - timedelta(seconds=1))
        # 04:00 local the next morning: back, and still a new card in deck order.
        assert _due(store, NEXT_DAY) == [k.id for k in CARDS]
        assert store.today("demo", NEXT_DAY).new == 0  # a bury is not an answer
        assert store.reviews() == []


def test_bury_before_4am_lasts_only_until_4am_that_morning(tmp_path: Path, open_db) -> None:
    early = datetime(2026, 3, 10, 20, 30, tzinfo=UTC)  # 02:30 local on 11 March: still the 10th
    with open_db(tmp_path / "p.json") as store:
        bury = store.bury(CARDS[0], early)
        assert bury.until == NEXT_DAY  # 04:00 local on 11 March, 90 minutes later
        assert CARDS[0].id not in _due(store, NEXT_DAY - timedelta(minutes=1))
        assert CARDS[0].id in _due(store, NEXT_DAY)


def test_bury_studied_learning_card_keeps_its_state(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    card = CARDS[0]
    with open_db(db) as store:
        store.record(card, 1, NOW)  # Again: learning, due in a minute
        later = NOW + timedelta(minutes=5)
        assert store.due_cards(DECK, [RU_BN], later).learning == (card,)
        before = store.card(card)
        assert before is not None
        store.bury(card, later)
        assert card.id not in _due(store, later)
        after = store.card(card)
        assert after is not None
        assert after.buried_until == NEXT_DAY
        assert {k: v for k, v in after.to_dict().items() if k != "buried_until"} == {
            k: v for k, v in before.to_dict().items() if k != "buried_until"
        }
    with open_db(db) as store:
        assert card.id not in _due(store, NEXT_DAY - timedelta(minutes=1))
        assert store.due_cards(DECK, [RU_BN], NEXT_DAY).learning == (card,)
        assert len(store.reviews(card)) == 1


def test_undo_restores_a_buried_card_also_after_reopen(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        first = store.bury(CARDS[0], NOW)
        assert store.undo_depth == 1
        assert store.undo() == first
        assert CARDS[0].id in _due(store, NOW)
        assert store.card(CARDS[0]) is None  # never studied: no state left behind
        assert store.undo() is None
        store.bury(CARDS[2], NOW)
    # Undo across a compaction: the bury is on the undo stack in the snapshot.
    with open_db(db) as store:
        assert CARDS[2].id not in _due(store, NOW)
        gone = store.undo()
        assert isinstance(gone, Bury) and gone.card_id == CARDS[2].id
        assert CARDS[2].id in _due(store, NOW)
        assert any(e.get("op") == "unbury" for e in _events(db))
    with open_db(db) as store:
        assert _due(store, NOW) == [k.id for k in CARDS]
        assert store.undo_depth == 0


def test_bury_then_answer_then_two_undos_restores_both(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    buried, answered = CARDS[0], CARDS[1]
    with open_db(db) as store:
        store.bury(buried, NOW)
        review = store.record(answered, 3, NOW + timedelta(seconds=20))
        assert _due(store, NOW + timedelta(minutes=1)) == [CARDS[2].id, CARDS[3].id]
    with open_db(db) as store:  # compacted: the answer is in its month file now
        assert store.undo_depth == 2
        assert store.undo() == review
        assert store.card(answered) is None and store.reviews() == []
        assert store.today("demo", NOW).new == 0
        assert answered.id in _due(store, NOW + timedelta(minutes=1))
        assert buried.id not in _due(store, NOW + timedelta(minutes=1))
        gone = store.undo()
        assert isinstance(gone, Bury) and gone.card_id == buried.id
        assert store.undo() is None
        assert _due(store, NOW + timedelta(minutes=1)) == [k.id for k in CARDS]
    with open_db(db) as store:
        assert _due(store, NOW + timedelta(minutes=1)) == [k.id for k in CARDS]
        assert store.reviews() == [] and len(store) == 0


def test_answering_a_buried_card_clears_the_bury_and_undo_brings_it_back(
    tmp_path: Path, open_db
) -> None:
    with open_db(tmp_path / "p.json") as store:
        store.bury(CARDS[0], NOW)
        review = store.record(CARDS[0], 1, NOW + timedelta(minutes=1))
        state = store.card(CARDS[0])
        assert state is not None and state.buried_until is None and state.reps == 1
        assert state.first_review == review.reviewed_at
        assert CARDS[0] in store.due_cards(DECK, [RU_BN], NOW + timedelta(minutes=3)).learning
        assert store.undo() == review
        again = store.card(CARDS[0])
        assert again is not None and again.is_new and again.buried_until == NEXT_DAY
        assert CARDS[0].id not in _due(store, NOW + timedelta(minutes=3))


def test_bury_uses_the_stored_day_start_hour(tmp_path: Path, open_db) -> None:
    with open_db(tmp_path / "p.json") as store:
        store.set_settings(SchedulerSettings(day_start_hour=6))
        assert store.bury(CARDS[0], NOW).until == NEXT_DAY + timedelta(hours=2)


def test_bury_in_a_journal_left_by_a_killed_process_is_replayed(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(CARDS[3], 4, NOW)
    script = textwrap.dedent(
        f"""
        import os, sys
        from datetime import datetime, timedelta, timezone
        from quizzer.cards.card import CardKey
        from quizzer.progress import open_store
        store = open_store({str(db)!r}, tz=timezone(timedelta(hours=6)))
        store.bury(CardKey.parse({CARDS[1].id!r}), datetime.fromisoformat({NOW.isoformat()!r}))
        print("buried", flush=True)
        os._exit(9)  # no close, no compaction: only the journal has it
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout == "buried\n", done.stderr
    assert doctor.check(db).healthy
    with open_db(db) as store:
        assert store.replayed == 1
        assert CARDS[1].id not in _due(store, NOW)
        gone = store.undo()  # the bury, replayed onto the snapshot's undo stack
        assert isinstance(gone, Bury) and gone.card_id == CARDS[1].id
        assert CARDS[1].id in _due(store, NOW)
        assert isinstance(store.undo(), Review)


def test_cli_undo_names_a_bury(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(CARDS[0], 3, NOW)
        store.bury(CARDS[1], NOW)
    done = subprocess.run(
        [sys.executable, "-m", "quizzer", "undo", "--db", str(db), "-n", "2"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"undone: bury of {CARDS[1].id}"
    assert lines[1].startswith(f"undone: {CARDS[0].id} Good")
    with open_db(db) as store:
        assert store.undo_depth == 0 and store.reviews() == []


def test_study_screen_scheduler_buries_through_the_store(tmp_path: Path, open_db) -> None:
    # The UI's StoreScheduler prefers Store.bury: the bury outlives the app run.
    from quizzer.services.sessions import StoreScheduler

    db = tmp_path / "p.json"
    with open_db(db) as store:
        StoreScheduler(store, DECK, RU_BN).bury(CARDS[0], NOW)
    with open_db(db) as store:
        scheduler = StoreScheduler(store, DECK, RU_BN)  # a fresh run of the app
        assert [k.id for k in scheduler.due(NOW)] == [k.id for k in CARDS[1:]]
        scheduler.bury(CARDS[1], NOW)
        scheduler.undo()
        assert [k.id for k in scheduler.due(NOW)] == [k.id for k in CARDS[1:]]
        assert [k.id for k in scheduler.due(NEXT_DAY)] == [k.id for k in CARDS]


def test_the_summary_next_due_waits_for_a_bury_to_end(tmp_path: Path, open_db) -> None:
    """A card due in 10 minutes but buried comes back at the next study day, not in 10 min."""
    from quizzer.services.sessions import StoreScheduler

    with open_db(tmp_path / "p.json") as store:
        scheduler = StoreScheduler(store, DECK, RU_BN)
        scheduler.record(CARDS[0], 3, NOW, Answer(mode="flip", duration_ms=1000))
        due = store.card(CARDS[0]).due
        assert scheduler.next_due(NOW) == due
        scheduler.bury(CARDS[0], NOW)
        buried_until = store.card(CARDS[0]).buried_until
        assert buried_until is not None and buried_until > due
        assert scheduler.next_due(NOW) == buried_until
