"""A store opened from its state cache queues cards from the cache's rows (no card state is
built for that): the queue must be the one the whole states give, for cards new, learning,
in review, buried, suspended and answered in the other direction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import statecache
from quizzer.scheduling.queue import due_queue, facts_of
from tests.factories import ru_bn_deck
from tests.progress import store_builder as sb

NOW = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
BN_RU = Pair("bn", "term", "ru", "definition")


def test_the_queue_of_a_reopened_store_is_that_of_its_whole_states(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    deck = ru_bn_deck("demo", 8)  # the last one new
    keys = [CardKey(c.uid, RU_BN) for c in deck.concepts]
    with sb.open_db(db) as store:
        store.record(keys[0], 3, NOW)  # learning
        store.record(keys[1], 1, NOW)  # learning, failed
        store.record(keys[2], 4, NOW - timedelta(days=9))  # review, due by now
        store.record(keys[3], 4, NOW)  # review, not due
        store.bury(keys[4], NOW)
        store.set_suspended(keys[5], True, NOW)
        store.record(CardKey(deck.concepts[6].uid, BN_RU), 3, NOW)  # its sibling waits
        cache = store.cache_path
    assert cache is not None
    queues = []
    for later in (NOW + timedelta(minutes=15), NOW + timedelta(days=2)):
        with sb.open_db(db) as store:
            assert cache.is_file()  # opened from the cache
            queue = store.due_cards(deck, [RU_BN], later)
            states = {state.card_id: state for state in store.cards()}
            whole = due_queue(
                keys, states, later, store.tz, store.settings, store.today("demo", later)
            )
        assert queue == whole
        queues.append(queue)
    soon, days_later = queues
    assert soon.learning and soon.new and soon.buried and soon.siblings
    assert days_later.review and not days_later.buried
    assert keys[5] not in soon.cards + days_later.cards


def test_the_facts_of_a_row_are_those_of_its_state(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    keys = [sb.card(i) for i in range(5)]
    with sb.open_db(db) as store:
        store.record(keys[0], 3, NOW)
        store.record(keys[1], 4, NOW)
        store.record(keys[2], 1, NOW)
        store.record(keys[2], 3, NOW + timedelta(minutes=1))
        store.bury(keys[3], NOW)
        store.set_suspended(keys[4], True, NOW)
        states = [store.card(key) for key in keys]
    for state in states:
        assert state is not None
        row = statecache.to_row(state, ("2026-09-01", "dev", 1))
        assert statecache.facts_of_row(row) == facts_of(state), state.card_id
