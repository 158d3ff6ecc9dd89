"""The due queue: its parts, the order of new, learning and review cards, sibling burying,
limits and the next due time."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.queue import DueQueue, QueueFacts, due_queue_of_facts
from quizzer.scheduling.settings import SchedulerSettings

PAIR = Pair("ru", "term", "bn", "definition")
OTHER = Pair("en", "term", "ar", "term")
BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def key(i: int, pair: Pair = PAIR) -> CardKey:
    return CardKey(f"deck/c{i:02d}", pair)


def review_due(due: datetime, last: datetime | None = None) -> QueueFacts:
    return QueueFacts(False, True, due, last, False, None)


def test_an_empty_queue_is_empty_and_frozen() -> None:
    q = DueQueue()
    assert (q.learning, q.review, q.new, q.buried) == ((), (), (), ())
    assert q.next_learning_due is None
    assert (q.new_left, q.reviews_left) == (0, 0)
    assert q.cards == () and len(q) == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.new_left = 3  # type: ignore[misc]
    assert not hasattr(q, "__dict__")  # slots: a store builds one per deck


def test_len_counts_every_part() -> None:
    q = DueQueue(learning=(key(0),), review=(key(1), key(2)), new=(key(3), key(4), key(5)))
    assert len(q) == 6
    assert q.cards == tuple(key(i) for i in range(6))


def test_random_new_order_is_pinned_per_day() -> None:
    # The per-day shuffle is a hash of the day and the card id: the same order on every
    # machine and in every version, so an upgrade mid-day does not reshuffle new cards.
    settings = SchedulerSettings(new_order="random", bury_siblings=False)
    cands = [key(i) for i in range(6)]
    q = due_queue_of_facts(cands, {}, NOW, UTC, settings)
    assert [k.concept_uid[-2:] for k in q.new] == PINNED_ORDER


PINNED_ORDER = ["04", "03", "05", "02", "00", "01"]


def test_an_answer_at_the_very_start_of_the_day_buries_its_siblings() -> None:
    # Berlin, 10 March 2026: the study day starts at 04:00 CET = 03:00 UTC.
    start = datetime(2026, 3, 10, 3, 0, tzinfo=UTC)
    answered = key(0, OTHER)
    facts = {answered.id: review_due(start + timedelta(days=3), last=start)}
    q = due_queue_of_facts(
        [key(0), key(1)], facts, start + timedelta(hours=1), BERLIN, SchedulerSettings()
    )
    assert q.buried == (key(0),)
    assert q.new == (key(1),)
    # One microsecond earlier was the previous study day: nothing is buried.
    facts = {
        answered.id: review_due(start + timedelta(days=3), last=start - timedelta(microseconds=1))
    }
    q = due_queue_of_facts(
        [key(0), key(1)], facts, start + timedelta(hours=1), BERLIN, SchedulerSettings()
    )
    assert q.buried == ()
    assert q.new == (key(0), key(1))


def test_the_card_answered_last_today_keeps_its_place() -> None:
    # Two pairs of one concept answered today: the later answer keeps its card, whichever
    # order the states come in; the other is buried like any sibling.
    early, late = key(0), key(0, OTHER)
    due = NOW - timedelta(minutes=1)
    facts = {
        early.id: QueueFacts(False, False, due, NOW - timedelta(hours=2), False, None),
        late.id: QueueFacts(False, False, due, NOW - timedelta(hours=1), False, None),
    }
    for order in (facts, dict(reversed(facts.items()))):
        q = due_queue_of_facts([early, late], order, NOW, UTC, SchedulerSettings())
        assert q.learning == (late,)
        assert q.buried == (early,)


def test_a_suspended_card_skips_only_itself() -> None:
    suspended = QueueFacts(False, True, NOW, NOW - timedelta(days=3), True, None)
    q = due_queue_of_facts(
        [key(0), key(1), key(2)], {key(0).id: suspended}, NOW, UTC, SchedulerSettings()
    )
    assert q.cards == (key(1), key(2))
    assert q.buried == ()


def test_ids_must_match_the_candidates() -> None:
    cands = [key(0), key(1)]
    assert due_queue_of_facts(
        cands, {}, NOW, UTC, SchedulerSettings(), ids=[k.id for k in cands]
    ).new == (key(0), key(1))
    with pytest.raises(ValueError):
        due_queue_of_facts(cands, {}, NOW, UTC, SchedulerSettings(), ids=[key(0).id])


def test_a_reached_review_limit_leaves_no_reviews() -> None:
    from quizzer.scheduling.limits import TodayCounts

    facts = {key(i).id: review_due(NOW - timedelta(hours=i + 1)) for i in range(3)}
    settings = SchedulerSettings(reviews_per_day=2, new_per_day=1)
    q = due_queue_of_facts(
        [key(i) for i in range(4)], facts, NOW, UTC, settings, TodayCounts(new=1, review=2)
    )
    assert (q.review, q.new, q.reviews_left, q.new_left) == ((), (), 0, 0)
    q = due_queue_of_facts(
        [key(i) for i in range(4)], facts, NOW, UTC, settings, TodayCounts(review=1)
    )
    assert (q.review, q.new, q.reviews_left, q.new_left) == ((key(2),), (key(3),), 1, 1)


def test_reviews_and_learning_come_by_due_time_then_id() -> None:
    # "deck/ab|…" sorts before "deck/a|…" as an id ("b" < "|") but after it as a key.
    a, ab = CardKey("deck/a", PAIR), CardKey("deck/ab", PAIR)
    z = CardKey("deck/z", PAIR)
    settings = SchedulerSettings(bury_siblings=False)
    due = NOW - timedelta(hours=1)
    for is_review in (True, False):
        facts = {
            a.id: QueueFacts(False, is_review, due, None, False, None),
            ab.id: QueueFacts(False, is_review, due, None, False, None),
            z.id: QueueFacts(False, is_review, due - timedelta(minutes=5), None, False, None),
        }
        q = due_queue_of_facts([a, ab, z], facts, NOW, UTC, settings)
        assert (q.review if is_review else q.learning) == (z, ab, a)


def test_next_due_skips_new_and_suspended_cards_and_those_due_now() -> None:
    from quizzer.scheduling.card_state import CardState
    from quizzer.scheduling.queue import next_due

    last = NOW - timedelta(days=2)
    hour = timedelta(hours=1)

    def studied(i: int, due: datetime, *, suspended: bool = False) -> CardState:
        return CardState.studied(
            key(i).id,
            "review",
            due,
            last_review=last,
            stability=3.0,
            difficulty=5.0,
            suspended=suspended,
        )

    later = studied(0, NOW + 5 * hour)
    assert next_due([later], NOW) == NOW + 5 * hour
    assert next_due([later, studied(1, NOW + hour, suspended=True)], NOW) == NOW + 5 * hour
    assert next_due([later, CardState.new(key(2), NOW + hour)], NOW) == NOW + 5 * hour
    assert next_due([later, studied(3, NOW)], NOW) == NOW + 5 * hour
    assert next_due([studied(3, NOW), CardState.new(key(2), NOW + hour)], NOW) is None
