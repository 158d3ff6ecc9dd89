"""The events of a card's log (``scheduling.replay``): events at the same instant (the
answer first, then the bury), the tolerance below which a kept state agrees with its
replay, and the event values themselves.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.replay import Burial, Suspension, differences, replay
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))
AT = datetime(2026, 3, 1, 7, tzinfo=UTC)
SETTINGS = SchedulerSettings(fuzz=False)


def _review(at: datetime, rid: str = "0001") -> Review:
    return Review(id=rid, card_id=KEY.id, reviewed_at=at, grade=3, mode="flip", duration_ms=0)


def test_a_bury_at_the_instant_of_an_answer_comes_after_it() -> None:
    until = AT + timedelta(hours=20)
    bury = Burial(KEY.id, AT, until)
    # An answer clears a bury; at the same instant the answer comes first, so the bury holds,
    # whichever order the log lists them in.
    orders: list[list[Review | Burial | Suspension]] = [[_review(AT), bury], [bury, _review(AT)]]
    for events in orders:
        state = replay(KEY.id, events, SETTINGS, UTC)
        assert state is not None and state.buried_until == until and state.reps == 1


def test_the_events_are_frozen_slotted_values_in_utc() -> None:
    paris = datetime(2026, 3, 1, 8, tzinfo=UTC).astimezone()
    bury = Burial(KEY.id, paris, paris + timedelta(hours=1))
    assert bury.at.tzinfo == UTC and bury.until.tzinfo == UTC
    suspension = Suspension(KEY.id, paris)
    assert suspension.at.tzinfo == UTC and suspension.suspended is True
    for value in (bury, suspension):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.card_id = "x"  # type: ignore[misc]
        assert not hasattr(value, "__dict__")


def test_a_naive_time_is_refused_naming_the_field() -> None:
    naive = datetime(2026, 3, 1, 7)
    with pytest.raises(ValueError, match=r"^at must be a timezone-aware datetime \(UTC\)$"):
        Burial(KEY.id, naive, AT)
    with pytest.raises(ValueError, match=r"^until must be a timezone-aware datetime \(UTC\)$"):
        Burial(KEY.id, AT, naive)
    with pytest.raises(ValueError, match=r"^at must be a timezone-aware datetime \(UTC\)$"):
        Suspension(KEY.id, naive)


def test_stability_agrees_within_a_millionth_and_no_further() -> None:
    replayed = replay(KEY.id, [_review(AT)], SETTINGS, UTC)
    assert replayed is not None and replayed.stability is not None
    kept = replayed.copy()
    kept.card.stability = replayed.stability * (1 + 0.5e-6)
    assert differences(kept, replayed) == []
    kept.card.stability = replayed.stability * (1 + 1.5e-6)
    assert [d.split(" is ")[0] for d in differences(kept, replayed)] == ["stability"]


def test_bringing_a_card_back_clears_its_leech_mark_and_suspending_keeps_it() -> None:
    settings = SchedulerSettings(fuzz=False, leech_threshold=1, leech_action="flag")
    easy = Review(id="1", card_id=KEY.id, reviewed_at=AT, grade=4, mode="flip", duration_ms=0)
    first = replay(KEY.id, [easy], settings, UTC)
    assert first is not None and first.phase == "review"
    again_at = first.due
    again = Review(
        id="2", card_id=KEY.id, reviewed_at=again_at, grade=1, mode="flip", duration_ms=0
    )
    leech = replay(KEY.id, [easy, again], settings, UTC)
    assert leech is not None and leech.leech and leech.lapses == 1
    later = again_at + timedelta(minutes=1)
    suspended = replay(KEY.id, [easy, again, Suspension(KEY.id, later)], settings, UTC)
    assert suspended is not None and suspended.suspended and suspended.leech is True
    back = replay(
        KEY.id,
        [easy, again, Suspension(KEY.id, later), Suspension(KEY.id, later, suspended=False)],
        settings,
        UTC,
    )
    assert back is not None and not back.suspended and back.leech is False


def test_differences_are_named_with_what_the_log_gives() -> None:
    replayed = replay(KEY.id, [_review(AT)], SETTINGS, UTC)
    assert replayed is not None and replayed.card.step is not None
    kept = replayed.copy()
    kept.card.step = replayed.card.step + 1
    kept.card.stability = None
    assert differences(kept, replayed) == [
        f"learning step is {replayed.card.step + 1}, its log gives {replayed.card.step}",
        f"stability is None, its log gives {replayed.stability:.4f}",
    ]
    kept = replayed.copy()
    kept.reps = 0  # a new card, to its log a card in learning
    assert differences(kept, replayed)[0] == "phase is new, its log gives learning"
    new = replay(KEY.id, [Burial(KEY.id, AT, AT + timedelta(hours=1))], SETTINGS, UTC)
    assert new is not None and new.stability is None
    assert differences(new.copy(), new) == []  # no stability on either side: they agree


@pytest.mark.parametrize(
    ("shift", "differs"),
    [
        (timedelta(microseconds=999), False),
        (timedelta(milliseconds=1), True),
        (timedelta(seconds=0.5), True),
    ],
)
def test_times_agree_within_a_millisecond(shift: timedelta, differs: bool) -> None:
    replayed = replay(KEY.id, [_review(AT)], SETTINGS, UTC)
    assert replayed is not None
    kept = replayed.copy()
    kept.card.due = replayed.due + shift
    assert bool(differences(kept, replayed)) is differs
