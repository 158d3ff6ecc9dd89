"""The review log entry: its names and modes, defaults, times in UTC, the values it refuses,
and its stored form read back."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone

import pytest

from quizzer.scheduling.grades import GRADE_NAMES, LOG_MODES, MODES
from quizzer.scheduling.review import Review

AT = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
DHAKA = timezone(timedelta(hours=6))


def review(**kw: object) -> Review:
    fields: dict[str, object] = {
        "id": "r1",
        "card_id": "d/c|p",
        "reviewed_at": AT,
        "grade": 3,
        "mode": "flip",
        "duration_ms": 0,
    }
    fields.update(kw)
    return Review(**fields)  # type: ignore[arg-type]


def test_names_and_modes() -> None:
    assert GRADE_NAMES == {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
    assert MODES == ("flip", "choice", "typed", "learn")
    assert LOG_MODES == ("flip", "choice", "typed", "learn", "anki")


def test_defaults_and_frozen() -> None:
    r = review()
    assert (r.phase, r.last_interval_days, r.interval_days) == ("new", 0.0, 0.0)
    assert (r.due, r.stability, r.difficulty, r.typed, r.correct) == (None, None, None, None, None)
    assert r.overridden is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.grade = 1  # type: ignore[misc]
    assert not hasattr(r, "__dict__")


def test_times_become_utc_and_naive_ones_are_refused_by_name() -> None:
    r = review(
        reviewed_at=datetime(2026, 3, 10, 18, 0, tzinfo=DHAKA),
        due=datetime(2026, 3, 11, 6, 0, tzinfo=DHAKA),
    )
    assert r.reviewed_at == AT and r.reviewed_at.tzinfo is UTC
    assert r.due == datetime(2026, 3, 11, 0, 0, tzinfo=UTC) and r.due.tzinfo is UTC
    with pytest.raises(ValueError, match=r"^reviewed_at must be"):
        review(reviewed_at=datetime(2026, 3, 10, 12, 0))
    with pytest.raises(ValueError, match=r"^due must be"):
        review(due=datetime(2026, 3, 10, 12, 0))


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"grade": 0}, "grade must be 1-4, got 0"),
        ({"grade": 5}, "grade must be 1-4, got 5"),
        ({"mode": "quiz"}, "mode must be one of flip, choice, typed, learn, anki, got 'quiz'"),
        ({"duration_ms": True}, "duration_ms must be a whole number, got True"),
        ({"duration_ms": 1.5}, "duration_ms must be a whole number, got 1.5"),
        ({"duration_ms": -1}, "duration_ms can't be negative, got -1"),
    ],
)
def test_bad_values_are_refused(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as err:
        review(**kw)
    assert str(err.value) == message


def test_good_edge_values_are_taken() -> None:
    for grade in (1, 2, 3, 4):
        assert review(grade=grade).grade == grade
    for mode in LOG_MODES:
        assert review(mode=mode).mode == mode
    assert review(duration_ms=0).duration_ms == 0
    assert [review(grade=g).passed for g in (1, 2, 3, 4)] == [False, True, True, True]


def test_dict_form_exactly_and_back() -> None:
    r = review(
        phase="review",
        last_interval_days=2.5,
        interval_days=7.25,
        due=AT + timedelta(days=7),
        stability=7.1,
        difficulty=5.2,
        typed="да",
        correct=False,
        overridden=True,
        mode="typed",
        duration_ms=1200,
    )
    d = r.to_dict()
    assert d == {
        "id": "r1",
        "card_id": "d/c|p",
        "reviewed_at": "2026-03-10T12:00:00+00:00",
        "grade": 3,
        "mode": "typed",
        "duration_ms": 1200,
        "phase": "review",
        "last_interval_days": 2.5,
        "interval_days": 7.25,
        "due": "2026-03-17T12:00:00+00:00",
        "stability": 7.1,
        "difficulty": 5.2,
        "typed": "да",
        "correct": False,
        "overridden": True,
    }
    assert Review.from_dict(d) == r
    assert review().to_dict()["due"] is None


def test_a_minimal_dict_reads_with_defaults() -> None:
    d = {
        "id": "r1",
        "card_id": "d/c|p",
        "reviewed_at": "2026-03-10T12:00:00+00:00",
        "grade": 3,
        "mode": "flip",
        "duration_ms": "5",
    }
    r = Review.from_dict(d)
    assert r == review(duration_ms=5)
    assert r.overridden is False and r.due is None
    assert Review.from_dict({**d, "due": ""}).due is None
