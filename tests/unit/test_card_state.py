"""A card's scheduling state (``scheduling.card_state``): the defaults of a state, a state
built from a log's figures (``studied``) for each phase, its checks and its message, the
interval a card is scheduled on, copies (every field, nothing shared), and the stored form
read back.
"""

from __future__ import annotations

import copy
import dataclasses
from datetime import UTC, datetime, timedelta

import fsrs
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState, copy_card

KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def test_a_new_card_has_nothing_set() -> None:
    st = CardState.new(KEY, NOW)
    assert (st.reps, st.lapses, st.leech, st.flagged, st.suspended) == (0, 0, False, False, False)
    assert st.buried_until is None and st.first_review is None
    assert st.is_new and st.phase == "new" and st.due == NOW and st.key == KEY
    assert st.card.card_id == KEY.int_id and st.scheduled_days == 0.0
    assert not hasattr(st, "__dict__")  # slotted: 100k states stay small


@pytest.mark.parametrize(
    ("phase", "state"),
    [
        ("learning", fsrs.State.Learning),
        ("review", fsrs.State.Review),
        ("relearning", fsrs.State.Relearning),
    ],
)
def test_a_studied_state_is_in_its_phase_with_one_answer_by_default(
    phase: str, state: fsrs.State
) -> None:
    st = CardState.studied(KEY.id, phase, NOW + timedelta(days=3), last_review=NOW)  # type: ignore[arg-type]
    assert st.card.state == state and st.phase == phase and st.reps == 1
    assert (st.lapses, st.leech, st.suspended, st.flagged) == (0, False, False, False)
    assert st.card.card_id == KEY.int_id and st.buried_until is None
    assert st.due == NOW + timedelta(days=3) and st.last_review == NOW
    assert st.scheduled_days == (3.0 if phase == "review" else 0.0)


def test_a_studied_state_keeps_the_figures_given() -> None:
    st = CardState.studied(
        KEY.id,
        "review",
        NOW + timedelta(days=10),
        last_review=NOW,
        stability=9.5,
        difficulty=4.25,
        reps=7,
        lapses=2,
        leech=True,
        suspended=True,
        first_review=NOW - timedelta(days=30),
    )
    assert (st.reps, st.lapses, st.leech, st.suspended) == (7, 2, True, True)
    assert (st.stability, st.difficulty) == (9.5, 4.25)
    assert st.first_review == NOW - timedelta(days=30) and st.scheduled_days == 10.0


def test_a_new_phase_has_no_answers_and_a_studied_one_has_some() -> None:
    new = CardState.studied(KEY.id, "new", NOW)
    assert new.reps == 0 and new.phase == "new" and new.card.state == fsrs.State.Learning
    with pytest.raises(ValueError) as caught:
        CardState.studied(KEY.id, "new", NOW, reps=2)
    assert str(caught.value) == f"{KEY.id}: a new card can't have 2 answers"
    with pytest.raises(ValueError) as caught:
        CardState.studied(KEY.id, "review", NOW, reps=0)
    assert str(caught.value) == f"{KEY.id}: a review card can't have 0 answers"
    assert CardState.studied(KEY.id, "review", NOW, reps=1).reps == 1


def test_a_card_id_that_does_not_parse_is_kept_with_fsrs_id_0() -> None:
    st = CardState.studied("not a card", "review", NOW, last_review=NOW)
    assert st.card_id == "not a card" and st.card.card_id == 0


def test_a_copy_is_independent() -> None:
    st = CardState.studied(KEY.id, "review", NOW + timedelta(days=3), last_review=NOW)
    other = st.copy()
    other.card.due = NOW
    other.reps = 5
    assert st.due == NOW + timedelta(days=3) and st.reps == 1


def test_the_stored_form_reads_back_and_fills_what_is_missing() -> None:
    st = CardState.studied(
        KEY.id, "relearning", NOW, last_review=NOW, stability=1.5, difficulty=7.0
    )
    st.flagged = True
    st.buried_until = NOW + timedelta(hours=5)
    st.lapses, st.leech, st.suspended = 2, True, True
    stored = st.to_dict()
    # The stored layout (snapshot, journal, undo stack): these names are the file format.
    assert {k: stored[k] for k in ("reps", "lapses", "leech", "flagged", "suspended")} == {
        "reps": 1,
        "lapses": 2,
        "leech": True,
        "flagged": True,
        "suspended": True,
    }
    back = CardState.from_dict(stored)
    assert (back.lapses, back.leech, back.suspended, back.flagged) == (2, True, True, True)
    assert back.to_dict() == st.to_dict() and back.card.card_id == KEY.int_id
    bare = CardState.from_dict({"card_id": KEY.id, "due": NOW.isoformat()})
    assert bare.card.state == fsrs.State.Learning and bare.reps == 0 and bare.lapses == 0
    assert (bare.leech, bare.flagged, bare.suspended) == (False, False, False)
    assert bare.stability is None and bare.last_review is None and bare.buried_until is None


def _every_field_set() -> CardState:
    """A state whose every field differs from its default (so a dropped field shows)."""
    card = fsrs.Card(
        card_id=KEY.int_id,
        state=fsrs.State.Relearning,
        step=1,
        stability=3.5,
        difficulty=6.25,
        due=NOW + timedelta(days=2),
        last_review=NOW - timedelta(days=1),
    )
    state = CardState(
        card_id=KEY.id,
        card=card,
        reps=7,
        lapses=2,
        leech=True,
        flagged=True,
        suspended=True,
        buried_until=NOW + timedelta(hours=5),
        first_review=NOW - timedelta(days=30),
    )
    defaults = CardState.new(KEY, NOW)
    for field in dataclasses.fields(CardState):
        if field.name != "card_id":
            assert getattr(state, field.name) != getattr(defaults, field.name), field.name
    return state


def test_a_copied_state_has_every_field_and_its_own_card() -> None:
    state = _every_field_set()
    twin = state.copy()

    assert twin == state and twin.to_dict() == state.to_dict()
    assert twin.card is not state.card
    twin.card.stability = 99.0
    twin.lapses = 0
    assert state.card.stability == 3.5 and state.lapses == 2


def test_a_copied_card_has_every_field_of_the_card() -> None:
    card = _every_field_set().card

    copied, generic = copy_card(card), copy.copy(card)

    assert type(copied) is fsrs.Card and copied is not card
    assert vars(copied) == vars(generic) == vars(card)
