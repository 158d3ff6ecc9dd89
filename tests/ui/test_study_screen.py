"""The real app, driven by Pilot through every mode against a real store on disk."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Button, Input, OptionList

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.errors import StoreError
from quizzer.library.decks import find_deck
from quizzer.paths import machine_file
from quizzer.progress import open_store
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.services.study import StudyService
from quizzer.study import answers
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.stats import StatsScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SessionSummary, SummaryScreen
from quizzer.ui.textshape import cells
from quizzer.ui.widgets.answer_diff import NOTE_TEXT as _NOTE_TEXT
from quizzer.ui.widgets.card_view import CardView
from quizzer.ui.widgets.choice_list import ChoiceList
from quizzer.ui.widgets.script_text import ScriptText
from tests.factories import concept
from tests.ui_support import (
    bundled_decks,
    card_of,
    check_of,
    choice,
    choices_of,
    make_app,
    markup_deck,
    question_of,
    reviews,
    round_of,
    session_of,
    texts_of,
)

SIZE = (100, 30)


def _study(app: QuizzerApp) -> StudyScreen:
    screen = app.screen
    assert isinstance(screen, StudyScreen), type(screen)
    return screen


def _field(app: QuizzerApp) -> Input:
    """The answer field, which has the focus while a typed card waits for its answer."""
    field = app.focused
    assert isinstance(field, Input), field
    return field


def _summary(app: QuizzerApp) -> SessionSummary:
    screen = app.screen
    assert isinstance(screen, SummaryScreen), type(screen)
    return screen.summary


async def test_flip_mode_records_each_grade(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:term>ru:term", "flip"))
    shown: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        for grade in ("3", "4", "1", "2", "3"):
            screen = _study(app)
            shown.append(card_of(screen).id)
            assert not screen.query_one(CardView).revealed
            await pilot.press(grade)  # grading before revealing does nothing
            assert session_of(screen).done == len(shown) - 1
            await pilot.press("space")
            assert screen.query_one(CardView).revealed
            label = str(screen.query_one("#grade-3", Button).label)
            assert "Good · " in label
            await pilot.press(grade)
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert app.screen.summary.studied == 5
        assert app.screen.summary.correct == 4
        await pilot.press("enter")
    logged = reviews(db)
    assert [r.grade for r in logged] == [3, 4, 1, 2, 3]
    assert [r.card_id for r in logged] == shown
    assert {r.mode for r in logged} == {"flip"}


async def test_flip_grade_buttons_work_with_the_mouse(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>fr:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.click("#grade-4")
        await pilot.pause()
        assert session_of(_study(app)).done == 1
        await pilot.press("q", "enter")
    assert [r.grade for r in reviews(db)] == [4]


async def test_choice_mode_right_and_wrong(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "choice"))
    expected: list[tuple[bool, int]] = []
    async with app.run_test(size=SIZE) as pilot:
        for n in range(4):
            screen = _study(app)
            choices = choices_of(screen)
            assert choices is not None and len(choices.options) == 4
            texts = [o.text for o in choices.options]
            assert len(set(texts)) == 4
            right = n % 2 == 0
            index = choices.answer_index if right else (choices.answer_index + 1) % 4
            if n == 3:
                # arrows and Enter instead of a number key
                for _ in range(index):
                    await pilot.press("down")
                await pilot.press("enter")
            else:
                await pilot.press(str(index + 1))
            await pilot.pause()
            assert screen.phase == "feedback"
            expected.append((right, 3 if right else 1))
            await pilot.press("enter")  # continue
            await pilot.pause()
        await pilot.press("q", "enter")
    logged = reviews(db)
    assert [(r.correct, r.grade) for r in logged] == expected
    assert {r.mode for r in logged} == {"choice"}


async def test_choice_mode_click(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>ar:term", "choice"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        index = choices_of(_study(app)).answer_index
        await pilot.click(f"#choice-{index + 1}")
        await pilot.pause()
        await pilot.click("#continue")
        await pilot.pause()
        await pilot.press("q", "enter")
    assert [(r.correct, r.grade) for r in reviews(db)] == [(True, 3)]


async def test_typed_mode_right_near_override_and_wrong(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "typed"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        _concept, _prompt, answer = texts_of(screen)
        await pilot.press(*answer, "enter")
        await pilot.pause()
        assert check_of(screen).correct
        await pilot.press("enter")
        await pilot.pause()

        # A near miss: one letter wrong; then "I was right" with r.
        _concept, _prompt, answer = texts_of(screen)
        near = answer[:-1] + ("x" if answer[-1] != "x" else "y")
        await pilot.press(*near, "enter")
        await pilot.pause()
        assert check_of(screen).verdict == "near"
        assert str(screen.query_one("#diff").render()).startswith("diff: ")
        assert screen.check_action("override", ()) is True
        await pilot.press("r")
        await pilot.pause()
        # Once used, "I was right" is gone from the footer and does nothing again.
        assert screen.check_action("override", ()) is False
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()

        # Something unrelated: wrong, Again.
        await pilot.press(*"zzzz qqqq", "enter")
        await pilot.pause()
        assert check_of(screen).verdict == "wrong"
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
    logged = reviews(db)
    assert [(r.grade, r.correct, r.overridden) for r in logged] == [
        (3, True, False),
        (3, True, True),
        (1, False, False),
    ]
    assert logged[1].typed == near
    assert {r.mode for r in logged} == {"typed"}


async def test_learn_mode_round_records_each_concept_once(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "learn"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        first_round = round_of(screen)
        assert first_round is not None
        size = first_round.total
        missed_once = False
        for _ in range(60):
            if round_of(screen) is not first_round:
                break
            q = question_of(screen)
            if q.stage == "choice":
                assert q.choices is not None
                index = q.choices.answer_index
                if not missed_once:
                    index = (index + 1) % len(q.choices.options)
                    missed_once = True
                await pilot.press(str(index + 1))
            else:
                assert isinstance(app.focused, Input)
                app.focused.value = q.expected  # typing key by key is tested in typed mode
                await pilot.press("enter")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        assert first_round.complete
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        summary = app.screen.summary
        # Every question counts: a choice and a typed answer per concept, plus the miss.
        assert (summary.studied, summary.correct, summary.saved) == (2 * size + 1, 2 * size, size)
        assert summary.studied_label == "Questions"
        await pilot.press("enter")
    logged = reviews(db)
    assert len(logged) == size
    assert {r.mode for r in logged} == {"learn"}
    assert len({r.card_id for r in logged}) == size
    assert sorted(r.grade for r in logged).count(2) == 1  # the one missed choice → Hard


async def test_undo_and_bury(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>ru:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        first = card_of(screen).id
        await pilot.press("space", "1")
        assert session_of(screen).done == 1
        await pilot.press("u")
        await pilot.pause()
        assert card_of(screen).id == first and session_of(screen).done == 0
        await pilot.press("space", "3")
        second = card_of(screen).id
        await pilot.press("b")
        await pilot.pause()
        assert card_of(screen).id != second
        assert second not in {k.id for k in session_of(screen).queue}
        messages = [n.message for n in app.notices]
        assert messages[0] == "Answer taken back (Again)."
        # Undo after a bury says it took back the bury, not an answer.
        await pilot.press("u")
        await pilot.pause()
        assert card_of(screen).id == second
        assert [n.message for n in app.notices][-1] == ("Bury taken back: the card is here again.")
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("q", "enter")
    logged = reviews(db)
    assert [(r.card_id, r.grade) for r in logged] == [(first, 3)]


async def test_markup_in_glossary_text_is_shown_literally(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("tricky", "en:term>en:definition", "flip"), decks=[markup_deck()])
    async with app.run_test(size=SIZE) as pilot:
        seen = []
        for _ in range(4):
            screen = _study(app)
            prompt = screen.query_one("#prompt", ScriptText)
            seen.append(prompt.text)
            rendered = str(prompt.render_text())
            assert rendered.strip() == prompt.text
            await pilot.press("space")
            await pilot.pause()
            answer = screen.query_one("#answer", ScriptText)
            assert str(answer.render()).strip() == answer.text
            await pilot.press("3")
            await pilot.pause()
            assert app.is_running
        assert "[@click=app.quit]bye[/]" in seen and "[/]" in seen
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        where = str(app.screen.query_one("#summary-where").render())
        assert "Tricky [markup]" in where
        await pilot.press("enter")
    assert len(reviews(db)) == 4


async def test_home_lists_decks_remembers_and_starts(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        options = home.query_one("#decks", OptionList)
        assert options.option_count == 2
        text = str(options.get_option_at_index(0).prompt)
        assert "new" in text and "due" in text
        await pilot.press("down", "m", "m")  # second deck, typed mode
        await pilot.press("x")  # swap prompt and answer
        await pilot.press("enter")
        await pilot.pause()
        screen = _study(app)
        assert screen.choice.mode == "typed"
        assert screen.choice.deck == home._decks[1]
        assert screen.choice.pair.code == "en:term>en:definition"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")  # summary → home
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    app2 = make_app(db)
    async with app2.run_test(size=(80, 24)) as pilot:
        home2 = app2.screen
        assert isinstance(home2, HomeScreen)
        remembered = home2.current_choice()
        assert remembered is not None
        assert (remembered.deck, remembered.mode) == (screen.choice.deck, "typed")
        assert remembered.pair == screen.choice.pair


async def test_help_opens_and_closes(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)


async def test_arabic_prompt_is_shaped_in_app_mode_and_logical_in_terminal_mode(
    tmp_path: Path,
) -> None:
    for mode, joined in (("app", True), ("terminal", False)):
        db = tmp_path / f"{mode}.json"
        app = make_app(db, choice("quantization", "ar:term>en:term", "flip"), rtl_mode=mode)
        async with app.run_test(size=SIZE):
            prompt = _study(app).query_one("#prompt", ScriptText)
            shown = str(prompt.render_text())
            forms = sum(0xFE70 <= ord(c) <= 0xFEFF for c in shown)
            assert (forms > 0) is joined
            if not joined:
                assert shown.strip() == prompt.text


def test_answer_notes_all_have_a_message() -> None:

    notes = {getattr(answers, n) for n in dir(answers) if n.startswith("NOTE_")}
    assert notes == set(_NOTE_TEXT)


async def test_typed_answer_of_another_concept_is_wrong_and_named(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:definition>en:term", "typed"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        concept, _prompt, _answer = texts_of(screen)
        other = next(c for c in screen.deck.concepts if c.id != concept.id)
        term = other.text("en", "term")
        assert term is not None
        _field(app).value = term
        await pilot.press("enter")
        await pilot.pause()
        assert check_of(screen).verdict == "wrong"
        assert check_of(screen).confused_with == other.text("en", "term")
        assert "another concept" in str(screen.query_one("#feedback").render())
        named = str(screen.query_one("#diff").render())
        assert named == f"closest to another concept: {other.text('en', 'term')}"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert [(r.grade, r.correct) for r in reviews(db)] == [(1, False)]


async def test_statistics_from_home_and_from_the_summary(tmp_path: Path) -> None:

    db = tmp_path / "p.json"
    app = make_app(db)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("enter")  # start the highlighted deck
        await pilot.pause()
        await pilot.press("space", "3", "q")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("s")
        await pilot.pause()
        await app.workers.wait_for_complete()  # the figures are counted in a worker thread
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen) and app.screen.stats is not None
        summary = app.screen_stack[-2]
        assert isinstance(summary, SummaryScreen)
        assert app.screen.stats.decks == (summary.deck_id,)
        assert app.screen.stats.total_reviews == 1
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)


async def test_nothing_to_study_says_so(tmp_path: Path) -> None:
    for mode in ("flip", "learn"):
        db = tmp_path / f"{mode}.json"
        # The deck has no Russian texts: no card exists in this direction.
        app = make_app(db, choice("tricky", "en:term>ru:term", mode), decks=[markup_deck()])
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            title = str(app.screen.query_one("#summary-title").render())
            assert title == "Nothing to study right now"
            reason = str(app.screen.query_one("#summary-reason").render())
            assert reason == "This deck has no Russian text."
            await pilot.press("q" if mode == "flip" else "enter")
            await pilot.pause()
            assert not app.is_running
        assert reviews(db) == []


def test_why_no_cards_names_the_missing_text(tmp_path: Path) -> None:

    half = concept("half", "a", {"en": ("term", "a definition"), "ar": ("مصطلح", "")})
    deck = Deck(id="half", name="Half", concepts=(half,))
    with open_store(tmp_path / "p.json") as store:
        service = StudyService(store, [deck, markup_deck()])
        why = service.why_no_cards
        assert why("tricky", Pair("ar", "term", "en", "term")) == "This deck has no Arabic text."
        assert why("tricky", Pair("en", "term", "en", "definition")) is None
        assert why("half", Pair("en", "term", "ar", "term")) is None
        assert why("half", Pair("en", "term", "ar", "definition")) == (
            "No concept in this deck has both the English term and the Arabic definition."
        )


async def test_typing_keeps_letters_for_the_answer(tmp_path: Path) -> None:
    """u, b, q, ? and space typed into the answer are text, not commands."""
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:definition>en:term", "typed"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        shown = {
            key
            for key, active in app.active_bindings.items()
            if active.binding.show and active.enabled
        }
        assert "escape" in shown
        assert not {"u", "b", "space", "question_mark"} & shown
        await pilot.press(*"ub q?", "enter")
        await pilot.pause()
        assert check_of(screen).typed == "ub q?"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
    assert [r.typed for r in reviews(db)] == ["ub q?"]


async def test_quick_answers_are_not_lost(tmp_path: Path) -> None:
    """Continue goes on at every press.

    Textual's Button ignores presses during its 0.2 s "active" flash; in tmux a quick
    learner's Enter was lost that way (scripts/tmux_e2e.py caught it). The flash is
    off for Continue; a pilot is too slow here to press twice within 0.2 s itself.
    """
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>ru:term", "choice"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _study(app)
        button = screen.query_one("#continue", Button)
        assert button.active_effect_duration == 0
        for n in range(4):
            screen.query_one("#choices", ChoiceList).choose(0)
            await pilot.pause()
            assert screen.phase == "feedback"
            button.action_press()  # what Enter on the focused button does
            await pilot.pause()
            assert session_of(screen).done == n + 1
            assert screen.phase == "question", n
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert len(reviews(db)) == 4


async def test_markup_in_choice_options_is_literal_and_clicks_do_nothing_odd(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("tricky", "en:definition>en:term", "choice"), decks=[markup_deck()])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _study(app)
        shown = [
            str(opt.query_one(ScriptText).render()).strip() for opt in screen.query("ChoiceOption")
        ]
        assert sorted(shown) == sorted(["[bold]loud[/]", "[@click=app.quit]bye[/]", "[/]", "plain"])
        for n in range(1, 5):  # clicking every option's text must not quit the app
            await pilot.click(f"#choice-{n}", offset=(6, 0))
            await pilot.pause()
            assert app.is_running
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert len(reviews(db)) == 1


async def test_bengali_card_lines_are_as_wide_as_drawn_and_rich_is_left_alone(
    tmp_path: Path,
) -> None:
    """Every line of a card showing Bengali takes its widget's width in the cells a terminal
    draws (a vowel sign a cell), so the box's right border lines up; Rich's own count is
    untouched. (scripts/tmux_e2e.py checks the border columns in tmux itself.)"""
    text = "আমি বাংলায় গান গাই"
    app = make_app(tmp_path / "p.json", choice("quantization", "bn:term>bn:definition", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert cell_len(text) == 12  # Rich's count, not patched
        card = app.screen.query_one(CardView)
        bengali = 0
        for widget in card.query("*"):
            width = widget.content_region.width
            for y in range(widget.size.height):
                line = widget.render_line(y).text
                bengali += any("\u0980" <= ch <= "\u09ff" for ch in line)
                assert cells(line) == width, (widget, line)
        assert bengali >= 2  # the term and its definition


async def test_typed_arabic_miss_shows_what_was_typed_shaped(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>ar:term", "typed"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        _concept, _prompt, answer = texts_of(screen)
        typed = answer[:-1]  # one letter short: a near miss
        _field(app).value = typed
        assert _field(app).value == typed  # the input keeps logical order
        await pilot.press("enter")
        await pilot.pause()
        assert not check_of(screen).right and check_of(screen).can_override
        diff = screen.query_one("#diff").render()
        assert isinstance(diff, Content)
        shown = str(diff)
        assert shown.startswith("diff: ")
        assert any(0xFE70 <= ord(c) <= 0xFEFF for c in shown)
        # The missing last letter is underlined, and (right to left) it is drawn
        # leftmost: the first letter after "diff: ".
        underlined = [
            shown[span.start : span.end] for span in diff.spans if "underline" in str(span.style)
        ]
        assert len(underlined) == 1 and len(underlined[0]) == 1
        assert shown.index(underlined[0]) == len("diff: ")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert [r.typed for r in reviews(db)] == [typed]


async def test_home_counts_follow_answers(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.screen
        options = home.query_one("#decks", OptionList)
        first = str(options.get_option_at_index(0).prompt)
        assert "20 new · 0 due" in first
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("space", "1", "escape")  # Again: back in a minute
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        after = str(options.get_option_at_index(0).prompt)
        assert "19 new · 0 due" in after


async def test_small_and_resized_terminal_keeps_working(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "bn:definition>ar:definition", "choice"))
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        screen = _study(app)
        await pilot.press(str(choices_of(screen).answer_index + 1))
        await pilot.pause()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        prompt = screen.query_one("#prompt", ScriptText)
        assert prompt.size.width > 60

        widest = max(cell_len(line) for line in str(prompt.render_text()).splitlines())
        assert widest <= prompt.size.width
        await pilot.press("enter", "escape")
        await pilot.pause()
        await pilot.press("enter")
    assert [(r.correct, r.grade) for r in reviews(db)] == [(True, 3)]


async def test_flip_space_twice_is_good_and_enter_works_like_space(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>fr:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        await pilot.press("space", "space")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.phase == "revealed"
        await pilot.press("enter")
        await pilot.pause()
        assert session_of(screen).done == 2
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
    assert [r.grade for r in reviews(db)] == [3, 3]


async def test_ctrl_t_switches_light_and_dark(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=(80, 24)) as pilot:
        dark = app.current_theme.dark
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.current_theme.dark is not dark
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.current_theme.dark is dark


def test_remembering_the_choice_is_best_effort(tmp_path: Path) -> None:

    with open_store(tmp_path / "p.json") as store:
        service = StudyService(store, bundled_decks())
        picked = choice("quantization", "ru:term>en:definition", "typed")
        service.remember(picked)
        assert service.last_choice() == picked
        prefs = machine_file(tmp_path / "p.json", ".ui.json")
        prefs.write_text("{not json", encoding="utf-8")
        assert service.last_choice() is None  # a damaged file is ignored, not fatal
        prefs.unlink()
        prefs.mkdir()  # can't be written: ignored
        service.remember(picked)
        assert service.last_choice() is None


async def test_a_store_that_refuses_a_write_ends_the_app_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>ru:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "3")  # recorded
        await pilot.pause()

        def refuse(*_args: object, **_kwargs: object) -> None:
            raise StoreError("can't write the journal: No space left on device", path=db)

        monkeypatch.setattr(app.service.store, "record", refuse)
        monkeypatch.setattr(app.service.store, "record_outcome", refuse)
        await pilot.press("space", "3")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 3
    assert [r.grade for r in reviews(db)] == [3]  # the acknowledged answer is kept


async def test_clicking_i_was_right_counts_the_near_miss_once(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("training-efficiency", "en:definition>en:term", "typed"))
    async with app.run_test(size=SIZE) as pilot:
        screen = _study(app)
        _concept, _prompt, answer = texts_of(screen)
        near = answer[:-1] + ("x" if answer[-1] != "x" else "y")
        await pilot.press(*near, "enter")
        await pilot.pause()
        assert check_of(screen).can_override
        button = screen.query_one("#i-was-right", Button)
        assert not button.has_class("hidden")
        await pilot.click("#i-was-right")
        await pilot.pause()
        assert button.has_class("hidden")
        assert screen.check_action("override", ()) is False
        assert "Counted as right" in str(screen.query_one("#feedback").render())
        await pilot.press("enter")
        await pilot.pause()
        # A plainly wrong answer offers no "I was right".
        await pilot.press(*"zzzz qqqq", "enter")
        await pilot.pause()
        assert check_of(screen).verdict == "wrong"
        assert screen.query_one("#i-was-right").has_class("hidden")
        assert screen.check_action("override", ()) is False
        await pilot.press("r")  # does nothing
        await pilot.press("enter", "escape")
        await pilot.pause()
        await pilot.press("enter")
    logged = reviews(db)
    assert [(r.grade, r.correct, r.overridden, r.typed) for r in logged] == [
        (3, True, True, near),
        (1, False, False, "zzzz qqqq"),
    ]


async def test_summary_next_due_counts_only_this_deck_and_pair(tmp_path: Path) -> None:

    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>ru:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "1", "q")  # Again: due again within minutes
        await pilot.pause()
        soon = _summary(app).next_due
        await pilot.press("enter")
    app = make_app(db, choice("quantization", "en:term>fr:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "4", "q")  # Easy: days away
        await pilot.pause()
        later = _summary(app).next_due
        await pilot.press("enter")
    now = datetime.now(UTC)
    assert soon is not None and soon - now < timedelta(hours=1)
    assert later is not None and later - now > timedelta(days=1)


def test_new_limit_note_says_when_the_daily_limit_holds_cards_back(tmp_path: Path) -> None:

    deck = find_deck("training-efficiency").deck
    pair = Pair("en", "term", "ru", "definition")
    now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        store.set_settings(SchedulerSettings(new_per_day=2))
        service = StudyService(store, [deck])
        assert service.new_limit_note(deck.id, pair, now) is None
        for concept in deck.concepts[:2]:
            store.record(CardKey(concept.uid, pair), 3, now)
        note = service.new_limit_note(deck.id, pair, now)
        assert note is not None
        assert note.startswith("Today's 2 new cards for this deck are done; 14 more")
        assert "new_per_day=4" in note


async def test_the_first_screen_is_the_apps_own_and_a_direct_session_ends_in_its_summary(
    tmp_path: Path,
) -> None:
    # No blank Textual screen is composed and laid out under the first one: the home
    # screen (or, for `quizzer study`, the study screen) is the bottom of the stack.
    home = make_app(tmp_path / "home.json")
    async with home.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [type(s) for s in home.screen_stack] == [HomeScreen]
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [StudyScreen]
        await pilot.press("space", "3")
        await pilot.pause()
        await pilot.press("q")  # the bottom screen can't be switched away: the summary goes on top
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "Cards studied  1\n" in str(app.screen.query_one("#summary-figures").render())
        await pilot.press("enter")  # from the command line: Enter quits
        await pilot.pause()
        assert not app.is_running
    assert len(reviews(tmp_path / "p.json")) == 1
