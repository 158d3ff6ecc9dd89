"""Leeches are announced: record_outcome/last_outcome say so, `quizzer leeches` lists them."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import RecordOutcome, open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("demo/c0", RU_BN)
OTHER = CardKey("other/c1", RU_BN)


def _quizzer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *args], capture_output=True, text=True, timeout=60
    )


def _lapse_until_leech(store, key: CardKey, now: datetime) -> list[RecordOutcome]:
    """Easy, then (Again, Good) twice: with threshold 2 the second Again makes a leech."""
    outcomes = [store.record_outcome(key, 4, now)]
    for _ in range(2):
        now = store.card(key).due
        outcomes.append(store.record_outcome(key, 1, now, Answer(mode="typed", duration_ms=10)))
        now = store.card(key).due
        outcomes.append(store.record_outcome(key, 3, now))
    return outcomes


def test_record_outcome_says_which_answer_made_a_leech_and_suspended_it(tmp_path: Path) -> None:
    with open_store(tmp_path / "p.json", tz=UTC, rng=random.Random(1)) as store:
        store.set_settings(SchedulerSettings(fuzz=False, leech_threshold=2, leech_every=1))
        outcomes = _lapse_until_leech(store, KEY, NOW)
        assert [o.leech for o in outcomes] == [False, False, False, True, False]
        assert [o.suspended for o in outcomes] == [False, False, False, True, False]
        made = outcomes[3]
        assert isinstance(made.review, Review) and made.review.grade == 1
        assert made.state.leech and made.state.suspended and made.state.lapses == 2
        assert store.reviews()[-2] == made.review
        # record() still returns the Review; last_outcome tells the rest.
        review = store.record(OTHER, 3, NOW)
        assert isinstance(review, Review)
        assert store.last_outcome is not None and store.last_outcome.review == review
        assert not store.last_outcome.leech


def test_flag_action_reports_a_leech_without_suspending(tmp_path: Path) -> None:
    with open_store(tmp_path / "p.json", tz=UTC, rng=random.Random(1)) as store:
        store.set_settings(
            SchedulerSettings(fuzz=False, leech_threshold=2, leech_every=1, leech_action="flag")
        )
        outcomes = _lapse_until_leech(store, KEY, NOW)
        assert outcomes[3].leech and not outcomes[3].suspended
        assert outcomes[3].state.flagged


def test_cli_leeches_lists_filters_and_unsuspends(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        store.set_settings(SchedulerSettings(fuzz=False, leech_threshold=2, leech_every=1))
        _lapse_until_leech(store, KEY, NOW)
        _lapse_until_leech(store, OTHER, NOW)
        store.record(CardKey("demo/c2", RU_BN), 3, NOW)  # not a leech
    listed = _quizzer("leeches", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    assert KEY.id in listed.stdout and OTHER.id in listed.stdout
    assert "demo/c2" not in listed.stdout and "lapses 2  suspended" in listed.stdout
    only = _quizzer("leeches", "--db", str(db), "--deck", "demo")
    assert KEY.id in only.stdout and OTHER.id not in only.stdout
    resumed = _quizzer("leeches", "--db", str(db), "--unsuspend", KEY.id)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed: {KEY.id}" in resumed.stdout
    with open_store(db, read_only=True, tz=UTC) as store:
        state = store.card(KEY)
        assert state is not None and not state.suspended and not state.leech
        assert store.card(OTHER).suspended  # type: ignore[union-attr]
    bad = _quizzer("leeches", "--db", str(db), "--unsuspend", "not a card")
    assert bad.returncode == 2 and "not a card id" in bad.stderr
    never = _quizzer("leeches", "--db", str(db), "--unsuspend", "demo/c9|ru:term>bn:definition")
    assert never.returncode == 2 and "never studied" in never.stderr
    missing = _quizzer("leeches", "--db", str(tmp_path / "typo.json"))
    assert missing.returncode == 3 and "no progress store" in missing.stderr
    assert not (tmp_path / "typo.json").exists()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"mode": "bogus"}, "mode must be one of flip, choice, typed, learn"),
        ({"duration_ms": -5}, "can't be negative"),
    ],
)
def test_record_refuses_a_bad_mode_or_duration_and_writes_nothing(
    tmp_path: Path, kwargs: dict[str, Any], words: str
) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        store.record(KEY, 3, NOW)
        with pytest.raises(ValueError, match=words):
            store.record(OTHER, 3, NOW, Answer(**kwargs))
        assert store.card(OTHER) is None and len(store.reviews()) == 1
    with open_store(db, read_only=True, tz=UTC) as store:
        assert [r.card_id for r in store.reviews()] == [KEY.id]
    with pytest.raises(ValueError, match=words):
        Review(
            id="1",
            card_id=KEY.id,
            reviewed_at=NOW,
            grade=3,
            **{"mode": "flip", "duration_ms": 0, **kwargs},
        )


def test_unsuspending_a_card_that_is_not_suspended_says_so(tmp_path: Path) -> None:
    """Issue 13.10: it used to print "resumed" and exit 0."""
    db = tmp_path / "p.json"
    plain = CardKey("demo/c2", RU_BN)
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        store.record(plain, 3, NOW)
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file())
    result = _quizzer("leeches", "--db", str(db), "--unsuspend", plain.id)
    assert result.returncode == 2, result.stdout
    assert "not suspended" in result.stderr and "resumed" not in result.stdout
    after = sorted((p.name, p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file())
    assert [name for name, _ in after] == [name for name, _ in before]
