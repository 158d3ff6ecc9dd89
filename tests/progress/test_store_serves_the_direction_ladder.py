"""The store's due cards follow the direction ladder: with both directions of a pair chosen, a
concept's reverse new card is not served until its first direction reaches ``ladder_days``,
then it is, in a store kept open and in one reopened from disk (whose queue reads the
stored records, not states built while answering)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.settings import SchedulerSettings
from tests.factories import ru_bn_deck

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FIRST = Pair("ru", "term", "bn", "term")
REVERSE = Pair("bn", "term", "ru", "term")
DECK = ru_bn_deck("demo", 3)


def test_the_reverse_waits_until_the_first_direction_is_known(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    c0_first, c0_reverse = CardKey("demo/c0", FIRST), CardKey("demo/c0", REVERSE)
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        queue = store.due_cards(DECK, [FIRST, REVERSE], T0)
        assert {k.pair for k in queue.new} == {FIRST}
        assert c0_reverse in queue.ladder and len(queue.ladder) == 3
        now = T0
        # Good answers on the first direction, each when it is due, until it is known.
        steps, stability, state = 0, 0.0, None
        while stability < 7:
            store.record(c0_first, 3, now)
            state = store.card(c0_first)
            assert state is not None
            stability = state.stability or 0.0
            waiting = store.due_cards(DECK, [FIRST, REVERSE], now + timedelta(days=1))
            if stability < 7:
                assert c0_reverse in waiting.ladder
                assert c0_reverse not in waiting.cards
            now = max(state.due, now + timedelta(minutes=1))
            steps += 1
            assert steps < 20
        assert state is not None and state.last_review is not None
        assert state.due - state.last_review > timedelta(days=6)
        later = state.last_review + timedelta(days=1)  # the next day: the first isn't due
        queue = store.due_cards(DECK, [FIRST, REVERSE], later)
        assert c0_reverse in queue.new
        assert c0_reverse not in queue.ladder
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        queue = store.due_cards(DECK, [FIRST, REVERSE], later)
        assert c0_reverse in queue.new
        assert {CardKey("demo/c1", REVERSE), CardKey("demo/c2", REVERSE)} == set(queue.ladder)


def test_ladder_days_zero_serves_the_reverse_the_next_day(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    c0_first, c0_reverse = CardKey("demo/c0", FIRST), CardKey("demo/c0", REVERSE)
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        store.set_settings(SchedulerSettings(ladder_days=0))
        store.record(c0_first, 4, T0)
        today = store.due_cards(DECK, [FIRST, REVERSE], T0 + timedelta(minutes=5))
        assert c0_reverse in today.siblings and c0_reverse not in today.cards
        tomorrow = store.due_cards(DECK, [FIRST, REVERSE], T0 + timedelta(days=1))
        assert c0_reverse in tomorrow.new and tomorrow.ladder == ()
