"""Scheduling rules with fixed clocks: FSRS steps, previews, limits, burying, leeches, fuzz."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import fsrs
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import CardPhase
from quizzer.scheduling.limits import TodayCounts, count_today
from quizzer.scheduling.queue import bury_until, due_queue
from quizzer.scheduling.scheduler import answer, format_interval, preview
from quizzer.scheduling.settings import SchedulerSettings

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
EN_AR = Pair("en", "term", "ar", "term")
DECK = "training-efficiency"
CONCEPTS = [f"{DECK}/c{i:02d}" for i in range(30)]
S = SchedulerSettings(fuzz=False)
NO_LADDER = SchedulerSettings(fuzz=False, ladder_days=0)


def key(i: int, pair: Pair = RU_BN) -> CardKey:
    return CardKey(CONCEPTS[i], pair)


def studied(k: CardKey, grades: list[int], start: datetime, settings: SchedulerSettings = S):
    """Answer ``k`` with ``grades``, each when it is due; returns the final state and time."""
    st = CardState.new(k, start)
    now = start
    for g in grades:
        now = max(now, st.due)
        st = answer(st, g, now, settings).state  # type: ignore[arg-type]
    return st, now


def test_learning_steps_then_review() -> None:
    st = CardState.new(key(0), NOW)
    assert st.card.card_id == key(0).int_id  # explicit id: fsrs never sleeps to invent one
    o1 = answer(st, 3, NOW, S)
    assert o1.phase == "new"
    assert o1.state.due - NOW == timedelta(minutes=10)  # Good on step 1 → step 2 (10m)
    assert o1.state.phase == "learning"
    o2 = answer(o1.state, 3, NOW + timedelta(minutes=10), S)
    assert o2.phase == "learning"
    assert o2.state.phase == "review"
    assert o2.interval_days >= 1
    again = answer(st, 1, NOW, S)
    assert again.state.due - NOW == timedelta(minutes=1)
    assert st.reps == 0  # the input state is left alone


def test_naive_or_non_utc_times() -> None:
    st = CardState.new(key(0), NOW)
    with pytest.raises(ValueError, match="timezone-aware"):
        answer(st, 3, datetime(2026, 3, 10, 12), S)
    dhaka = NOW.astimezone(timezone(timedelta(hours=6)))
    assert answer(st, 3, dhaka, S).state.last_review == NOW  # converted to UTC for fsrs
    with pytest.raises(ValueError, match="grade"):
        answer(st, 5, NOW, S)  # type: ignore[arg-type]


def test_preview_matches_answers() -> None:
    st, _when = studied(key(0), [3, 3, 3], NOW)
    later = st.due + timedelta(days=1)
    shown = preview(st, later, S)
    assert set(shown) == {1, 2, 3, 4}
    for grade in (1, 2, 3, 4):
        got = answer(st, grade, later, S).state.due - later
        assert shown[grade] == got
    assert shown[1] == timedelta(minutes=10)  # relearning step
    assert shown[1] < shown[2] <= shown[3] <= shown[4]
    new = preview(CardState.new(key(1), NOW), NOW, S)
    assert [format_interval(new[g]) for g in (1, 2, 3)] == ["1m", "6m", "10m"]
    assert format_interval(new[4]).endswith("d")


def test_retention_and_max_interval_settings() -> None:
    st, _ = studied(key(0), [3, 3, 3, 3], NOW)
    later = st.due
    low = preview(st, later, SchedulerSettings(fuzz=False, desired_retention=0.8))[3]
    high = preview(st, later, SchedulerSettings(fuzz=False, desired_retention=0.95))[3]
    assert low > high
    capped = SchedulerSettings(fuzz=False, maximum_interval_days=3)
    assert preview(st, later, capped)[4] <= timedelta(days=3)
    steps = SchedulerSettings(fuzz=False, learning_steps_s=(120,), relearning_steps_s=(300,))
    assert preview(CardState.new(key(1), NOW), NOW, steps)[1] == timedelta(minutes=2)


def test_fuzz_uses_the_given_rng() -> None:
    st, _ = studied(key(0), [3, 3, 3, 3], NOW)
    at = st.due
    fz = SchedulerSettings(fuzz=True)
    a = answer(st, 3, at, fz, random.Random(1)).state.due
    b = answer(st, 3, at, fz, random.Random(1)).state.due
    assert a == b
    exact = answer(st, 3, at, fz, None).state.due
    spread = {answer(st, 3, at, fz, random.Random(i)).state.due for i in range(30)}
    assert len(spread) > 1
    assert all(abs((d - exact).days) <= max(1, (exact - at).days // 10 + 1) for d in spread)


def test_leech_marks_and_suspends_after_8_lapses_then_every_4() -> None:
    st, now = studied(key(0), [3, 3], NOW)
    marks = []
    for _lapse in range(1, 17):
        now = max(now, st.due)
        o = answer(st, 1, now, S)  # Again on a review card: a lapse
        assert o.phase == "review"
        st = o.state
        marks.append(o.became_leech)
        # relearn back into review
        while st.card.state != fsrs.State.Review:
            now = max(now, st.due)
            st = answer(st, 3, now, S).state
        st.suspended = False  # the learner keeps going
    assert st.lapses == 16
    assert [i + 1 for i, m in enumerate(marks) if m] == [8, 12, 16]
    assert st.leech


def test_leech_flag_only() -> None:
    flag = SchedulerSettings(fuzz=False, leech_threshold=2, leech_action="flag")
    st, now = studied(key(0), [3, 3], NOW, flag)
    for _ in range(2):
        now = max(now, st.due)
        st = answer(st, 1, now, flag).state
        while st.card.state != fsrs.State.Review:
            now = max(now, st.due)
            st = answer(st, 3, now, flag).state
    assert st.leech and st.flagged and not st.suspended
    susp = SchedulerSettings(fuzz=False, leech_threshold=1)
    st2, _now2 = studied(key(1), [3, 3], NOW, susp)
    st2 = answer(st2, 1, st2.due, susp).state
    assert st2.leech and st2.suspended and st2.lapses == 1
    assert due_queue([key(1)], {key(1).id: st2}, st2.due + timedelta(days=9), UTC, susp).cards == ()


def test_state_round_trip() -> None:
    st, _ = studied(key(0), [3, 1, 3], NOW)
    st.buried_until = NOW + timedelta(days=1)
    st.flagged = True
    back = CardState.from_dict(st.to_dict())
    assert back.to_dict() == st.to_dict()
    assert back.card.card_id == key(0).int_id
    assert back.key == key(0)
    s2 = SchedulerSettings(new_per_day=5, learning_steps_s=(30, 300), leech_action="flag")
    assert SchedulerSettings.from_dict(s2.to_dict()) == s2
    assert SchedulerSettings.from_dict({"unknown": 1}) == SchedulerSettings()
    with pytest.raises(ValueError):
        SchedulerSettings(desired_retention=1.2)


def test_daily_new_limit_and_order() -> None:
    cands = [key(i) for i in range(30)]
    settings = SchedulerSettings(fuzz=False, new_per_day=20)
    q = due_queue(cands, {}, NOW, UTC, settings)
    assert q.new == tuple(cands[:20])  # deck order
    q = due_queue(cands, {}, NOW, UTC, settings, TodayCounts(new=15))
    assert q.new == tuple(cands[:5]) and q.new_left == 5
    assert due_queue(cands, {}, NOW, UTC, settings, TodayCounts(new=25)).new == ()
    shuffled = SchedulerSettings(fuzz=False, new_order="random")
    a = due_queue(cands, {}, NOW, UTC, shuffled).new
    b = due_queue(cands, {}, NOW + timedelta(hours=2), UTC, shuffled).new
    c = due_queue(cands, {}, NOW + timedelta(days=1), UTC, shuffled).new
    assert a == b  # stable within a study day
    assert a != c and set(a) <= set(cands)
    assert a != tuple(cands[:20])


def test_daily_review_limit() -> None:
    settings = SchedulerSettings(fuzz=False, reviews_per_day=3, bury_siblings=False)
    states = {}
    for i in range(6):
        st, _ = studied(key(i), [3, 3], NOW - timedelta(days=30))
        states[key(i).id] = st
    q = due_queue([key(i) for i in range(6)], states, NOW, UTC, settings)
    assert len(q.review) == 3
    assert (
        due_queue(
            [key(i) for i in range(6)], states, NOW, UTC, settings, TodayCounts(review=2)
        ).review
        == q.review[:1]
    )


def test_count_today_uses_the_4am_boundary() -> None:
    tz = timezone(timedelta(hours=6))  # Dhaka: 04:00 local = 22:00 UTC
    answers: list[tuple[str, datetime, CardPhase]] = [
        (key(0).id, datetime(2026, 3, 9, 21, 59, tzinfo=UTC), "new"),  # 03:59 local: yesterday
        (key(1).id, datetime(2026, 3, 9, 22, 0, tzinfo=UTC), "new"),  # 04:00 local: today
        (key(2).id, datetime(2026, 3, 10, 12, 0, tzinfo=UTC), "review"),
        (key(3).id, datetime(2026, 3, 10, 13, 0, tzinfo=UTC), "learning"),
        ("other-deck/x|ru:term>bn:definition", datetime(2026, 3, 10, 13, tzinfo=UTC), "new"),
    ]
    got = count_today(answers, DECK, datetime(2026, 3, 10, 14, 0, tzinfo=UTC), tz, S)
    assert got == TodayCounts(new=1, review=1, learning=1)


def test_review_due_later_today_is_due_now_but_not_tomorrows() -> None:
    st, _ = studied(key(0), [3, 3], NOW - timedelta(days=20))
    st.card.due = datetime(2026, 3, 11, 3, 0, tzinfo=UTC)  # before tomorrow's 4 AM (UTC)
    assert due_queue([key(0)], {key(0).id: st}, NOW, UTC, S).review == (key(0),)
    st.card.due = datetime(2026, 3, 11, 4, 0, tzinfo=UTC)
    assert due_queue([key(0)], {key(0).id: st}, NOW, UTC, S).review == ()


def test_learning_card_waits_for_its_step() -> None:
    o = answer(CardState.new(key(0), NOW), 1, NOW, S)
    q = due_queue([key(0)], {key(0).id: o.state}, NOW + timedelta(seconds=30), UTC, S)
    assert q.cards == () and q.next_learning_due == NOW + timedelta(minutes=1)
    q = due_queue([key(0)], {key(0).id: o.state}, NOW + timedelta(minutes=1), UTC, S)
    assert q.learning == (key(0),)


def test_sibling_burying_until_next_study_day() -> None:
    # Without the direction ladder (which would hold b, a new card of a later direction,
    # until a is known: tests/unit/test_direction_ladder.py), siblings alone.
    a, b, c = key(0, RU_BN), key(0, EN_AR), key(1, RU_BN)
    cands = [a, b, c]
    # Before any answer, one card per concept is offered.
    q = due_queue(cands, {}, NOW, UTC, NO_LADDER)
    assert q.new == (a, c)
    st = answer(CardState.new(a, NOW), 1, NOW, NO_LADDER).state
    states = {a.id: st}
    q = due_queue(cands, states, NOW + timedelta(minutes=2), UTC, NO_LADDER)
    assert q.learning == (a,)  # the answered card keeps its learning steps
    assert b in q.buried and b not in q.cards
    assert q.new == (c,)
    # Still buried at 03:59 the next (calendar) day, back at 04:00.
    assert (
        b
        in due_queue(cands, states, datetime(2026, 3, 11, 3, 59, tzinfo=UTC), UTC, NO_LADDER).buried
    )
    nxt = due_queue(cands, states, datetime(2026, 3, 11, 4, 0, tzinfo=UTC), UTC, NO_LADDER)
    assert nxt.buried == ()
    # A new study day: nothing is buried; the concept offers its due learning card, and its new
    # sibling b waits behind it (one card per concept per day), c is new as before.
    assert nxt.learning == (a,) and nxt.review == () and nxt.new == (c,)
    assert b not in nxt.cards
    # Graduated (Easy) to a review due later that study day: a review, and still b waits.
    graduated = answer(st, 4, NOW + timedelta(minutes=2), NO_LADDER).state
    morning = datetime(2026, 3, 11, 4, 0, tzinfo=UTC)
    later = due_queue(cands, {a.id: graduated}, morning, UTC, NO_LADDER)
    assert later.learning == () and later.review == (a,) and later.new == (c,)
    # Without sibling burying, b is offered beside it.
    unburied = SchedulerSettings(fuzz=False, bury_siblings=False, ladder_days=0)
    assert due_queue(cands, {a.id: graduated}, morning, UTC, unburied).new == (b, c)
    # A card answered today in a pair not being studied buries the concept's cards too.
    other = due_queue([b, c], states, NOW + timedelta(minutes=2), UTC, NO_LADDER)
    assert other.buried == (b,) and other.new == (c,)
    off = SchedulerSettings(fuzz=False, bury_siblings=False, ladder_days=0)
    assert b in due_queue(cands, states, NOW + timedelta(minutes=2), UTC, off).new
    assert bury_until(NOW, UTC, NO_LADDER) == datetime(2026, 3, 11, 4, tzinfo=UTC)


def test_manual_bury_and_suspend() -> None:
    st, _ = studied(key(0), [3, 3], NOW - timedelta(days=30))
    st.buried_until = NOW + timedelta(hours=1)
    assert due_queue([key(0)], {key(0).id: st}, NOW, UTC, S).cards == ()
    assert due_queue([key(0)], {key(0).id: st}, NOW + timedelta(hours=1), UTC, S).review
    st.suspended = True
    assert due_queue([key(0)], {key(0).id: st}, NOW + timedelta(hours=2), UTC, S).cards == ()


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"parameters": (0.2,) * 20}, "21 numbers"),
        ({"parameters": (1000.0, *fsrs.scheduler.DEFAULT_PARAMETERS[1:])}, "bounds"),
        ({"parameters": ("x",) * 21}, "numbers"),
        ({"learning_steps_s": (60, 0)}, "positive"),
        ({"relearning_steps_s": (-600,)}, "positive"),
        ({"learning_steps_s": (1.5,)}, "whole seconds"),
        ({"desired_retention": 1.0}, "below 1"),
        ({"desired_retention": 0.0}, "at least 0.5"),
        ({"day_start_hour": 24}, "0-23"),
        ({"day_start_hour": -1}, "at least 0"),
        ({"new_per_day": -1}, "at least 0"),
        ({"reviews_per_day": 2.5}, "whole number"),
        ({"maximum_interval_days": 0}, "at least 1"),
        ({"fuzz": "yes"}, "true or false"),
        ({"leech_every": 0}, "at least 1"),
        ({"new_order": "oldest"}, "'deck' or 'random'"),
    ],
)
def test_invalid_settings_are_refused_at_construction(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words) as err:
        SchedulerSettings(**changes)
    assert next(iter(changes)).removesuffix("_s") in str(err.value) or "parameters" in str(
        err.value
    )
    # Nor can a stored document smuggle them in.
    with pytest.raises(ValueError):
        SchedulerSettings.from_dict({**SchedulerSettings().to_dict(), **changes})


def test_valid_edge_settings_are_accepted() -> None:
    edge = SchedulerSettings(
        desired_retention=0.5,
        learning_steps_s=(),
        relearning_steps_s=[1],  # type: ignore[arg-type]
        day_start_hour=23,
        new_per_day=0,
        reviews_per_day=0,
    )
    assert edge.relearning_steps_s == (1,) and edge.learning_steps_s == ()
    assert SchedulerSettings.from_dict(edge.to_dict()) == edge


def test_burying_and_due_queue_across_the_spring_forward_in_new_york() -> None:
    # 2026-03-08: New York's clocks jump from 02:00 EST to 03:00 EDT. The study day of March 7
    # starts 04:00 EST (09:00 UTC) and ends 04:00 EDT (08:00 UTC on March 8): 23 hours.
    ny = ZoneInfo("America/New_York")
    a, b, c = key(0), key(0, EN_AR), key(1)
    answered = datetime(2026, 3, 8, 7, 30, tzinfo=UTC)  # 03:30 EDT: still March 7's study day
    assert answered.astimezone(ny).hour == 3
    st = answer(CardState.new(a, answered), 3, answered, S).state
    states = {a.id: st}
    day_end = datetime(2026, 3, 8, 8, 0, tzinfo=UTC)  # 04:00 EDT
    assert bury_until(answered, ny, S) == day_end
    before = due_queue([b, c], states, day_end - timedelta(minutes=1), ny, S)
    assert before.buried == (b,) and before.new == (c,)
    after = due_queue([b, c], states, day_end, ny, S)  # not 09:00 UTC, as a fixed -5 h would say
    assert after.buried == () and after.new == (b, c)
    # A review due at 07:45 UTC belongs to March 7's day; one due at 08:30 UTC to March 8's.
    rev, _ = studied(key(2), [4], datetime(2026, 2, 1, 12, tzinfo=UTC))
    early = CardState.from_dict({**rev.to_dict(), "due": "2026-03-08T07:45:00+00:00"})
    late = CardState.from_dict({**rev.to_dict(), "due": "2026-03-08T08:30:00+00:00"})
    at = datetime(2026, 3, 8, 6, 0, tzinfo=UTC)  # 01:00 EST
    q = due_queue([key(2), key(3)], {key(2).id: early, key(3).id: late}, at, ny, S)
    assert q.review == (key(2),)
    q = due_queue([key(2), key(3)], {key(2).id: early, key(3).id: late}, day_end, ny, S)
    assert q.review == (key(2), key(3))
