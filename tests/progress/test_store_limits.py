"""The daily review limit through the store: counted per deck and study day, kept across reopen."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.scheduling.settings import SchedulerSettings
from tests.factories import ru_bn_deck

DAY0 = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")


@pytest.fixture
def store_seed():
    return 5


def _deck(deck_id: str, n: int) -> Deck:
    return ru_bn_deck(deck_id, n)


def test_review_limit_counts_answers_per_deck_and_day_and_survives_reopen(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    demo, other = _deck("demo", 4), _deck("other", 2)
    with open_db(db) as store:
        store.set_settings(SchedulerSettings(fuzz=False, reviews_per_day=2, new_per_day=10))
        for deck in (demo, other):
            for concept in deck.concepts:
                store.record(CardKey(concept.uid, RU_BN), 4, DAY0)  # Easy: into review
        latest_due = max(st.due for st in store.cards())
    # A morning when every card is due (the study day starts at 04:00 UTC here).
    day = (latest_due + timedelta(days=1)).replace(hour=5, minute=0, second=0, microsecond=0)
    with open_db(db) as store:
        q = store.due_cards(demo, [RU_BN], day)
        assert q.reviews_left == 2 and len(q.review) == 2 and q.new == ()
        first = q.review[0]
        store.record(first, 3, day)
        q = store.due_cards(demo, [RU_BN], day + timedelta(minutes=1))
        assert store.today("demo", day).review == 1
        assert q.reviews_left == 1 and len(q.review) == 1 and first not in q.review
        store.record(q.review[0], 3, day + timedelta(minutes=1))
        q = store.due_cards(demo, [RU_BN], day + timedelta(minutes=2))
        assert q.reviews_left == 0 and q.review == ()
        # The limit is per deck: the other deck's reviews are still offered.
        assert len(store.due_cards(other, [RU_BN], day + timedelta(minutes=2)).review) == 2
    with open_db(db) as store:  # the day's count is in the store, not in memory
        q = store.due_cards(demo, [RU_BN], day + timedelta(hours=3))
        assert q.reviews_left == 0 and q.review == ()
        # An undo gives the answer back to the day's allowance.
        store.undo()
        q = store.due_cards(demo, [RU_BN], day + timedelta(hours=3))
        assert q.reviews_left == 1 and len(q.review) == 1
        # Next study day (04:00 UTC): a fresh allowance.
        tomorrow = (day + timedelta(days=1)).replace(hour=4)
        q = store.due_cards(demo, [RU_BN], tomorrow)
        assert q.reviews_left == 2 and len(q.review) == 2
        assert store.due_cards(demo, [RU_BN], tomorrow - timedelta(seconds=1)).reviews_left == 1


def test_no_card_asks_for_a_text_identical_to_its_prompt(tmp_path: Path, open_db) -> None:
    """GPTQ is written alike in English and Bengali: en term -> bn term would show its answer."""
    from quizzer.library.decks import find_deck

    deck = find_deck("quantization").deck
    pair = Pair("en", "term", "bn", "term")
    with open_db(tmp_path / "p.json") as store:
        store.set_settings(SchedulerSettings(new_per_day=100))
        queue = store.due_cards(deck, [pair], DAY0)
    asked = {key.concept_id for key in queue.new}
    alike = {"gptq", "llm-int8"}
    for cid in alike:  # the bundled deck really has these alike in both languages
        concept = deck.get(cid)
        assert concept is not None and concept.text("en", "term") == concept.text("bn", "term")
    assert asked == {c.id for c in deck.concepts} - alike
