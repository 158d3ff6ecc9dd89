"""Undo takes back an answer or a bury, never a suspension made after it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.progress import Bury
from tests.factories import ru_bn_deck

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("demo/c0", RU_BN)


@pytest.fixture
def store_seed():
    return 3


def _deck() -> Deck:
    return ru_bn_deck("demo", 1)


def test_undo_of_an_answer_keeps_a_later_suspension_also_after_reopen(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    later = NOW + timedelta(days=30)
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
        store.set_suspended(KEY, True, NOW + timedelta(seconds=5))
        assert store.undo() is not None
        state = store.card(KEY)
        assert state is not None and state.suspended and state.is_new
        assert KEY not in store.due_cards(_deck(), [RU_BN], later).cards
    with open_db(db) as store:  # replayed from the journal / folded into the snapshot alike
        state = store.card(KEY)
        assert state is not None and state.suspended and state.is_new
        assert store.reviews() == []


def test_two_undos_keep_the_suspension_and_resume_after_undo_sticks(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 4, NOW)
        due = store.card(KEY).due
        store.record(KEY, 3, due)
        store.set_suspended(KEY, True, due)
        store.undo()
        store.undo()
        assert store.card(KEY).suspended
        store.set_suspended(KEY, False, due)
    with open_db(db) as store:
        assert not store.card(KEY).suspended
        store.record(KEY, 3, NOW)
        store.set_suspended(KEY, True, NOW)
        store.set_suspended(KEY, False, NOW)
        store.undo()
        assert not store.card(KEY).suspended


def test_undo_of_a_bury_keeps_a_later_suspension(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.bury(KEY, NOW)
        store.set_suspended(KEY, True, NOW + timedelta(seconds=1))
        assert isinstance(store.undo(), Bury)
        state = store.card(KEY)
        assert state is not None and state.suspended and state.buried_until is None
    with open_db(db) as store:
        assert store.card(KEY).suspended


def test_undo_of_the_answer_that_suspended_a_leech_still_unsuspends(
    tmp_path: Path, open_db
) -> None:
    from quizzer.scheduling.settings import SchedulerSettings

    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.set_settings(SchedulerSettings(fuzz=False, leech_threshold=1, leech_every=1))
        store.record(KEY, 4, NOW)
        outcome = store.record_outcome(KEY, 1, store.card(KEY).due)
        assert outcome.suspended
        store.undo()
        state = store.card(KEY)
        assert state is not None and not state.suspended and not state.leech


def test_cli_undo_with_a_mistyped_db_creates_nothing(tmp_path: Path) -> None:
    import subprocess
    import sys

    typo = tmp_path / "sub" / "progres.json"
    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "undo", "--db", str(typo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert "no progress store here" in result.stderr and str(typo) in result.stderr
    assert not typo.exists() and not typo.parent.exists()
