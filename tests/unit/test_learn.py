"""Learn mode: rounds of ~7, choice until right once then typed, misses come back, records."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.study.answers import Verdict
from quizzer.study.learn import LearnRound
from quizzer.study.learn_plan import learn_rounds, new_concepts, plan_rounds
from quizzer.study.learn_record import LearnTally
from quizzer.study.session_scheduler import FsrsScheduler
from tests.factories import bundled, concept

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
EN_RU = Pair("en", "term", "ru", "term")
RU_EN = Pair("ru", "term", "en", "term")


def _deck() -> Deck:
    return bundled("training-efficiency")


def _round(ids: list[str], pair: Pair = EN_RU, seed: int = 1, gap: int = 3) -> LearnRound:
    deck = _deck()
    by_id = {c.id: c for c in deck.concepts}
    concepts = [by_id[i] for i in ids]
    return LearnRound(concepts, deck.concepts, pair, random.Random(seed), retry_gap=gap)


def _right_choice(lr: LearnRound) -> None:
    q = lr.question
    assert q is not None and q.stage == "choice" and q.choices is not None
    assert lr.answer_choice(q.choices.answer_index, NOW, 1000)


def _wrong_choice(lr: LearnRound) -> None:
    q = lr.question
    assert q is not None and q.choices is not None
    wrong = (q.choices.answer_index + 1) % len(q.choices.options)
    assert not lr.answer_choice(wrong, NOW, 1000)


def _type_expected(lr: LearnRound, at: datetime = NOW) -> None:
    q = lr.question
    assert q is not None and q.stage == "typed"
    assert lr.answer_typed(q.expected, at, 2000).correct


def test_plan_rounds_of_about_seven() -> None:
    concepts = _deck().concepts
    assert [len(r) for r in plan_rounds(concepts)] == [6, 5, 5]
    assert [c for r in plan_rounds(concepts) for c in r] == list(concepts)
    quant = bundled("quantization").concepts
    assert [len(r) for r in plan_rounds(quant)] == [7, 7, 6]
    assert [len(r) for r in plan_rounds(concepts[:7])] == [7]
    assert [len(r) for r in plan_rounds(concepts[:8])] == [4, 4]
    assert plan_rounds([]) == ()
    with pytest.raises(ValueError):
        plan_rounds(concepts, 0)


def test_choice_first_then_typed_then_complete() -> None:
    ids = ["model-parallelism", "pipeline-parallelism", "tensor-parallelism"]
    lr = _round(ids)
    assert (lr.total, lr.mastered, lr.complete) == (3, 0, False)
    asked = []
    for _ in range(3):
        q = lr.question
        assert q is not None and q.stage == "choice"
        asked.append(q.concept.id)
        assert q.prompt == q.concept.text("en", "term")
        assert q.expected == q.concept.text("ru", "term")
        assert q.card == CardKey(q.concept.uid, EN_RU)
        _right_choice(lr)
    assert sorted(asked) == sorted(ids)
    assert lr.recognised == 3
    for _ in range(3):
        _type_expected(lr)
    assert lr.complete and lr.question is None and lr.mastered == 3
    assert [r.grade for r in lr.records] == [3, 3, 3]
    assert {r.card.concept_id for r in lr.records} == set(ids)
    assert all(r.duration_ms == 3000 and r.misses == 0 for r in lr.records)


def test_choice_options_are_the_answer_side_and_stay_put() -> None:
    lr = _round(["model-parallelism", "adapters"], seed=5)
    q1, q2 = lr.question, lr.question
    assert q1 is not None and q2 is not None
    assert q1.choices == q2.choices  # asking twice doesn't reshuffle
    assert q1.choices is not None
    ru_terms = {c.text("ru", "term") for c in _deck()}
    assert all(o.text in ru_terms for o in q1.choices.options)
    assert q1.choices.answer.text == "Параллелизм моделей"


def test_a_missed_choice_comes_back_later_in_the_same_round() -> None:
    ids = ["peft", "lora", "adapters", "zero", "mixture-of-experts"]
    lr = _round(ids, gap=3)
    first = lr.question
    assert first is not None
    _wrong_choice(lr)
    order = []
    for _ in range(3):
        q = lr.question
        assert q is not None
        order.append(q.concept.id)
        _right_choice(lr)
    assert first.concept.id not in order
    back = lr.question
    assert back is not None and back.concept.id == first.concept.id
    assert back.stage == "choice"  # still needs one right choice


def test_misses_set_the_recorded_grade() -> None:
    lr = _round(["model-parallelism", "reversible-layers", "curriculum-learning"], gap=10)
    # model-parallelism: one wrong choice; reversible: wrong choice and wrong typing.
    by_id: dict[str, int] = {}
    plan = {"model-parallelism": ["wc"], "reversible-layers": ["wc", "wt"]}
    while not lr.complete:
        q = lr.question
        assert q is not None
        todo = plan.get(q.concept.id, [])
        if q.stage == "choice":
            if "wc" in todo:
                todo.remove("wc")
                _wrong_choice(lr)
            else:
                _right_choice(lr)
        elif "wt" in todo:
            todo.remove("wt")
            check = lr.answer_typed("совсем не то", NOW)
            assert check.verdict is Verdict.WRONG
        else:
            _type_expected(lr)
    for record in lr.records:
        by_id[record.card.concept_id] = record.grade
    assert by_id == {"model-parallelism": 2, "reversible-layers": 1, "curriculum-learning": 3}


def test_typed_answers_use_the_answer_checker() -> None:
    lr = _round(["peft", "lora"], pair=RU_EN)
    _right_choice(lr)
    _right_choice(lr)
    # The acronym and the term without its parenthesis are accepted.
    answers = {"peft": "PEFT", "lora": "low rank adaptation"}
    for _ in range(2):
        q = lr.question
        assert q is not None and q.stage == "typed"
        check = lr.answer_typed(answers[q.concept.id], NOW)
        assert check.correct, check
    assert lr.complete
    assert [r.grade for r in lr.records] == [3, 3]


def test_near_miss_override_completes_the_concept() -> None:
    lr = _round(["tensor-parallelism", "adapters"])
    _right_choice(lr)
    _right_choice(lr)
    q = lr.question
    assert q is not None and q.stage == "typed"
    check = lr.answer_typed(q.expected[:-1], NOW + timedelta(seconds=5), 4000)
    assert (check.verdict, lr.can_override) == (Verdict.NEAR, True)
    record = lr.override()
    assert record.overridden and record.grade == 3 and record.misses == 0
    assert record.card.concept_id == q.concept.id
    assert record.at == NOW + timedelta(seconds=5)
    assert not lr.can_override
    nxt = lr.question
    assert nxt is not None and nxt.concept.id != q.concept.id
    _type_expected(lr)
    assert lr.complete and len(lr.records) == 2
    with pytest.raises(RuntimeError):
        lr.override()


def test_without_override_a_near_miss_is_asked_again() -> None:
    lr = _round(["tensor-parallelism"])
    _right_choice(lr)
    q = lr.question
    assert q is not None
    assert lr.answer_typed(q.expected[:-1], NOW).verdict is Verdict.NEAR
    assert not lr.complete
    assert lr.question is not None and lr.question.stage == "typed"
    _type_expected(lr)
    assert lr.records[0].grade == 2 and lr.records[0].misses == 1


def test_wrong_stage_and_finished_round_are_errors() -> None:
    lr = _round(["adapters"])
    with pytest.raises(RuntimeError, match="choice"):
        lr.answer_typed("Адаптеры", NOW)
    _right_choice(lr)
    with pytest.raises(RuntimeError, match="typed"):
        lr.answer_choice(0, NOW)
    _type_expected(lr)
    with pytest.raises(RuntimeError, match="complete"):
        lr.answer_typed("Адаптеры", NOW)


def test_concepts_missing_a_text_are_left_out() -> None:
    deck = _deck()
    only_en = concept("training-efficiency", "en-only", {"en": ("Thing", "a thing")})
    lr = LearnRound([only_en, deck.concepts[2]], deck.concepts, EN_RU, random.Random(0))
    assert lr.total == 1
    with pytest.raises(ValueError):
        LearnRound([only_en], deck.concepts, EN_RU, random.Random(0))


def test_bengali_and_arabic_rounds() -> None:
    for pair, typed_ok in (
        (Pair("en", "term", "bn", "term"), "মডেল প্যারালেলিজম"),
        (Pair("en", "term", "ar", "term"), "التوازى النموذجى"),  # ya as alif maqsura
    ):
        lr = _round(["model-parallelism"], pair=pair)
        _right_choice(lr)
        assert lr.answer_typed(typed_ok, NOW).correct
        assert lr.complete


def test_records_can_be_recorded_by_the_scheduler() -> None:
    lr = _round(["peft", "lora", "adapters"], seed=3)
    while not lr.complete:
        q = lr.question
        assert q is not None
        if q.stage == "choice":
            _right_choice(lr)
        else:
            _type_expected(lr)
    cards = [r.card for r in lr.records]
    sched = FsrsScheduler(cards, {}, SchedulerSettings(), UTC, random.Random(0))
    for r in lr.records:
        answer = Answer(
            mode="learn",
            duration_ms=r.duration_ms,
            typed=r.typed,
            correct=r.correct,
            overridden=r.overridden,
        )
        review = sched.record(r.card, r.grade, r.at, answer)
        assert review.mode == "learn" and review.phase == "new"
    assert len(sched.reviews) == 3
    assert all(sched.states[c.id].reps == 1 for c in cards)


def test_seeded_rounds_are_reproducible() -> None:
    def run(seed: int) -> list[tuple[str, str, int | None]]:
        lr = _round(["peft", "lora", "adapters", "zero"], seed=seed)
        out: list[tuple[str, str, int | None]] = []
        while not lr.complete:
            q = lr.question
            assert q is not None
            out.append((q.concept.id, q.stage, q.choices.answer_index if q.choices else None))
            if q.stage == "choice":
                _right_choice(lr)
            else:
                _type_expected(lr)
        return out

    assert run(11) == run(11)


def _state(lr: LearnRound) -> tuple[object, ...]:
    q = lr.question
    return (
        None if q is None else (q.concept.uid, q.stage, q.choices),
        lr.total,
        lr.mastered,
        lr.recognised,
        lr.can_override,
        list(lr.records),
        lr.removed,
        lr.tally,
        lr.in_progress,
    )


def test_undo_restores_the_round_exactly_and_replays_the_same() -> None:
    ids = ["peft", "lora", "adapters", "zero"]
    lr = _round(ids, seed=4)
    twin = _round(ids, seed=4)
    assert not lr.can_undo
    with pytest.raises(IndexError):
        lr.undo()
    _right_choice(lr)
    _right_choice(twin)
    before = _state(lr)
    _wrong_choice(lr)
    undone = lr.undo()
    assert undone.action == "choice" and undone.record is None and not undone.store_undo
    assert _state(lr) == before == _state(twin)
    # The rest of the round goes exactly as it would have without the undone answer.
    while not lr.complete:
        assert _state(lr) == _state(twin)
        q = lr.question
        assert q is not None
        for r in (lr, twin):
            if q.stage == "choice":
                _right_choice(r)
            else:
                _type_expected(r)
    assert lr.records == twin.records


def test_undo_of_a_right_typed_answer_returns_its_record() -> None:
    lr = _round(["tensor-parallelism", "adapters"])
    _right_choice(lr)
    _right_choice(lr)
    before = _state(lr)
    q = lr.question
    assert q is not None
    _type_expected(lr)
    assert len(lr.records) == 1
    record = lr.records[0]
    undone = lr.undo()
    assert undone.action == "typed" and undone.record == record and undone.store_undo
    assert undone.card == record.card and undone.concept_uid == q.concept.uid
    assert lr.records == [] and _state(lr) == before
    assert lr.question is not None and lr.question.concept.uid == q.concept.uid


def test_undo_of_an_override_brings_back_the_miss() -> None:
    lr = _round(["tensor-parallelism"])
    _right_choice(lr)
    q = lr.question
    assert q is not None
    lr.answer_typed(q.expected[:-1], NOW)
    after_miss = _state(lr)
    assert lr.can_override
    record = lr.override()
    assert (record.overridden, lr.complete) == (True, True)
    undone = lr.undo()
    assert undone.action == "override" and undone.record == record
    assert _state(lr) == after_miss and lr.can_override and not lr.complete
    # Undo again: the near miss itself goes; the typed question is back, no misses.
    assert lr.undo().record is None
    _type_expected(lr)
    assert lr.records[0].grade == 3 and lr.records[0].misses == 0


def test_bury_and_drop_take_a_concept_out_and_undo_puts_it_back() -> None:
    ids = ["peft", "lora", "adapters"]
    lr = _round(ids, seed=2)
    q = lr.question
    assert q is not None
    before = _state(lr)
    card = lr.bury(q.concept.uid)
    assert card == CardKey(q.concept.uid, EN_RU)
    assert lr.total == 2 and lr.removed == {q.concept.uid: "bury"}
    assert lr.question is not None and lr.question.concept.uid != q.concept.uid
    undone = lr.undo()
    assert undone.action == "bury" and undone.record is None and undone.store_undo
    assert _state(lr) == before
    # drop by plain id, of a concept that is not the current one.
    other = next(i for i in ids if i != q.concept.id)
    lr.drop(other)
    assert lr.total == 2 and list(lr.removed.values()) == ["drop"]
    undone = lr.undo()
    assert undone.action == "drop" and not undone.store_undo
    with pytest.raises(ValueError):
        lr.bury("no-such-concept")
    # Burying all but one: the round completes with that one.
    for i in ids:
        if i != "lora":
            lr.bury(i)
    while not lr.complete:
        nxt = lr.question
        assert nxt is not None and nxt.concept.id == "lora"
        if nxt.stage == "choice":
            _right_choice(lr)
        else:
            _type_expected(lr)
    assert [r.card.concept_id for r in lr.records] == ["lora"]
    with pytest.raises(ValueError, match="learned"):
        lr.bury("lora")


def test_a_markup_like_term_can_be_learned() -> None:
    deck = [
        concept("odd", "slash", {"en": ("[/]", "closing tag"), "ru": ("[/] тег", "тег")}),
        concept("odd", "click", {"en": ("[@click=app.quit]", "x"), "ru": ("()", "y")}),
    ]
    lr = LearnRound(deck, deck, EN_RU, random.Random(0))
    missed: set[str] = set()
    while not lr.complete:
        q = lr.question
        assert q is not None
        if q.stage == "choice":
            _right_choice(lr)
        elif q.concept.id not in missed:
            missed.add(q.concept.id)
            assert lr.answer_typed("[x]", NOW).verdict is Verdict.WRONG
        else:
            _type_expected(lr)
    assert missed == {"click", "slash"}
    assert sorted(r.card.concept_id for r in lr.records) == ["click", "slash"]


def test_near_misses_are_hard_not_again_and_only_they_can_be_overridden() -> None:
    lr = _round(["tensor-parallelism"])
    _right_choice(lr)
    q = lr.question
    assert q is not None
    # A wrong typed answer can't be claimed right.
    wrong = lr.answer_typed("совсем не то", NOW)
    assert (wrong.verdict, lr.can_override) == (Verdict.WRONG, False)
    with pytest.raises(RuntimeError):
        lr.override()
    # Two near misses (a typo, a transliteration) on top: still Hard, never Again.
    assert lr.answer_typed(q.expected[:-1], NOW).verdict is Verdict.NEAR
    assert lr.can_override
    check = lr.answer_typed("tenzornyy parallelizm", NOW)
    assert check.verdict is Verdict.NEAR and "transliteration" in check.notes
    _type_expected(lr)
    record = lr.records[0]
    assert record.misses == 3 and record.grade == 2


def test_two_wrong_answers_make_again() -> None:
    lr = _round(["tensor-parallelism"])
    _wrong_choice(lr)
    _right_choice(lr)
    assert lr.answer_typed("совсем не то", NOW).verdict is Verdict.WRONG
    q = lr.question
    assert q is not None
    assert lr.answer_typed(q.expected[:-1], NOW).verdict is Verdict.NEAR
    lr.override()  # takes back the near miss, not the wrong answers
    assert lr.records[0].grade == 1 and lr.records[0].misses == 2


def test_records_carry_correct_consistent_with_their_grade() -> None:
    # pipeline: clean (Good); tensor: one near miss (Hard); adapters: one wrong
    # then near+override (Hard, overridden); zero: two wrong choices (Again).
    ids = ["pipeline-parallelism", "tensor-parallelism", "adapters", "zero"]
    lr = _round(ids, gap=10)
    plan = {
        "tensor-parallelism": ["near"],
        "adapters": ["wc", "near-override"],
        "zero": ["wc", "wc"],
    }
    while not lr.complete:
        q = lr.question
        assert q is not None
        todo = plan.get(q.concept.id, [])
        if q.stage == "choice":
            if "wc" in todo:
                todo.remove("wc")
                _wrong_choice(lr)
            else:
                _right_choice(lr)
        elif todo and todo[0].startswith("near"):
            step = todo.pop(0)
            assert lr.answer_typed(q.expected[:-1], NOW).verdict is Verdict.NEAR
            if step == "near-override":
                lr.override()
        else:
            _type_expected(lr)
    got = {r.card.concept_id: (r.grade, r.correct, r.overridden) for r in lr.records}
    assert got == {
        "pipeline-parallelism": (3, True, False),
        "tensor-parallelism": (2, True, False),
        "adapters": (2, True, True),
        "zero": (1, False, False),
    }
    assert all(r.correct == (r.grade >= 2) for r in lr.records)


def _in_progress(lr: LearnRound) -> list[str]:
    return [c.id for c in lr.in_progress]


def test_tally_and_in_progress_follow_answers_and_undo() -> None:
    lr = _round(["pipeline-parallelism", "tensor-parallelism", "adapters"], gap=10)
    assert (lr.tally, lr.in_progress) == (LearnTally(), ())
    first = lr.question
    assert first is not None
    _right_choice(lr)  # order now: B C A
    assert (lr.in_progress, lr.tally) == ((first.concept,), LearnTally(1, 1, 0, 0))
    _wrong_choice(lr)  # C A B, B still at choice stage
    assert lr.tally == LearnTally(2, 1, 0, 1)
    _right_choice(lr)  # A B C
    assert len(_in_progress(lr)) == 2
    q = lr.question
    assert q is not None and q.stage == "typed" and q.concept == first.concept
    lr.answer_typed(q.expected[:-1], NOW)
    assert lr.tally == LearnTally(4, 2, 1, 1) and lr.tally.correct == 3
    lr.override()
    assert lr.tally == LearnTally(4, 3, 0, 1)
    assert q.concept.id not in _in_progress(lr) and len(_in_progress(lr)) == 1
    lr.undo()
    assert lr.tally == LearnTally(4, 2, 1, 1) and q.concept.id in _in_progress(lr)
    lr.undo()
    assert lr.tally == LearnTally(3, 2, 0, 1)
    while not lr.complete:
        nxt = lr.question
        assert nxt is not None
        if nxt.stage == "choice":
            _right_choice(lr)
        else:
            _type_expected(lr)
    assert lr.in_progress == ()
    assert lr.tally == LearnTally(7, 6, 0, 1)


def test_learn_draws_only_new_concepts_within_the_daily_limit() -> None:
    deck = _deck()
    cards = [CardKey(c.uid, EN_RU) for c in deck]
    conf = SchedulerSettings(new_per_day=8, fuzz=False)
    first = NOW - timedelta(days=30)
    states = {}
    for card in cards[:3]:  # three concepts studied long ago, due again now
        state = CardState.new(card, first)
        state = answer(state, 3, first, conf).state
        states[card.id] = state
    sched = FsrsScheduler(cards, states, conf, UTC, random.Random(0))
    queue = sched.due_queue(NOW)
    assert set(queue.learning + queue.review) == set(cards[:3])  # due, not new
    rounds = learn_rounds(queue, deck.concepts)
    learned = [c for r in rounds for c in r]
    assert [c.uid for c in learned] == [k.concept_uid for k in queue.new]
    assert len(learned) == 8 and not {c.uid for c in learned} & {k.concept_uid for k in cards[:3]}
    assert [len(r) for r in rounds] == [4, 4]
    # Cards buried during the run are skipped; unknown concepts are ignored.
    skip = {queue.new[0].id}
    assert new_concepts(queue.new, deck.concepts, skip) == tuple(learned[1:])
    assert new_concepts(queue.new, deck.concepts[:0]) == ()


def test_answering_a_choice_unseen_or_out_of_range() -> None:
    lr = _round(["peft", "lora"], seed=9)
    twin = _round(["peft", "lora"], seed=9)
    q = twin.question
    assert q is not None and q.choices is not None
    # Answering without reading the question first draws the same options.
    assert lr.answer_choice(q.choices.answer_index, NOW)
    with pytest.raises(IndexError):
        lr.answer_choice(7, NOW)
    assert lr.tally.answered == 1 and lr.can_undo
    lr.undo()
    assert lr.question == q


def test_a_concept_written_alike_in_both_languages_is_not_learned() -> None:
    """Flash Attention is "Flash Attention" in Russian too: en -> ru would show its answer."""
    lr = _round(["flash-attention", "model-parallelism"])
    assert ([c.id for c in lr.in_progress], lr.complete) == ([], False)
    seen = set()
    while not lr.complete:
        q = lr.question
        assert q is not None
        seen.add(q.concept.id)
        if q.stage == "choice":
            _right_choice(lr)
        else:
            _type_expected(lr)
    assert seen == {"model-parallelism"}
