"""The study flows without Textual: SessionFlow and LearnFlow on bundled decks and a real store."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.queue import DueQueue
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.services.sessions import start_flow
from quizzer.services.study import StudyService
from quizzer.study.flow import SessionFlow, StudyFlow, card_texts, queue_kinds
from quizzer.study.flow_learn import LearnFlow
from quizzer.study.selection import StudyChoice
from quizzer.study.session import Session
from quizzer.study.session_scheduler import FsrsScheduler
from tests.factories import bundled

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SEC = timedelta(seconds=1)
DECK = "training-efficiency"
RU_EN = Pair("ru", "term", "en", "term")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[StudyService]:
    store = open_store(tmp_path / "p.json", rng=random.Random(7))
    svc = StudyService(store, [bundled(DECK)], seed=7)
    yield svc
    svc.close()


def _flow(service: StudyService, mode: str) -> StudyFlow:
    flow = start_flow(service, StudyChoice(DECK, RU_EN, mode), NOW)
    assert flow.next(NOW)
    return flow


def _expected(flow: StudyFlow) -> str:
    assert flow.card is not None
    return card_texts(bundled(DECK), flow.card)[2]


def _typo(text: str) -> str:
    """``text`` with one letter of its longest word dropped: a near miss."""
    word = max(text.split(), key=len)
    at = text.index(word) + len(word) // 2
    while not text[at].isalpha():
        at += 1
    return text[:at] + text[at + 1 :]


# -- sessions -----------------------------------------------------------------


def test_modes_get_their_flow(service: StudyService) -> None:
    assert isinstance(_flow(service, "flip"), SessionFlow)
    assert isinstance(_flow(service, "typed"), SessionFlow)
    assert isinstance(_flow(service, "learn"), LearnFlow)


def test_flip_grade_is_recorded_and_the_next_card_comes(service: StudyService) -> None:
    flow = _flow(service, "flip")
    assert flow.stage == "flip" and flow.choices is None
    first = flow.card
    left = flow.progress().left
    flow.reveal()
    flow.grade(4, NOW + 3 * SEC)
    assert flow.card == first  # kept until the next card is shown
    progress = flow.progress()
    assert (progress.done, progress.left, progress.new) == (1, left - 1, left - 1)
    assert flow.next(NOW + 4 * SEC)
    assert flow.card != first
    [review] = service.store.reviews()
    assert first is not None and review.card_id == first.id and review.grade == 4


def test_choice_right_is_good_and_wrong_is_again(service: StudyService) -> None:
    flow = _flow(service, "choice")
    choices = flow.choices
    assert choices is not None and len(choices.options) == 4
    assert choices.answer.text == _expected(flow)
    outcome = flow.choose(choices.answer_index, NOW + SEC, 1000)
    assert (outcome.right, outcome.outcome) == (True, "Good")
    assert flow.next(NOW + 2 * SEC)
    choices = flow.choices
    assert choices is not None
    outcome = flow.choose((choices.answer_index + 1) % 4, NOW + 3 * SEC, 1000)
    assert (outcome.right, outcome.outcome) == (False, "Again")
    assert [r.grade for r in service.store.reviews()] == [3, 1]
    assert [r.correct for r in service.store.reviews()] == [True, False]


def test_typed_near_miss_can_be_overridden_once(service: StudyService) -> None:
    flow = _flow(service, "typed")
    assert (flow.check, flow.may_override) == (None, False)
    outcome = flow.type_answer(_typo(_expected(flow)), NOW + SEC, 2000)
    assert outcome.check.verdict == "near" and outcome.can_override
    assert outcome.outcome == "Hard" and flow.check is outcome.check
    assert flow.may_override
    assert flow.override(NOW + 2 * SEC)
    assert (flow.may_override, flow.override(NOW + 3 * SEC)) == (False, False)
    [review] = service.store.reviews()
    assert review.overridden and review.grade == 3 and review.typed == outcome.check.typed


def test_typed_wrong_answer_offers_no_override(service: StudyService) -> None:
    flow = _flow(service, "typed")
    outcome = flow.type_answer("nothing like it", NOW + SEC, 2000)
    assert outcome.check.verdict == "wrong" and not outcome.can_override
    assert outcome.outcome == "Again"
    assert not flow.override(NOW + 2 * SEC)
    assert [r.overridden for r in service.store.reviews()] == [False]


def test_undo_says_what_the_store_took_back(service: StudyService) -> None:
    flow = _flow(service, "flip")
    assert flow.undo() == type(flow.undo())(False, "Nothing to undo.")
    first = flow.card
    flow.reveal()
    flow.grade(2, NOW + SEC)
    assert flow.next(NOW + 2 * SEC)
    undone = flow.undo()
    assert undone.undone and undone.message == "Answer taken back (Hard)."
    assert flow.next(NOW + 3 * SEC) and flow.card == first
    assert service.store.reviews() == []


def test_bury_and_its_undo(service: StudyService) -> None:
    flow = _flow(service, "flip")
    buried = flow.card
    left = flow.progress().left
    assert flow.bury(NOW + SEC) == "Buried until tomorrow."
    assert flow.next(NOW + 2 * SEC) and flow.card != buried
    assert flow.progress().left == left - 1
    assert flow.undo().message == "Bury taken back: the card is here again."
    assert flow.next(NOW + 3 * SEC) and flow.card == buried


def test_session_summary_counts_cards_and_answer_time(service: StudyService) -> None:
    flow = _flow(service, "choice")
    for at in (1, 2):
        choices = flow.choices
        assert choices is not None
        flow.choose(choices.answer_index, NOW + at * 10 * SEC, 1000)
        assert flow.next(NOW + at * 10 * SEC)
    summary = flow.summary(NOW + 30 * SEC, sitting_seconds=999.0)
    assert (summary.studied, summary.correct) == (2, 2)
    assert summary.seconds == 20.0  # answer times, not the sitting's wall time
    assert not summary.questions and summary.saved is None and summary.unsaved == 0
    assert summary.next_due is not None and summary.next_due > NOW


def test_an_empty_session_is_finished_from_the_start() -> None:
    conf = SchedulerSettings()
    scheduler = FsrsScheduler([], {}, conf, UTC, random.Random(1))
    flow = SessionFlow(Session.start(scheduler, NOW), bundled(DECK), "flip", random.Random(1))
    assert flow.finished and not flow.next(NOW)
    assert flow.undo().message == "Nothing to undo."
    assert flow.bury(NOW) is None
    assert flow.undo().message == "Nothing to undo."


def _review_state(key: CardKey, due_days_ago: float) -> CardState:
    """A card in review, learnt 60 days before NOW and due ``due_days_ago`` days before it."""
    conf = SchedulerSettings(fuzz=False)
    first = NOW - timedelta(days=60)
    state = CardState.new(key, first)
    state = answer(state, 3, first, conf).state
    state = answer(state, 3, first + timedelta(minutes=10), conf).state
    shift = NOW - timedelta(days=due_days_ago) - state.due
    state.card.due += shift
    state.card.last_review = (state.card.last_review or first) + shift
    assert state.phase == "review"
    return state


def _counted_flow() -> SessionFlow:
    """A flip session of one due review and 5 new cards, on the in-memory scheduler."""
    cards = [CardKey(c.uid, RU_EN) for c in bundled(DECK)]
    states = {cards[9].id: _review_state(cards[9], 1)}
    conf = SchedulerSettings(new_per_day=5, fuzz=False)
    scheduler = FsrsScheduler(cards, states, conf, UTC, random.Random(3))
    flow = SessionFlow(Session.start(scheduler, NOW), bundled(DECK), "flip", random.Random(3))
    assert flow.next(NOW)
    return flow


def _counts(flow: SessionFlow) -> tuple[int, int, int, int]:
    p = flow.progress()
    return p.done, p.new or 0, p.learning, p.due


def test_session_counts_new_learning_and_due_as_anki_does() -> None:
    """A card in its learning steps is counted once, as learning, not as one more card."""
    flow = _counted_flow()
    assert flow.kinds_known
    assert _counts(flow) == (0, 5, 0, 1)
    assert flow.progress().counts == "0 done · new 5 · learning 0 · due 1"
    flow.reveal()
    flow.grade(1, NOW + 5 * SEC)  # the review lapses: it comes back, relearning
    assert _counts(flow) == (1, 5, 1, 0)
    assert flow.next(NOW + 6 * SEC)
    flow.reveal()
    flow.grade(3, NOW + 9 * SEC)  # a new card, Good: its next step is minutes away
    assert _counts(flow) == (2, 4, 2, 0)
    assert flow.progress().counts == "2 done · new 4 · learning 2 · due 0"
    assert flow.progress().left == 6  # still the six cards, two of them in their steps
    assert flow.undo().undone
    assert _counts(flow) == (1, 5, 1, 0)


def test_session_kinds_given() -> None:
    flow = _counted_flow()
    assert flow.session.current is not None
    cards = [flow.session.current, *flow.session.queue]
    given = SessionFlow(
        flow.session, flow.deck, "flip", random.Random(1), kinds={c.id: "new" for c in cards}
    )
    assert _counts(given) == (0, 6, 0, 0)


def test_queue_kinds_names_each_card_by_its_queue() -> None:
    a, b, c = (CardKey(f"d/{n}", RU_EN) for n in "abc")
    kinds = queue_kinds(DueQueue(learning=(a,), review=(b,), new=(c,)))
    assert kinds == {a.id: "learning", b.id: "review", c.id: "new"}


def test_the_store_flow_counts_a_card_still_in_its_steps_as_learning(
    service: StudyService,
) -> None:
    """A card answered Again earlier is learning when the next session starts, not due."""
    flow = _flow(service, "flip")
    assert isinstance(flow, SessionFlow) and flow.kinds_known
    total = flow.progress().left
    flow.reveal()
    flow.grade(1, NOW + 5 * SEC)  # back in a minute: a learning step
    later = start_flow(service, StudyChoice(DECK, RU_EN, "flip"), NOW + 10 * 60 * SEC)
    assert isinstance(later, SessionFlow)
    p = later.progress()
    assert (p.learning, p.due, p.new) == (1, 0, total - 1), p.counts


class _NoQueue:
    """A scheduler that can't say which of its cards are learning, due or new."""

    def __init__(self, inner: FsrsScheduler) -> None:
        self.inner = inner

    def due(self, now):
        return self.inner.due(now)

    def record(self, card, grade, now, answer):
        return self.inner.record(card, grade, now, answer)

    def bury(self, card, now):
        self.inner.bury(card, now)

    def undo(self):
        self.inner.undo()

    def next_due(self, now):
        return self.inner.next_due(now)


def test_a_session_without_kinds_shows_done_and_left() -> None:
    """A flow over a scheduler without a queue knows no kinds: plain counts."""
    cards = [CardKey(c.uid, RU_EN) for c in bundled(DECK)]
    inner = FsrsScheduler(cards, {}, SchedulerSettings(new_per_day=5), UTC, random.Random(3))
    plain = SessionFlow(
        Session.start(_NoQueue(inner), NOW), bundled(DECK), "flip", random.Random(1)
    )
    assert not plain.kinds_known
    p = plain.progress()
    assert p.new is None and p.counts == f"0 done · {p.left} left"


# -- learn mode -----------------------------------------------------------------


def _learn(service: StudyService) -> LearnFlow:
    flow = _flow(service, "learn")
    assert isinstance(flow, LearnFlow)
    return flow


def _to_typed(flow: LearnFlow, now: datetime) -> None:
    """Answer choice questions right until a typed question is asked."""
    while flow.stage == "choice":
        assert flow.choices is not None
        assert flow.choose(flow.choices.answer_index, now, 1000).outcome == "now type it"
        assert flow.next(now)
    assert flow.stage == "typed" and flow.choices is None


def test_learn_records_a_concept_once_it_is_typed_right(service: StudyService) -> None:
    flow = _learn(service)
    assert flow.stage == "choice" and flow.progress().extra == f"round 1/{flow.round_count}"
    left = flow.progress().left
    _to_typed(flow, NOW + SEC)
    assert service.store.reviews() == []  # choices alone record nothing
    assert flow.unsaved > 0
    card = flow.card
    outcome = flow.type_answer(_expected(flow), NOW + 2 * SEC, 1500)
    assert outcome.check.right and outcome.outcome == "learned"
    [review] = service.store.reviews()
    assert card is not None and review.card_id == card.id and review.mode == "learn"
    assert flow.progress().done == 1 and flow.progress().left == left - 1


def test_learn_undo_takes_the_record_back_from_the_store(service: StudyService) -> None:
    flow = _learn(service)
    _to_typed(flow, NOW + SEC)
    flow.type_answer(_expected(flow), NOW + 2 * SEC, 1500)
    undone = flow.undo()
    assert undone.undone and undone.message == "Answer taken back (its record, Good, too)."
    assert service.store.reviews() == [] and flow.progress().done == 0
    assert flow.undo().message == "Answer taken back."  # the choice before it


def test_learn_bury_leaves_the_round_until_undone(service: StudyService) -> None:
    flow = _learn(service)
    round_ = flow.round
    assert round_ is not None and flow.question is not None
    total, concept = round_.total, flow.question.concept
    assert flow.bury(NOW + SEC) == "Buried until tomorrow: out of this round."
    assert round_.total == total - 1
    assert flow.next(NOW + 2 * SEC) and flow.question.concept != concept
    undone = flow.undo()
    assert undone.message == "Bury taken back: the concept is back in this round."
    assert flow.next(NOW + 3 * SEC) and flow.question.concept == concept


def test_learn_near_miss_override_completes_the_concept(service: StudyService) -> None:
    flow = _learn(service)
    _to_typed(flow, NOW + SEC)
    outcome = flow.type_answer(_typo(_expected(flow)), NOW + 2 * SEC, 1500)
    assert outcome.check.verdict == "near" and outcome.can_override
    assert outcome.outcome == "it comes back soon"
    assert service.store.reviews() == []
    assert flow.override(NOW + 3 * SEC)
    [review] = service.store.reviews()
    assert review.overridden and review.mode == "learn"
    assert not flow.override(NOW + 4 * SEC)


def test_learn_summary_counts_questions_over_the_sitting(service: StudyService) -> None:
    flow = _learn(service)
    _to_typed(flow, NOW + SEC)
    answered = flow.counts()[0]
    flow.type_answer("nothing like it", NOW + 2 * SEC, 1500)
    summary = flow.summary(NOW + 3 * SEC, sitting_seconds=42.0)
    assert summary.questions and summary.seconds == 42.0
    assert summary.studied == answered + 1 and summary.correct == answered
    assert summary.saved == 0 and summary.unsaved == flow.unsaved > 0


def test_learn_with_nothing_to_learn_is_finished() -> None:
    scheduler = FsrsScheduler([], {}, SchedulerSettings(), UTC, random.Random(1))
    flow = LearnFlow([], bundled(DECK).concepts, RU_EN, random.Random(1), scheduler)
    assert flow.finished and not flow.next(NOW) and flow.stage is None
    assert flow.undo().message == "Nothing to undo in this round."
    assert flow.bury(NOW) is None
    with pytest.raises(RuntimeError):
        flow.grade(3, NOW)
