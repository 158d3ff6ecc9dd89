"""The FSRS step taken when a card is shown gives, at the answer, exactly the full step.

:func:`~quizzer.scheduling.scheduler.prepare` steps each grade when the card shows, and
:func:`~quizzer.scheduling.scheduler.answer` moves the kept card to the answer's moment
instead of stepping FSRS again (issue 12, goal 4). These prove the two agree bit for bit
(due, last review, stability, difficulty, step, FSRS state, the whole new card state,
the logged intervals and the fuzz generator's state after it) over card states, grades,
settings, time zones and answer delays, and that the kept step is used exactly when
nothing it read changed: the same study days since the last review, the same settings.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

import fsrs
from hypothesis import given
from hypothesis import strategies as st

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import Outcome, answer, elapsed_study_days, prepare, preview
from quizzer.scheduling.settings import SchedulerSettings
from tests.strategies import BOUNDED

KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))
NOW = datetime(2026, 3, 28, 21, 30, tzinfo=UTC)  # Berlin's clocks go forward that night
ZONES: list[tzinfo] = [UTC, ZoneInfo("Europe/Berlin"), ZoneInfo("Pacific/Chatham")]

_settings = st.builds(
    SchedulerSettings,
    desired_retention=st.sampled_from([0.8, 0.9, 0.97]),
    learning_steps_s=st.sampled_from([(), (60,), (60, 600), (30, 600, 3600)]),
    relearning_steps_s=st.sampled_from([(), (600,), (600, 3600)]),
    maximum_interval_days=st.sampled_from([7, 365, 36500]),
    fuzz=st.booleans(),
    day_start_hour=st.integers(0, 23),
)


@st.composite
def _states(draw: st.DrawFn) -> CardState:
    """A never-studied card, or one in learning, review or relearning with any memory."""
    phase = draw(st.sampled_from(["new", "learning", "review", "relearning"]))
    if phase == "new":
        return CardState.new(KEY, NOW - timedelta(minutes=draw(st.integers(0, 5000))))
    last = NOW - timedelta(seconds=draw(st.integers(0, 400 * 86400)))
    memory = draw(st.booleans()) or phase == "learning"
    state = CardState.studied(
        KEY.id,
        phase,  # type: ignore[arg-type]
        last + timedelta(seconds=draw(st.integers(60, 100 * 86400))),
        last_review=last,
        stability=draw(st.floats(0.01, 3000)) if memory else None,
        difficulty=draw(st.floats(1, 10)) if memory else None,
        reps=draw(st.integers(1, 40)),
        lapses=draw(st.integers(0, 20)),
    )
    if phase in ("learning", "relearning"):
        state.card.step = draw(st.integers(0, 3))
    return state


def _same(fresh: Outcome, kept: Outcome) -> None:
    a, b = fresh.state.card, kept.state.card
    assert (a.due, a.last_review, a.state, a.step) == (b.due, b.last_review, b.state, b.step)
    # Floats compared by their bits (repr round-trips them exactly).
    assert repr((a.stability, a.difficulty)) == repr((b.stability, b.difficulty))
    assert fresh.state.to_dict() == kept.state.to_dict()
    assert repr(fresh) == repr(kept)


@BOUNDED
@given(
    state=_states(),
    grade=st.sampled_from([1, 2, 3, 4]),
    settings=_settings,
    zone=st.sampled_from(ZONES),
    shown=st.integers(0, 3 * 86400),
    delay=st.integers(0, 2 * 86400),
    seed=st.integers(0, 2**32),
)
def test_the_kept_step_is_the_full_step_bit_for_bit(
    state: CardState,
    grade: int,
    settings: SchedulerSettings,
    zone: tzinfo,
    shown: int,
    delay: int,
    seed: int,
) -> None:
    show_at = NOW + timedelta(seconds=shown)
    answer_at = show_at + timedelta(seconds=delay, microseconds=seed % 1000)
    prepared = prepare(state, show_at, settings, tz=zone)
    fresh_rng, kept_rng = random.Random(seed), random.Random(seed)

    fresh = answer(state, grade, answer_at, settings, fresh_rng, tz=zone)  # type: ignore[arg-type]
    kept = answer(
        state,
        grade,  # type: ignore[arg-type]
        answer_at,
        settings,
        kept_rng,
        tz=zone,
        prepared=prepared,
    )

    _same(fresh, kept)
    assert fresh_rng.getstate() == kept_rng.getstate()  # the same fuzz drawn, in order
    # Used exactly when the study days since the last review are the same at both moments
    # (a day boundary in between: the full step) and the memory state doesn't depend on now.
    last, hour = state.card.last_review, settings.day_start_hour
    days = None if last is None else elapsed_study_days(last, answer_at, zone, hour)
    same_days = last is None or elapsed_study_days(last, show_at, zone, hour) == days
    has_memory = state.card.state is fsrs.State.Learning or (
        state.card.stability is not None and state.card.difficulty is not None
    )
    used = prepared.step(state.card, grade, answer_at, settings, zone) is not None  # type: ignore[arg-type]
    assert used == (same_days and has_memory)


def test_a_review_answered_later_the_same_day_takes_the_kept_step() -> None:
    state = CardState.studied(
        KEY.id, "review", NOW, last_review=NOW - timedelta(days=9), stability=9.0, difficulty=5.0
    )
    settings = SchedulerSettings()
    prepared = prepare(state, NOW, settings)
    later = NOW + timedelta(seconds=12)

    card = prepared.step(state.card, 3, later, settings, UTC)

    assert card is not None and card.last_review == later
    assert card.due - later == prepared.intervals()[3]
    assert prepared.intervals() == preview(state, NOW, settings)


def test_the_kept_step_is_not_taken_for_other_settings_a_new_day_or_a_changed_state() -> None:
    state = CardState.studied(
        KEY.id, "review", NOW, last_review=NOW - timedelta(days=9), stability=9.0, difficulty=5.0
    )
    settings = SchedulerSettings(day_start_hour=0)
    prepared = prepare(state, NOW, settings)  # 21:30 UTC

    assert prepared.step(state.card, 3, NOW, settings, UTC) is not None
    # Equal settings, but not the very ones it was taken with (a settings change).
    assert prepared.step(state.card, 3, NOW, SchedulerSettings(day_start_hour=0), UTC) is None
    assert prepared.step(state.card, 3, NOW, settings, ZoneInfo("Europe/Berlin")) is None
    # After midnight, one more study day has passed.
    assert prepared.step(state.card, 3, NOW + timedelta(hours=3), settings, UTC) is None
    for name, value in (("stability", 9.5), ("last_review", NOW - timedelta(days=8))):
        changed = state.copy()
        setattr(changed.card, name, value)
        assert prepared.step(changed.card, 3, NOW, settings, UTC) is None, name


def test_a_new_card_takes_its_kept_step_on_any_day() -> None:
    state = CardState.new(KEY, NOW)
    settings = SchedulerSettings()
    prepared = prepare(state, NOW, settings)
    tomorrow = NOW + timedelta(days=1)
    later = CardState.new(KEY, tomorrow)  # a new card's state says only when it is due

    card = prepared.step(later.card, 3, tomorrow, settings, UTC)

    assert card is not None
    assert card.to_dict() == answer(later, 3, tomorrow, settings).state.card.to_dict()
