"""One rule for elapsed time: study days with the learner's day start.

Fixed clocks in a real time zone (Europe/Paris, day start 04:00). The scheduler must
count what Anki counts: 21:00 → 08:00 next morning is 1 day, 03:00 → 05:00 the same
night is 1 day, 05:00 → 23:00 the same day is 0 (short-term, FSRS-6's same-day rule).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import fsrs
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer, elapsed_study_days, fsrs_view, preview
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.stats.cardfacts import retrievability
from quizzer.stats.mastery import card_retrievability

PARIS = ZoneInfo("Europe/Paris")
S = SchedulerSettings(fuzz=False)
KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))


def local(day: int, hour: int) -> datetime:
    return datetime(2026, 3, day, hour, tzinfo=PARIS).astimezone(UTC)


CASES = [
    # (first answer, second answer, study days between)
    (local(10, 21), local(11, 8), 1),  # evening, next morning: py-fsrs alone says 0
    (local(11, 3), local(11, 5), 1),  # 03:00 is still the 10th's study day
    (local(11, 5), local(11, 23), 0),  # the same study day: short-term
]


@pytest.mark.parametrize(("first", "second", "days"), CASES)
def test_elapsed_days_are_study_days(first, second, days) -> None:
    assert elapsed_study_days(first, second, PARIS, 4) == days


def _graduated(at: datetime) -> CardState:
    """A card in review, last answered at ``at`` (Easy on a new card graduates it)."""
    state = answer(CardState.new(KEY, at), 4, at, S, tz=PARIS).state
    assert state.phase == "review" and state.last_review == at
    return state


@pytest.mark.parametrize(("first", "second", "days"), CASES)
def test_the_scheduler_counts_study_days(first, second, days) -> None:
    state = _graduated(first)
    got = answer(state, 3, second, S, tz=PARIS).state
    scheduler = S.fsrs_scheduler()
    assert state.stability is not None and state.difficulty is not None
    if days == 0:
        want = scheduler._short_term_stability(stability=state.stability, rating=fsrs.Rating.Good)
    else:
        r = (1 + scheduler._FACTOR * days / state.stability) ** scheduler._DECAY
        want = scheduler._next_stability(
            difficulty=state.difficulty,
            stability=state.stability,
            retrievability=r,
            rating=fsrs.Rating.Good,
        )
    assert got.stability == pytest.approx(want, rel=1e-12)
    assert got.last_review == second  # the true moment is kept
    assert got.due - second == timedelta(days=round(got.scheduled_days))


def test_evening_then_morning_is_a_day_not_a_same_day_step() -> None:
    state = _graduated(local(10, 21))
    by_days = answer(state, 3, local(11, 8), S, tz=PARIS).state
    same_day = answer(state, 3, local(10, 23), S, tz=PARIS).state
    assert by_days.stability != pytest.approx(same_day.stability)
    # py-fsrs given the wall clock alone would treat 11 hours as "the same day"
    raw, _ = S.fsrs_scheduler().review_card(state.card, fsrs.Rating.Good, local(11, 8))
    assert raw.stability == pytest.approx(same_day.stability)


def test_the_view_py_fsrs_gets_leaves_the_card_alone() -> None:
    state = _graduated(local(10, 21))
    view = fsrs_view(state.card, local(12, 8), PARIS, 4)
    assert view.last_review is not None
    assert (local(12, 8) - view.last_review).days == 2
    assert state.card.last_review == local(10, 21)
    assert (
        fsrs_view(CardState.new(KEY, local(10, 9)).card, local(10, 9), PARIS, 4).last_review is None
    )


def test_day_start_hour_of_the_settings_decides() -> None:
    state = _graduated(local(11, 3))
    late_start = SchedulerSettings(fuzz=False, day_start_hour=6)
    # with the day starting at 06:00, 03:00 and 05:00 are the same study day
    assert elapsed_study_days(local(11, 3), local(11, 5), PARIS, 6) == 0
    a = answer(state, 3, local(11, 5), S, tz=PARIS).state
    b = answer(state, 3, local(11, 5), late_start, tz=PARIS).state
    assert a.stability != pytest.approx(b.stability)


def test_preview_uses_the_same_rule() -> None:
    state = _graduated(local(10, 21))
    later = local(14, 8)
    shown = preview(state, later, S, tz=PARIS)
    for grade in (1, 2, 3, 4):
        got = answer(state, grade, later, S, tz=PARIS).state
        assert shown[grade] == got.due - later


@pytest.mark.parametrize(("first", "second", "days"), CASES)
def test_statistics_count_recall_in_study_days(first, second, days) -> None:
    state = _graduated(first)
    assert state.stability is not None
    got = card_retrievability(state, second, tz=PARIS, day_start_hour=4)
    assert got == pytest.approx(retrievability(state.stability, days))
    view = fsrs_view(state.card, second, PARIS, 4)
    assert got == pytest.approx(S.fsrs_scheduler().get_card_retrievability(view, second))
