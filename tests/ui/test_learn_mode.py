"""Learn mode and markup-like glossary text in typed and learn modes (Pilot, real store)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.widgets import Input

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.review import Review
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen
from quizzer.ui.widgets.script_text import ScriptText
from tests.ui_support import (
    check_of,
    choice,
    choices_of,
    learn_of,
    make_app,
    markup_deck,
    question_of,
    reviews,
    round_of,
    rounds_of,
    session_of,
    texts_of,
)

SIZE = (100, 30)


def _study(app) -> StudyScreen:
    screen = app.screen
    assert isinstance(screen, StudyScreen), type(screen)
    return screen


async def _type(pilot, app, text: str) -> None:
    """Type ``text`` into the focused answer field (set, like a paste) and press Enter."""
    field = app.focused
    assert isinstance(field, Input), type(field)
    field.value = text
    await pilot.press("enter")
    await pilot.pause()


async def test_typed_mode_on_markup_deck_checks_and_shows_literally(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("tricky", "en:definition>en:term", "typed"), decks=[markup_deck()])
    typed: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        for n in range(4):
            _concept, _prompt, answer = texts_of(screen)
            # Every other card a near miss: the diff must show the brackets literally.
            text = answer if n % 2 == 0 else answer + "x"
            await _type(pilot, app, text)
            assert app.is_running
            typed.append(text)
            if n % 2 == 0:
                assert check_of(screen).right, (answer, check_of(screen))
            elif check_of(screen).diff:
                shown = str(screen.query_one("#diff").render())
                assert shown.startswith("diff: ") and answer in shown
            told = screen.query_one("#right-answer")
            if n % 2 == 0:
                assert not told.display or told.has_class("hidden")
            else:
                assert str(told.render()).strip() == f"answer: {answer}"
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
    logged = reviews(db)
    assert [r.typed for r in logged] == typed
    assert "[/]" in {t.removesuffix("x") for t in typed}


async def test_learn_mode_on_markup_deck_runs_a_round(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("tricky", "en:definition>en:term", "learn"), decks=[markup_deck()])
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        for _ in range(20):
            learn = learn_of(screen) if isinstance(app.screen, StudyScreen) else None
            if learn is None or learn.round is None:
                break
            question = question_of(screen)
            prompt = screen.query_one("#prompt", ScriptText)
            assert str(prompt.render_text()).strip() == question.prompt
            if question.stage == "choice":
                await pilot.press(str(choices_of(screen).answer_index + 1))
            else:
                await _type(pilot, app, question.expected)
                assert check_of(screen).right
            await pilot.pause()
            assert app.is_running
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
    logged = reviews(db)
    assert len(logged) == 4
    assert {r.mode for r in logged} == {"learn"}
    assert all(r.correct for r in logged)


async def _answer_choice_right(pilot, screen) -> None:
    assert question_of(screen).stage == "choice"
    await pilot.press(str(choices_of(screen).answer_index + 1))
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def _to_typed_question(pilot, screen) -> None:
    """Answer choice questions right until a typed question is asked."""
    for _ in range(20):
        if question_of(screen).stage == "typed":
            return
        await _answer_choice_right(pilot, screen)
    raise AssertionError("no typed question came")


async def test_learn_typed_near_miss_override_then_undo(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "learn"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        await _to_typed_question(pilot, screen)
        expected = question_of(screen).expected
        near = expected[:-1] + ("x" if expected[-1] != "x" else "y")
        await _type(pilot, app, near)
        assert check_of(screen).can_override and screen.check_action("override", ())
        assert reviews_now(app) == []  # a near miss is asked again: nothing recorded yet
        await pilot.press("r")  # "I was right"
        await pilot.pause()
        assert screen.check_action("override", ()) is False
        assert "Counted as right" in str(screen.query_one("#feedback").render())
        logged = reviews_now(app)
        assert [(r.typed, r.correct, r.overridden) for r in logged] == [(near, True, True)]
        # u takes back the override: its record leaves the store too.
        await pilot.press("u")
        await pilot.pause()
        assert reviews_now(app) == []
        assert "taken back" in app.notices[-1].message
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")  # past the "not saved" warning
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
    assert reviews(db) == []


async def test_learn_bury_and_undo_go_through_the_store(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "learn"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        question = question_of(screen)
        assert question.stage == "choice"
        total = round_of(screen).total
        await pilot.press("b")
        await pilot.pause()
        assert round_of(screen).total == total - 1
        assert question_of(screen).concept != question.concept
        state = app.service.store.card(question.card)
        assert state is not None and state.buried_until is not None
        # u brings it back, in the round and in the store.
        await pilot.press("u")
        await pilot.pause()
        assert round_of(screen).total == total
        assert question_of(screen).concept == question.concept
        state = app.service.store.card(question.card)
        assert state is None or state.buried_until is None
        assert app.notices[-1].message.startswith("Bury taken back")
        # Buried again, and kept: a new run of the app leaves it out of learn mode.
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    again = make_app(db, choice("training-efficiency", "en:definition>en:term", "learn"))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        planned = [
            c.uid for r in [round_of(again.screen).concepts, *rounds_of(again.screen)] for c in r
        ]
        assert question.concept.uid not in planned
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert reviews(db) == []


def reviews_now(app: QuizzerApp) -> list[Review]:
    """The review log of the running app's store."""
    logged: list[Review] = app.service.store.reviews()
    return logged


async def test_learn_quit_mid_round_warns_and_says_what_is_not_saved(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "learn"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        await _to_typed_question(pilot, screen)
        started = len(round_of(screen).in_progress)
        assert started >= 1
        # A typed answer spelled wrong: recorded nothing, the concept comes back.
        await _type(pilot, app, "zzzz qqqq")
        assert check_of(screen).verdict == "wrong"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen, "the first Esc only warns"
        warning = app.notices[-1]
        assert warning.severity == "warning" and "not saved yet" in warning.message
        await pilot.press("escape")
        await pilot.pause()
        summary_screen = app.screen
        assert isinstance(summary_screen, SummaryScreen)
        summary = summary_screen.summary
        answered = summary.studied
        assert answered == round_of(screen).tally.answered and answered > started
        assert summary.correct == answered - 1  # the one wrong typed answer
        assert summary.saved == 0
        assert "Not saved" in str(summary_screen.query_one("#summary-note").render())
        assert summary.seconds > 0
        await pilot.press("enter")
    assert reviews(db) == []


async def test_an_answer_that_makes_a_leech_says_so(tmp_path: Path) -> None:
    """With leech_threshold 1, Again on a card in review (its first lapse) makes it a leech."""

    db = tmp_path / "p.json"
    pair = Pair.parse("en:term>ru:term")
    key = CardKey("quantization/quantization", pair)
    month_ago = datetime.now(UTC) - timedelta(days=40)
    with open_store(db) as store:
        store.set_settings(replace(store.settings, leech_threshold=1, leech_every=1))
        at = month_ago
        for _ in range(3):  # Good at each due time: into review, and due again by now
            store.record(key, 3, at, Answer(mode="flip"))
            state = store.card(key)
            assert state is not None
            at = state.due
        assert at < datetime.now(UTC)
        assert state is not None and state.lapses == 0
    app = make_app(db, choice("quantization", "en:term>ru:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        assert screen.card == key, "the due review comes first"
        await pilot.press("space", "1")  # Again: a lapse
        await pilot.pause()
        messages = [n.message for n in app.notices]
        assert any(
            m.startswith("This card is a leech") and "suspended" in m and "quizzer leeches" in m
            for m in messages
        ), messages
        await pilot.press("q", "enter")
    with open_store(db, read_only=True) as store:
        after = store.card(key)
        assert after is not None and after.leech and after.suspended


async def test_ctrl_z_and_ctrl_b_work_while_typing(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "typed"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        first = screen.card
        await _type(pilot, app, texts_of(screen, first)[2])
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.focused, Input)
        await pilot.press("u")  # a letter of the answer, not undo
        assert app.focused.value == "u" and session_of(screen).done == 1
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert screen.card == first and session_of(screen).done == 0
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert screen.card != first
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert reviews(db) == []


async def test_learn_with_no_new_concepts_says_why(tmp_path: Path) -> None:

    db = tmp_path / "p.json"
    deck = markup_deck()
    pair = Pair.parse("en:definition>en:term")
    with open_store(db) as store:
        for concept in deck.concepts:  # every concept studied once: none is new
            store.record(CardKey(concept.uid, pair), 3, datetime.now(UTC), Answer(mode="flip"))
    app = make_app(db, choice("tricky", "en:definition>en:term", "learn"), decks=[deck])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        reason = str(app.screen.query_one("#summary-reason").render())
        assert reason.startswith("Learn mode teaches new concepts")
        await pilot.press("enter")
    assert len(reviews(db)) == 4
