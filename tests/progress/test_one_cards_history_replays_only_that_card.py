"""Asking a store opened from its cache for one card's history replays that card alone
(the card browser on a large store), and gives the answers a full replay gives."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.derive as derive
from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.scheduler import answer as scheduler

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
PAIR = Pair("en", "term", "fr", "term")
CARDS = [CardKey(f"deck/c{n}", PAIR) for n in range(6)]
GRADES: tuple[Grade, ...] = (1, 2, 3, 4)


def test_one_cards_history_is_a_full_replays_and_replays_no_other_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four answers on each of six cards; reopened from the cache, one card's history runs
    the scheduler on that card's answers only, and equals that card's part of the whole log."""
    db = tmp_path / "progress.json"
    with open_store(db, tz=UTC, rng=random.Random(3)) as store:
        for day in range(4):
            for n, card in enumerate(CARDS):
                store.record(card, GRADES[(day + n) % 4], NOW + timedelta(days=day, minutes=n))
    with open_store(db, tz=UTC, read_only=True) as full:
        everything = full.reviews()
    scheduled: list[str] = []

    def counted(state: Any, *args: Any, **kw: Any) -> Any:
        scheduled.append(state.card_id)
        return scheduler(state, *args, **kw)

    monkeypatch.setattr(derive, "answer", counted)
    with open_store(db, tz=UTC, read_only=True) as store:
        scheduled.clear()  # whatever the open did; the cache holds the states
        one = store.reviews(CARDS[2])
        assert scheduled == [CARDS[2].id] * 4
        assert one == [r for r in everything if r.card_id == CARDS[2].id]
        assert len(one) == 4
        assert store.reviews(CARDS[2]) == one
        assert scheduled == [CARDS[2].id] * 4  # asked again: nothing replayed
        assert store.reviews() == everything
        assert sorted(set(scheduled)) == sorted(c.id for c in CARDS)
