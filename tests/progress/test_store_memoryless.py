"""A store answers a card merged without FSRS's memory state (see
tests/unit/test_scheduler_memory.py for the scheduler's rule), on disk."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.card_state import CardState

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))


def test_a_store_answers_a_merged_card_without_memory_and_keeps_the_answer(tmp_path: Path) -> None:
    """The benchmarks' stores (and any tool's merge) hold review cards with a stability but
    no difficulty: answering one is logged, durable and schedules it."""
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        store.merge_batch(
            [],
            [
                CardState.studied(
                    KEY.id,
                    "review",
                    NOW - timedelta(days=2),
                    last_review=NOW - timedelta(days=10),
                    stability=4.0,
                )
            ],
        )
        review = store.record(KEY, 3, NOW)
        kept = store.card(KEY.id)
        assert kept is not None and kept.card.difficulty is not None
    with open_store(db, tz=UTC, read_only=True) as again:
        assert [r.id for r in again.reviews()] == [review.id]
        reopened = again.card(KEY.id)
        assert reopened is not None and reopened.due > NOW
