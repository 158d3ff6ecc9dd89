"""Learn mode and markup-like glossary text in typed and learn modes (Pilot, real store)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen
from tests.ui_support import choice, make_app, markup_deck, reviews

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
            _concept, _prompt, answer = screen._texts(screen.card)
            # Every other card a near miss: the diff must show the brackets literally.
            text = answer if n % 2 == 0 else answer + "x"
            await _type(pilot, app, text)
            assert app.is_running
            typed.append(text)
            assert screen.check is not None
            if n % 2 == 0:
                assert screen.check.right, (answer, screen.check)
            elif screen.check.diff:
                shown = str(screen.query_one("#diff").render())
                assert shown.startswith("diff: ") and answer in shown
            answer_shown = str(screen.query_one("#answer").render()).strip()
            assert answer_shown == answer
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
        assert screen.round is not None
        for _ in range(20):
            if not isinstance(app.screen, StudyScreen) or screen.round is None:
                break
            question = screen.question
            assert question is not None
            assert str(screen.query_one("#prompt").render()).strip() == question.prompt
            if question.stage == "choice":
                await pilot.press(str(screen.choices.answer_index + 1))
            else:
                await _type(pilot, app, question.expected)
                assert screen.check.right
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
