"""Hard is not a lapse: a review card answered Hard keeps its lapse count, in its state, in
the state replayed from the log and in every statistic; only Again in review is a lapse."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.answer import Answer, answered_review, review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.replay import replay
from quizzer.scheduling.review import Review
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.stats.hardest import hardest_concepts
from quizzer.stats.tally import tally_of

KEY = CardKey("deck/c1", Pair("en", "term", "fr", "term"))
START = datetime(2026, 3, 1, 9, tzinfo=UTC)
SETTINGS = SchedulerSettings(fuzz=False, leech_threshold=1)


def _answered(grades: tuple[Grade, ...]) -> tuple[CardState, list[Review]]:
    """``KEY`` answered ``grades`` in turn, each when it is due; its state and its log."""
    state = CardState.new(KEY, START)
    log: list[Review] = []
    for n, grade in enumerate(grades):
        at = max(state.due, START) + timedelta(minutes=1)
        outcome = answer(state, grade, at, SETTINGS)
        log.append(answered_review(review_id(KEY.id, at, n), KEY.id, grade, at, Answer(), outcome))
        state = outcome.state
    return state, log


def test_hard_on_a_review_card_is_no_lapse() -> None:
    graduated, _ = _answered((3, 3, 3))
    assert graduated.phase == "review"

    state, log = _answered((3, 3, 3, 2))

    assert log[-1].phase == "review" and log[-1].grade == 2
    assert state.phase == "review"  # not sent to relearning
    assert (state.lapses, state.leech, state.suspended) == (0, False, False)
    replayed = replay(KEY.id, log, SETTINGS, UTC)
    assert replayed is not None and replayed.lapses == 0
    totals = tally_of(log, UTC, 4).deck().cards[KEY.id]
    assert (totals.lapses, totals.again, totals.passed) == (0, 0, 4)
    assert hardest_concepts(log) == ()


def test_again_on_a_review_card_is_a_lapse() -> None:
    state, log = _answered((3, 3, 3, 1))

    assert log[-1].phase == "review" and log[-1].grade == 1
    assert state.phase == "relearning"
    assert state.lapses == 1 and state.leech  # the threshold here is one lapse
    replayed = replay(KEY.id, log, SETTINGS, UTC)
    assert replayed is not None and replayed.lapses == 1
    totals = tally_of(log, UTC, 4).deck().cards[KEY.id]
    assert (totals.lapses, totals.again) == (1, 1)
    [hardest] = hardest_concepts(log)
    assert (hardest.concept_uid, hardest.lapses) == ("deck/c1", 1)
