"""Writing to an open store (``progress.writing``) at its edges, on real stores on disk.

The
store tests record, bury and undo in the usual way; here the edges are held on their
own — the answer times the API accepts (to the second), each refused value's message,
undo taking back exactly the last change, the log in time order within a session,
and what suspending and resuming a card leave.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path

import pytest

from quizzer.progress import doctor
from quizzer.progress.outcomes import Bury
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.settings import SchedulerSettings
from tests.progress import store_builder as sb

NOW = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)


class NoOffset(tzinfo):
    """A time zone that does not know its offset (``utcoffset`` is ``None``)."""

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return None

    def dst(self, dt: datetime | None) -> timedelta | None:
        return None

    def tzname(self, dt: datetime | None) -> str | None:
        return None


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "p.json"


@pytest.mark.parametrize(
    "now",
    [
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(8999, 12, 31, 23, 59, 59, tzinfo=UTC),
        datetime(2026, 9, 1, 11, 0, tzinfo=timezone(timedelta(hours=2))),
    ],
)
def test_answer_times_from_1970_to_just_before_9000_are_taken(db: Path, now: datetime) -> None:
    with sb.open_db(db) as store:
        review = store.record(sb.card(1), 3, now)
        assert review.reviewed_at == now and review.reviewed_at.tzinfo == UTC
        assert store.bury(sb.card(2), now).buried_at == now


@pytest.mark.parametrize(
    ("now", "message"),
    [
        (
            datetime(1969, 12, 31, 23, 59, 59, tzinfo=UTC),
            "now must lie between 1970 and 9000, got 1969-12-31T23:59:59+00:00",
        ),
        (
            datetime(9000, 1, 1, tzinfo=UTC),
            "now must lie between 1970 and 9000, got 9000-01-01T00:00:00+00:00",
        ),
        (datetime(2026, 9, 1), "now must be a timezone-aware datetime (UTC)"),
        (datetime(2026, 9, 1, tzinfo=NoOffset()), "now must be a timezone-aware datetime (UTC)"),
        ("2026-09-01T09:00:00+00:00", "now must be a datetime, got str"),
    ],
)
def test_other_answer_times_are_refused_with_what_is_wrong(
    db: Path, now: object, message: str
) -> None:
    with sb.open_db(db) as store:
        with pytest.raises(ValueError) as caught:
            store.record(sb.card(1), 3, now)  # type: ignore[arg-type]
        assert str(caught.value) == message
        with pytest.raises(ValueError) as caught:
            store.bury(sb.card(1), now)  # type: ignore[arg-type]
        assert str(caught.value) == message
        assert store.reviews() == [] and store.undo_depth == 0


@pytest.mark.parametrize("grade", [1, 2, 3, 4])
def test_each_grade_is_taken(db: Path, grade: int) -> None:
    with sb.open_db(db) as store:
        assert store.record(sb.card(1), grade, NOW).grade == grade  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("grade", "shown"), [(0, "0"), (5, "5"), (True, "True"), (3.0, "3.0"), ("3", "'3'")]
)
def test_other_grades_are_refused_naming_the_value(db: Path, grade: object, shown: str) -> None:
    with sb.open_db(db) as store:
        with pytest.raises(ValueError) as caught:
            store.record(sb.card(1), grade, NOW)  # type: ignore[arg-type]
        assert str(caught.value) == f"grade must be the whole number 1, 2, 3 or 4, got {shown}"
        assert store.reviews() == []


def test_an_answer_that_is_not_an_answer_is_refused(db: Path) -> None:
    with sb.open_db(db) as store:
        with pytest.raises(ValueError) as caught:
            store.record(sb.card(1), 3, NOW, "typed")  # type: ignore[arg-type]
        assert str(caught.value) == "answer must be an Answer, got str"
        review = store.record(sb.card(1), 3, NOW, Answer(typed="кот", correct=True))
        assert (review.typed, review.correct) == ("кот", True)


def test_the_outcome_is_kept_as_the_last_one(db: Path) -> None:
    with sb.open_db(db) as store:
        outcome = store.record_outcome(sb.card(1), 3, NOW)
        assert store.last_outcome is outcome
        assert outcome.state.to_dict() == store.card(sb.card(1)).to_dict()  # type: ignore[union-attr]
        assert not outcome.leech and not outcome.suspended


def test_answering_a_suspended_card_does_not_say_the_answer_suspended_it(db: Path) -> None:
    with sb.open_db(db) as store:
        store.set_suspended(sb.card(1), True, NOW)
        outcome = store.record_outcome(sb.card(1), 3, NOW + timedelta(minutes=1))
        assert outcome.state.suspended and not outcome.leech and not outcome.suspended


def test_resuming_a_leech_clears_its_flag_and_suspending_a_new_card_makes_its_state(
    db: Path,
) -> None:
    settings = SchedulerSettings(leech_threshold=1, leech_action="suspend")
    with sb.open_db(db) as store:
        store.set_settings(settings)
        store.record(sb.card(1), 3, NOW)
        store.record(sb.card(1), 3, NOW + timedelta(days=3))
        outcome = store.record_outcome(sb.card(1), 1, NOW + timedelta(days=30))
        assert outcome.leech and outcome.suspended
        resumed = store.set_suspended(sb.card(1), False, NOW + timedelta(days=31))
        assert resumed.suspended is False and resumed.leech is False
        fresh = store.set_suspended(sb.card(2), True, NOW)
        assert fresh.suspended is True and fresh.reps == 0
    with sb.open_db(db) as store:
        assert store.card(sb.card(1)).leech is False  # type: ignore[union-attr]
        assert store.card(sb.card(2)).suspended is True  # type: ignore[union-attr]


def test_undo_takes_back_exactly_the_last_change(db: Path) -> None:
    with sb.open_db(db) as store:
        assert store.undo() is None
        first = store.record(sb.card(1), 3, NOW)
        second = store.record(sb.card(2), 1, NOW + timedelta(minutes=1))
        assert store.reviews() == [first, second]
        bury = store.bury(sb.card(3), NOW + timedelta(minutes=2))
        assert store.undo() == bury and isinstance(bury, Bury)
        assert store.undo() == second
        assert store.reviews() == [first]  # gone from the log in this session too
        assert store.card(sb.card(2)) is None
        assert store.undo() == first
        assert store.undo() is None and store.reviews() == []


def test_undoing_a_bury_of_a_studied_card_restores_its_state(db: Path) -> None:
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, NOW)
        before = store.card(sb.card(1)).to_dict()  # type: ignore[union-attr]
        store.bury(sb.card(1), NOW + timedelta(minutes=1))
        assert store.card(sb.card(1)).buried_until is not None  # type: ignore[union-attr]
        assert isinstance(store.undo(), Bury)
        assert store.card(sb.card(1)).to_dict() == before  # type: ignore[union-attr]
    with sb.open_db(db) as store:  # and so it is replayed from the journal
        assert store.card(sb.card(1)).to_dict() == before  # type: ignore[union-attr]


def test_undo_after_a_compaction_removes_the_answer_from_its_month_file(db: Path) -> None:
    with sb.open_db(db) as store:
        kept = store.record(sb.card(1), 3, NOW)
        undone = store.record(sb.card(2), 3, NOW + timedelta(minutes=1))
    with sb.open_db(db) as store:  # both folded into the month file on close
        assert store.undo() == undone
    with sb.open_db(db) as store:
        assert store.reviews() == [kept] and store.card(sb.card(2)) is None
    assert doctor.check(db).healthy


def test_answers_recorded_out_of_time_order_are_read_in_time_order(db: Path) -> None:
    with sb.open_db(db) as store:
        assert store.reviews() == []  # the log is read (empty) before the answers
        late = store.record(sb.card(1), 3, NOW + timedelta(hours=1))
        early = store.record(sb.card(2), 3, NOW)
        same = store.record(sb.card(3), 3, NOW + timedelta(hours=1))
        assert store.reviews() == [early, late, same]
        last = store.record(sb.card(4), 3, NOW + timedelta(hours=2))
        assert store.reviews() == [early, late, same, last]
        assert store.reviews(sb.card(1)) == [late]


def test_a_settings_change_is_kept(db: Path) -> None:
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, NOW)
        store.set_settings(SchedulerSettings(learning_steps_s=(3600,)))
        assert store.settings.learning_steps_s == (3600,)
    with sb.open_db(db) as store:
        assert store.settings.learning_steps_s == (3600,)


def test_the_slim_state_a_record_writes_is_the_one_of_the_full_state(db: Path) -> None:
    """``slim_of`` (what recording writes) against ``slim_state`` of ``to_dict`` (the rule)."""
    import random

    from quizzer.cards.card import CardKey
    from quizzer.progress import journal
    from quizzer.progress.state import slim_of, slim_state
    from quizzer.scheduling import scheduler
    from quizzer.scheduling.card_state import CardState

    rng = random.Random(4)
    key = CardKey.parse("demo/c1|ru:term>bn:definition")
    st, now, seen = CardState.new(key, NOW), NOW, 0
    for i in range(60):
        st = scheduler.answer(st, rng.choice((1, 1, 2, 3, 4)), now, SchedulerSettings()).state
        now = max(now + timedelta(minutes=1), st.due)
        st.leech, st.flagged, st.suspended = (i % 3 == 0), (i % 4 == 1), (i % 5 == 2)
        st.buried_until = now + timedelta(hours=3) if i % 6 == 3 else None
        assert slim_of(st) == slim_state(st.to_dict())
        assert list(slim_of(st)) == list(slim_state(st.to_dict()))  # the same line, too
        seen |= 1 << st.card.state.value
    assert seen == 0b1110  # learning, review and relearning states were all written
    with sb.open_db(db) as store:
        store.record(key, 1, NOW)
        store.set_suspended(key, True, NOW)
        store.record(key, 3, NOW + timedelta(minutes=1))
        lines = [e for _, e in journal.scan(store.journal_path) if e["op"] == "record"]
    assert lines[-1]["card"]["suspended"] is True and "leech" not in lines[-1]["card"]
