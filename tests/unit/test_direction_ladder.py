"""The direction ladder in the due queue: with several directions chosen, a concept's new
card in a later direction waits until its card in each earlier direction is known (stability
at least ``ladder_days``), in the order the directions were picked; what waits is counted, and
siblings held until tomorrow are counted apart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import fsrs

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.queue import QueueFacts, due_queue_of_facts, stability_of
from quizzer.scheduling.settings import SchedulerSettings

FIRST = Pair("en", "term", "bn", "term")
REVERSE = Pair("bn", "term", "en", "term")
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
LADDER = SchedulerSettings(ladder_days=7)


def both(n: int, first: Pair = FIRST, then: Pair = REVERSE) -> list[CardKey]:
    """``n`` concepts, each in ``first`` then ``then`` (concept-major, as the store lists them)."""
    return [CardKey(f"d/c{i}", pair) for i in range(n) for pair in (first, then)]


def known(stability: float | None, days: float = 10) -> QueueFacts:
    """A review card answered 3 days ago, due in ``days`` after that."""
    last = NOW - timedelta(days=3)
    return QueueFacts(False, True, last + timedelta(days=days), last, False, None, stability)


def test_a_later_directions_new_card_waits_for_the_first() -> None:
    cards = both(3)
    q = due_queue_of_facts(cards, {}, NOW, UTC, LADDER)
    assert q.new == tuple(k for k in cards if k.pair == FIRST)
    assert q.ladder == tuple(k for k in cards if k.pair == REVERSE)
    assert q.siblings == ()


def test_it_comes_once_the_first_direction_reaches_ladder_days() -> None:
    cards = both(3)
    facts = {
        CardKey("d/c0", FIRST).id: known(7.0, days=30),  # known: due later, its reverse comes
        CardKey("d/c1", FIRST).id: known(6.9, days=30),  # not yet
        CardKey("d/c2", FIRST).id: known(30.0, days=30),
    }
    q = due_queue_of_facts(cards, facts, NOW, UTC, LADDER)
    assert q.new == (CardKey("d/c0", REVERSE), CardKey("d/c2", REVERSE))
    assert q.ladder == (CardKey("d/c1", REVERSE),)


def test_the_order_is_the_order_picked() -> None:
    # The reverse picked first: it is the first rung, the English→Bengali card waits.
    cards = both(2, REVERSE, FIRST)
    q = due_queue_of_facts(cards, {}, NOW, UTC, LADDER)
    assert {k.pair for k in q.new} == {REVERSE}
    assert {k.pair for k in q.ladder} == {FIRST}


def test_zero_turns_the_ladder_off_and_siblings_wait_for_tomorrow() -> None:
    cards = both(3)
    q = due_queue_of_facts(cards, {}, NOW, UTC, SchedulerSettings(ladder_days=0))
    assert q.ladder == ()
    # One card per concept per day: the reverse of each is held until tomorrow, and said so.
    assert {k.pair for k in q.new} == {FIRST}
    assert q.siblings == tuple(k for k in cards if k.pair == REVERSE)


def test_one_direction_has_no_ladder() -> None:
    cards = [CardKey(f"d/c{i}", REVERSE) for i in range(4)]
    assert due_queue_of_facts(cards, {}, NOW, UTC, LADDER).new == tuple(cards)


def test_an_already_started_later_card_is_not_held_back() -> None:
    cards = both(1)
    learning = QueueFacts(
        False, False, NOW - timedelta(minutes=1), NOW - timedelta(hours=30), False, None
    )
    q = due_queue_of_facts(
        cards,
        {CardKey("d/c0", REVERSE).id: learning},
        NOW,
        UTC,
        SchedulerSettings(bury_siblings=False),
    )
    assert q.learning == (CardKey("d/c0", REVERSE),)
    assert q.new == (CardKey("d/c0", FIRST),)
    assert q.ladder == ()


def test_a_suspended_first_direction_holds_nothing_back() -> None:
    cards = both(1)
    suspended = QueueFacts(True, False, NOW, None, True, None)
    q = due_queue_of_facts(cards, {CardKey("d/c0", FIRST).id: suspended}, NOW, UTC, LADDER)
    assert q.new == (CardKey("d/c0", REVERSE),)


def test_a_third_direction_waits_for_both_before_it() -> None:
    third = Pair("en", "term", "en", "definition")
    cards = [CardKey("d/c0", p) for p in (FIRST, REVERSE, third)]
    facts = {CardKey("d/c0", FIRST).id: known(9.0, days=30)}
    q = due_queue_of_facts(
        cards, facts, NOW, UTC, SchedulerSettings(ladder_days=7, bury_siblings=False)
    )
    assert q.new == (CardKey("d/c0", REVERSE),)
    assert q.ladder == (CardKey("d/c0", third),)


def test_stability_without_the_field_is_read_from_the_interval() -> None:
    # FSRS gives a review card the interval after which its recall falls to the desired
    # retention: at 0.9 the interval is the stability; at 0.8 the stability read back from
    # an interval is the one whose recall, by fsrs itself, is 0.8 at its end.
    assert abs((stability_of(known(None, days=12), SchedulerSettings()) or 0) - 12) < 1e-9
    at_80 = SchedulerSettings(desired_retention=0.8)
    read = stability_of(known(None, days=12), at_80)
    assert read is not None and read < 12
    last = NOW - timedelta(days=3)
    card = fsrs.Card(state=fsrs.State.Review, stability=read, difficulty=5.0, last_review=last)
    recall = at_80.fsrs_scheduler().get_card_retrievability(card, last + timedelta(days=12))
    assert abs(recall - 0.8) < 1e-6
    assert stability_of(known(5.5, days=12), SchedulerSettings()) == 5.5
    assert stability_of(QueueFacts(True, False, NOW, None, False, None), LADDER) is None
