"""The review log is the source of truth: replaying it gives the card's state."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.answer import Answer, answered_review, review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.replay import (
    Burial,
    Suspension,
    differences,
    replay,
    replay_all,
    replay_trace,
)
from quizzer.scheduling.review import Review
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings

PARIS = ZoneInfo("Europe/Paris")
START = datetime(2026, 3, 1, 7, tzinfo=UTC)
KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))
OTHER = CardKey("deck/c2", Pair("en", "term", "fr", "term"))
FUZZED = SchedulerSettings()  # fuzz on: the log's due dates carry it


def _history(key: CardKey, settings: SchedulerSettings, seed: int):
    """Answer ``key`` live (mornings and evenings, fuzz from an rng) as the store does."""
    rng = random.Random(seed)
    state = CardState.new(key, START)
    reviews: list[Review] = []
    at = START
    grades: tuple[Grade, ...] = (3, 3, 3, 1, 3, 2, 4, 3)
    for n, grade in enumerate(grades):
        at = max(at, state.due) + timedelta(hours=rng.choice((0, 1, 11, 14)))
        outcome = answer(state, grade, at, settings, rng, tz=PARIS)
        reviews.append(
            answered_review(review_id(key.id, at, n), key.id, grade, at, Answer(), outcome)
        )
        state = outcome.state
    return state, reviews


def test_replay_gives_the_live_state_fuzz_included() -> None:
    live, reviews = _history(KEY, FUZZED, 1)
    got = replay(KEY.id, list(reversed(reviews)), FUZZED, PARIS)
    assert got is not None
    assert differences(live, got) == []
    assert got.to_dict() == live.to_dict()
    assert got.lapses == 1 and got.reps == len(reviews)


def test_replay_all_keeps_cards_apart_and_trace_follows_each_answer() -> None:
    a_state, a_log = _history(KEY, FUZZED, 2)
    b_state, b_log = _history(OTHER, FUZZED, 3)
    states = replay_all(a_log + b_log, FUZZED, PARIS)
    assert set(states) == {KEY.id, OTHER.id}
    assert states[OTHER.id].to_dict() == b_state.to_dict()
    final, trace = replay_trace(KEY.id, a_log + b_log, FUZZED, PARIS)
    assert [r for r, _ in trace] == a_log
    for review, after in trace:
        assert after.stability == pytest.approx(review.stability, rel=1e-12)
        assert after.due == review.due
    assert final is not None and final.to_dict() == a_state.to_dict()


def test_a_wrong_snapshot_is_told_field_by_field() -> None:
    live, reviews = _history(KEY, FUZZED, 4)
    got = replay(KEY.id, reviews, FUZZED, PARIS)
    assert got is not None
    broken = live.copy()
    broken.card.stability = (live.stability or 0) * 1.5
    broken.reps += 1
    found = differences(broken, got)
    assert len(found) == 2
    assert any(f.startswith("stability is") for f in found)
    assert any(f.startswith("reps is") for f in found)


def test_burials_and_suspensions_replay_in_time_order() -> None:
    live, reviews = _history(KEY, FUZZED, 5)
    last = reviews[-1].reviewed_at
    until = last + timedelta(hours=20)
    events = [*reviews, Burial(KEY.id, last + timedelta(minutes=1), until)]
    got = replay(KEY.id, events, FUZZED, PARIS)
    assert got is not None and got.buried_until == until
    assert differences(live, got, flags=False) == []
    assert differences(live, got) == [f"buried_until is None, its log gives {until.isoformat()}"]
    # an answer after the burial ends it; a suspension then a resume leaves it studyable
    events += [
        Suspension(KEY.id, last + timedelta(minutes=2)),
        Suspension(KEY.id, last + timedelta(minutes=3), suspended=False),
    ]
    got = replay(KEY.id, events, FUZZED, PARIS)
    assert got is not None and not got.suspended and not got.leech
    assert replay(KEY.id, events[:-1], FUZZED, PARIS).suspended  # type: ignore[union-attr]


def test_leeches_come_from_the_log() -> None:
    settings = SchedulerSettings(fuzz=False, leech_threshold=2, leech_every=2)
    state = CardState.new(KEY, START)
    log = []
    at = START
    grades: tuple[Grade, ...] = (4, 1, 3, 3, 1, 3)
    for n, grade in enumerate(grades):
        at = max(at, state.due) + timedelta(days=1)
        outcome = answer(state, grade, at, settings, tz=PARIS)
        log.append(answered_review(f"r{n}", KEY.id, grade, at, Answer(), outcome))
        state = outcome.state
    got = replay(KEY.id, log, settings, PARIS)
    assert got is not None and got.leech and got.suspended and got.lapses == 2


def test_settings_of_the_time_are_used() -> None:
    early = SchedulerSettings(fuzz=False)
    w = list(early.parameters)
    w[2] *= 2  # the first stability after Good
    later = SchedulerSettings(fuzz=False, parameters=tuple(w))
    _live, log = _history(KEY, early, 6)
    switch = log[0].reviewed_at + timedelta(seconds=1)

    def by_time(at: datetime) -> SchedulerSettings:
        return early if at < switch else later

    first = replay(KEY.id, log[:1], by_time, PARIS)
    assert first is not None and first.stability == pytest.approx(early.parameters[2])
    assert replay(KEY.id, log[:1], later, PARIS).stability == pytest.approx(w[2])  # type: ignore[union-attr]
    mixed = replay(KEY.id, log, by_time, PARIS)
    all_later = replay(KEY.id, log, later, PARIS)
    assert mixed is not None and all_later is not None
    assert mixed.stability != pytest.approx(all_later.stability)


def test_nothing_to_replay_and_a_damaged_id() -> None:
    assert replay(KEY.id, [], FUZZED, PARIS) is None
    bad = Review(
        id="x", card_id="not a card", reviewed_at=START, grade=3, mode="flip", duration_ms=0
    )
    with pytest.raises(ValueError):
        replay("not a card", [bad], FUZZED, PARIS)
