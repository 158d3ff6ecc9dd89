"""Study sessions on real FSRS scheduling: queue order, returning misses, undo, summary."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.answer import review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.study.session import LEARN_AHEAD, MAX_ANSWER_MS, Session
from quizzer.study.session_scheduler import FsrsScheduler, Scheduler
from tests.factories import bundled

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
PAIR = Pair("en", "term", "ru", "term")
SEC = timedelta(seconds=1)


def _cards() -> list[CardKey]:
    return [CardKey(c.uid, PAIR) for c in bundled("training-efficiency")]


def _scheduler(states: dict[str, CardState] | None = None, **settings: object) -> FsrsScheduler:
    conf = SchedulerSettings(**{"new_per_day": 5, **settings})  # type: ignore[arg-type]
    return FsrsScheduler(_cards(), states or {}, conf, UTC, random.Random(7))


def _review_state(key: CardKey, due_days_ago: float) -> CardState:
    """A card in review, learnt a while back and due ``due_days_ago`` days before NOW."""
    conf = SchedulerSettings(fuzz=False)
    first = NOW - timedelta(days=60)
    state = CardState.new(key, first)
    state = answer(state, 3, first, conf).state
    state = answer(state, 3, first + timedelta(minutes=10), conf).state
    assert state.phase == "review"
    shift = NOW - timedelta(days=due_days_ago) - state.due
    state.card.due += shift
    state.card.last_review = (state.card.last_review or first) + shift
    return state


def test_fsrs_scheduler_satisfies_the_protocol() -> None:
    sched: Scheduler = _scheduler()
    assert list(sched.due(NOW))


def test_start_takes_due_reviews_first_then_new_up_to_the_limit() -> None:
    cards = _cards()
    states = {cards[9].id: _review_state(cards[9], 1), cards[12].id: _review_state(cards[12], 3)}
    session = Session.start(_scheduler(states), NOW, "flip")
    # Reviews, most overdue first, then 5 new cards in deck order.
    assert session.current == cards[12]
    assert session.queue == [cards[9], *cards[:5]]
    assert session.left == 7
    assert session.done == 0
    assert not session.finished


def test_good_on_a_new_card_brings_it_back_after_its_learning_step() -> None:
    session = Session.start(_scheduler(), NOW)
    first = session.current
    assert first is not None
    review = session.answer(3, NOW + 5 * SEC)
    assert review.phase == "new"
    assert review.due == NOW + 5 * SEC + timedelta(minutes=10)
    assert session.current != first
    assert session.left == 5  # 4 new in the queue + the returning one
    # Not due yet: the other new cards come first...
    seen = []
    t = NOW + 10 * SEC
    for _ in range(4):
        seen.append(session.current)
        session.answer(3, t)
        t += 10 * SEC
    assert first not in seen
    # ...then it returns early (learn-ahead), as nothing else is left.
    assert session.current == first
    graduated = session.answer(3, t)
    assert graduated.phase == "learning"
    assert graduated.interval_days >= 1


def test_a_due_returning_card_jumps_the_queue() -> None:
    session = Session.start(_scheduler(), NOW)
    missed = session.current
    session.answer(1, NOW)  # Again: back in 1 minute
    assert session.current != missed
    session.answer(3, NOW + 30 * SEC)
    assert session.current != missed  # still 30 s early, queue first
    session.answer(3, NOW + 61 * SEC)
    assert session.current == missed  # due now: before the remaining new cards


def test_a_lapsed_review_comes_back_in_the_same_session() -> None:
    cards = _cards()
    states = {cards[6].id: _review_state(cards[6], 0)}
    session = Session.start(_scheduler(states, new_per_day=1), NOW)
    assert session.current == cards[6]
    lapse = session.answer(1, NOW + 8 * SEC)
    assert lapse.phase == "review"
    assert lapse.due is not None and lapse.due - lapse.reviewed_at == timedelta(minutes=10)
    assert session.current == cards[0]  # the new card
    session.answer(4, NOW + 20 * SEC)  # Easy: straight to review, days away
    assert session.current == cards[6]
    back = session.answer(3, NOW + 11 * 60 * SEC)
    assert back.phase == "relearning"
    assert session.finished
    assert session.left == 0


def test_cards_due_beyond_learn_ahead_do_not_return() -> None:
    session = Session.start(_scheduler(new_per_day=1), NOW)
    review = session.answer(4, NOW)
    assert review.due is not None and review.due - NOW > LEARN_AHEAD
    assert session.finished


def test_reveal_then_answer_resets_reveal() -> None:
    session = Session.start(_scheduler(), NOW)
    revealed = [session.revealed]
    session.reveal()
    revealed.append(session.revealed)
    session.answer(3, NOW + SEC)
    revealed.append(session.revealed)
    assert revealed == [False, True, False]


def test_durations_come_from_show_and_are_capped() -> None:
    session = Session.start(_scheduler(), NOW)
    session.show(NOW + 2 * SEC)
    assert session.answer(3, NOW + 7 * SEC).duration_ms == 5000
    # The next card's timer starts at the previous answer unless show() says otherwise.
    assert session.answer(3, NOW + 10 * SEC).duration_ms == 3000
    assert session.answer(3, NOW + 10 * 60 * SEC).duration_ms == MAX_ANSWER_MS


def test_skip_moves_the_card_back_without_recording() -> None:
    sched = _scheduler()
    session = Session.start(sched, NOW)
    first = session.current
    session.skip(NOW + SEC)
    assert session.current != first
    assert session.queue[-1] == first
    assert sched.reviews == [] and session.done == 0
    assert session.left == 5


def test_bury_hides_the_card_until_the_next_day() -> None:
    sched = _scheduler()
    session = Session.start(sched, NOW)
    buried = session.current
    assert buried is not None
    session.bury(NOW + SEC)
    assert session.left == 4
    assert buried not in session.queue and session.current != buried
    state = sched.states[buried.id]
    assert state.buried_until == datetime(2026, 3, 3, 4, 0, tzinfo=UTC)  # day starts at 4:00
    assert buried not in sched.due(NOW + timedelta(hours=1))
    assert buried in sched.due(NOW + timedelta(days=1))


def test_undo_an_answer_restores_queue_state_and_log() -> None:
    sched = _scheduler()
    session = Session.start(sched, NOW)
    first = session.current
    assert first is not None
    session.reveal()
    session.answer(1, NOW + 4 * SEC)
    assert sched.states[first.id].reps == 1
    assert (session.done, len(session.later), session.can_undo) == (1, 1, True)
    back = session.undo()
    assert back == first and session.current == first
    assert session.revealed  # shown again as it was when answered
    assert session.done == 0 and session.later == [] and sched.reviews == []
    assert first.id not in sched.states  # new again
    assert (session.left, session.can_undo) == (5, False)
    with pytest.raises(IndexError):
        session.undo()


def test_undo_a_bury_and_a_skip() -> None:
    sched = _scheduler()
    session = Session.start(sched, NOW)
    first = session.current
    assert first is not None
    session.bury(NOW)
    assert session.undo() == first
    assert first.id not in sched.states
    assert first in sched.due(NOW)
    session.skip(NOW)
    assert session.undo() == first
    assert session.queue[-1] != first


def test_undo_the_middle_of_several_answers_keeps_earlier_ones() -> None:
    sched = _scheduler()
    session = Session.start(sched, NOW)
    a = session.answer(3, NOW + SEC)
    b = session.answer(2, NOW + 2 * SEC)
    session.undo()
    assert sched.reviews == [a]
    assert session.reviews == [a]
    assert b.card_id not in sched.states
    again = session.answer(4, NOW + 3 * SEC)
    assert again.card_id == b.card_id and again.grade == 4


def test_summary_counts_correct_time_and_next_due() -> None:
    sched = _scheduler(new_per_day=3)
    session = Session.start(sched, NOW, "typed")
    session.answer(3, NOW + 4 * SEC, typed="PEFT", correct=True)
    session.answer(1, NOW + 10 * SEC, typed="x", correct=False)
    session.answer(3, NOW + 16 * SEC, typed="Адаптеры", correct=False, overridden=True)
    session.answer(4, NOW + 90 * SEC)  # the missed card, back early; flip-style answer
    summary = session.summary(NOW + 100 * SEC)
    assert summary.cards_studied == 3
    assert summary.answers == 4
    assert summary.correct == 3
    assert summary.correct_pct == pytest.approx(75.0)
    assert summary.time_spent == timedelta(seconds=4 + 6 + 6 + 60)  # the last one capped
    # The first card is due 10 minutes after its answer; the rest later.
    assert summary.next_due == NOW + 4 * SEC + timedelta(minutes=10)
    assert [r.mode for r in sched.reviews] == ["typed"] * 4
    assert sched.reviews[2].overridden


def test_summary_before_any_answer() -> None:
    session = Session.start(_scheduler(), NOW)
    summary = session.summary(NOW)
    assert summary.answers == 0 and summary.correct_pct is None
    assert summary.next_due is None
    assert summary.time_spent == timedelta(0)


def test_whole_session_until_finished() -> None:
    sched = _scheduler(new_per_day=5)
    session = Session.start(sched, NOW)
    t = NOW
    steps = 0
    while not session.finished:
        t += 20 * SEC
        session.answer(3, t)
        steps += 1
        assert session.done + session.left >= steps
        assert steps < 50
    # Each new card: Good (10 min step), then Good again to graduate.
    assert steps == 10
    assert all(s.phase == "review" for s in sched.states.values())
    assert session.summary(t).correct_pct == 100.0


def test_acting_on_a_finished_session_is_an_error() -> None:
    session = Session.start(_scheduler(new_per_day=0), NOW)
    assert session.finished and session.left == 0
    for action in (session.reveal, lambda: session.answer(3, NOW), lambda: session.bury(NOW)):
        with pytest.raises(RuntimeError):
            action()


def test_review_ids_are_deterministic_and_distinct() -> None:
    assert review_id("d/c|en:term>ru:term", NOW) == review_id("d/c|en:term>ru:term", NOW)
    assert review_id("d/c|en:term>ru:term", NOW) != review_id("d/c|en:term>ru:term", NOW, 1)
    session = Session.start(_scheduler(), NOW)
    ids = {session.answer(3, NOW).id for _ in range(5)}
    assert len(ids) == 5


def test_override_records_the_last_answer_again_as_right() -> None:
    sched = _scheduler()
    session = Session.start(sched, NOW, mode="typed")
    first = session.current
    assert first is not None
    session.answer(2, NOW + 4 * SEC, typed="almost", correct=True)
    review = session.override(3, NOW + 6 * SEC)
    assert (review.card_id, review.grade, review.typed) == (first.id, 3, "almost")
    assert review.correct and review.overridden
    assert [r.grade for r in sched.reviews] == [3]  # the first answer was taken back
    assert session.done == 1
    with pytest.raises(ValueError, match="already overridden"):
        session.override(3, NOW + 7 * SEC)


def test_override_needs_an_answer_to_override() -> None:
    session = Session.start(_scheduler(), NOW)
    with pytest.raises(ValueError, match="no answer"):
        session.override(3, NOW)
    session.skip(NOW)
    with pytest.raises(ValueError, match="no answer"):
        session.override(3, NOW)
