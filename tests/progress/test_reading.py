"""Reading an open store (``progress.reading``) at its edges, on real stores on disk.

Card
states handed out as copies, today's counts per deck, a sibling answered in a
direction not asked for, previews of studied and new cards, and the log kept in time
order when answers arrive out of order, across a session.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from tinydb import Query

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.limits import TodayCounts
from tests.factories import ru_bn_deck
from tests.progress import store_builder as sb

NOW = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
BN_RU = Pair("bn", "term", "ru", "definition")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "p.json"


def test_card_states_are_handed_out_as_copies(db: Path) -> None:
    with sb.open_db(db) as store:
        assert store.card(sb.card(1)) is None and len(store) == 0
        store.record(sb.card(1), 3, NOW)
        store.record(sb.card(2), 3, NOW)
        got = store.card(sb.card(1).id)
        assert got is not None and got.reps == 1
        got.reps = 99
        assert store.card(sb.card(1)).reps == 1  # type: ignore[union-attr]
        cards = list(store.cards())
        assert sorted(c.card_id for c in cards) == [sb.card(1).id, sb.card(2).id]
        cards[0].reps = 99
        assert all(c.reps == 1 for c in store.cards()) and len(store) == 2
        # Uncopied (for reading only), the store's own states: the same values.
        own = {c.card_id: c.to_dict() for c in store.cards(copies=False)}
        assert own == {c.card_id: c.to_dict() for c in store.cards()}
        assert next(store.cards(copies=False)) is next(store.cards(copies=False))


def test_today_counts_the_answers_of_one_deck_by_phase(db: Path) -> None:
    deck = ru_bn_deck("demo", 3)
    keys = [CardKey(c.uid, RU_BN) for c in deck.concepts]
    with sb.open_db(db) as store:
        store.record(keys[0], 3, NOW)
        store.record(keys[1], 3, NOW)
        store.record(keys[0], 3, NOW + timedelta(minutes=10))  # now in learning
        store.record(sb.card(1), 3, NOW)  # another deck
        assert store.today("demo", NOW + timedelta(hours=1)) == TodayCounts(new=2, learning=1)
        assert store.today("training-efficiency", NOW) == TodayCounts(new=1)
        assert store.today("demo", NOW + timedelta(days=1)) == TodayCounts()


def test_a_card_answered_in_another_direction_today_buries_its_sibling(db: Path) -> None:
    deck = ru_bn_deck("demo", 2)
    c0, c1 = deck.concepts
    with sb.open_db(db) as store:
        store.record(CardKey(c0.uid, RU_BN), 3, NOW)
        # Asked only for the other direction: c0 was answered today, so its card waits.
        queue = store.due_cards(deck, [BN_RU], NOW + timedelta(minutes=1))
        assert queue.new == (CardKey(c1.uid, BN_RU),)
        assert CardKey(c0.uid, BN_RU) in queue.buried
        both = store.due_cards(deck, iter([RU_BN, BN_RU]), NOW + timedelta(minutes=1))
        assert CardKey(c0.uid, RU_BN) not in both.new and CardKey(c1.uid, RU_BN) in both.new


def test_a_preview_is_of_the_card_as_it_stands(db: Path) -> None:
    with sb.open_db(db) as store:
        new = store.preview(sb.card(1), NOW)
        assert sorted(new) == [1, 2, 3, 4]
        store.record(sb.card(1), 4, NOW)
        later = NOW + timedelta(days=20)
        studied = store.preview(sb.card(1), later)
        assert studied != store.preview(sb.card(2), later)
        assert studied[4] > new[4]


def test_the_log_stays_in_time_order_after_a_sort(db: Path) -> None:
    with sb.open_db(db) as store:
        store.reviews()
        two = store.record(sb.card(1), 3, NOW + timedelta(hours=2))
        zero = store.record(sb.card(2), 3, NOW)
        assert store.reviews() == [zero, two]
        one = store.record(sb.card(3), 3, NOW + timedelta(hours=1))  # before the last one
        assert store.reviews() == [zero, one, two]
        three = store.record(sb.card(1), 1, NOW + timedelta(hours=3))
        assert store.reviews() == [zero, one, two, three]
        assert store.reviews(sb.card(1)) == [two, three]
        assert store.reviews(sb.card(1).id) == [two, three]


def test_the_log_is_read_from_disk_on_first_use(db: Path) -> None:
    with sb.open_db(db) as store:
        late = store.record(sb.card(1), 3, NOW + timedelta(hours=1))
        early = store.record(sb.card(2), 1, NOW)
    with sb.open_db(db) as store:
        assert store.reviews() == [early, late]
        assert store.reviews(sb.card(2)) == [early]
        table = store.reviews_db().table("reviews")
        assert [r["id"] for r in table.search(Query().grade == 1)] == [early.id]
        assert store.undo_depth == 2
        assert store.tz == UTC


def test_after_a_sort_the_latest_answer_is_the_one_compared_with(db: Path) -> None:
    with sb.open_db(db) as store:
        store.reviews()
        three = store.record(sb.card(1), 3, NOW + timedelta(hours=3))
        two = store.record(sb.card(2), 3, NOW + timedelta(hours=2))
        zero = store.record(sb.card(3), 3, NOW)
        assert store.reviews() == [zero, two, three]
        # Before the latest (3 h) though after the one before it (2 h): still out of order.
        between = store.record(sb.card(4), 3, NOW + timedelta(hours=2, minutes=30))
        assert store.reviews() == [zero, two, between, three]
