"""The shortcuts that make answering cheap give exactly what the slow, generic code gave.

Recording an answer copies card states and asks for the FSRS scheduler of the store's
settings on every call (issue 12, goal 4); these pin that the fast copy is a full,
independent copy and that the remembered scheduler is always the one of the settings
passed.
"""

from __future__ import annotations

import copy
import dataclasses
from datetime import UTC, datetime, timedelta

import fsrs

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState, copy_card
from quizzer.scheduling.scheduler import answer, preview
from quizzer.scheduling.settings import SchedulerSettings

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
KEY = CardKey("deck/concept", Pair("ru", "term", "bn", "definition"))


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


def test_the_fast_card_copy_is_what_copy_copy_makes() -> None:
    card = _every_field_set().card

    fast, generic = copy_card(card), copy.copy(card)

    assert type(fast) is fsrs.Card and fast is not card
    assert vars(fast) == vars(generic) == vars(card)


def test_answering_with_settings_in_turn_uses_each_ones_own_scheduler() -> None:
    # The scheduler of the last settings is remembered by identity: alternating between
    # two settings must still give each one's own intervals, as a fresh scheduler does.
    keen, relaxed = (
        SchedulerSettings(fuzz=False),
        SchedulerSettings(fuzz=False, desired_retention=0.7),
    )
    state = CardState.new(KEY, NOW)
    for _ in range(3):
        state = answer(state, 3, state.due, keen).state
    at = state.due
    intervals = {}
    for settings in (keen, relaxed, keen, relaxed):
        got = answer(state, 3, at, settings).state.due - at
        fresh, _ = settings.fsrs_scheduler().review_card(state.card, fsrs.Rating.Good, at)
        assert got == fresh.due - at
        assert preview(state, at, settings)[3] == got
        intervals.setdefault(settings.desired_retention, set()).add(got)
    assert len(intervals[0.9]) == len(intervals[0.7]) == 1
    assert intervals[0.9] != intervals[0.7]
