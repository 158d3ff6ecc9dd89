"""The study screen: one card at a time in flip, choice, typed or learn mode.

The screen owns no quiz logic: the queue, grading rules and learn rounds live
in :mod:`quizzer.core` (session, answers, choices, learn); answers go to the
store through :class:`quizzer.services.study.StudyService` the moment they are given.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.text import Text as RichText
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from quizzer.cards.card import CardKey
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.errors import StoreError
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.review import GRADE_NAMES
from quizzer.services.study import StoreScheduler, StudyService, utcnow
from quizzer.study.selection import StudyChoice
from quizzer.study.session import MAX_ANSWER_MS, Session
from quizzer.ui.screens.summary import SessionSummary, SummaryScreen
from quizzer.ui.textshape import display_text, has_rtl, shape_runs
from quizzer.ui.widgets.card_view import CardView, side_label
from quizzer.ui.widgets.choice_list import ChoiceList
from quizzer.ui.widgets.grade_bar import GradeBar
from quizzer.ui.widgets.progress_header import ProgressHeader
from quizzer.ui.widgets.quiz_footer import QuizFooter
from quizzer.ui.widgets.typed_answer import TypedAnswer

if TYPE_CHECKING:
    # Answer checking, choices and learn rounds are imported when a mode needs them
    # (rapidfuzz and friends): flip mode shows its first card without them.
    from quizzer.study.answers import AnswerCheck
    from quizzer.study.learn import LearnQuestion, LearnRound
    from quizzer.study.multiple_choice import ChoiceSet

F = TypeVar("F", bound=Callable[..., Any])

_NOTE_TEXT = {
    "near": "a small slip",  # said by "≈ Almost" already; not repeated there
    "accents": "mind the accents",
    "acronym": "you gave the acronym",
    "part": "you gave another part of the term",
    "transliteration": "typed in Latin letters",
    "other-concept": "that is another concept",
}


_DIFF_STYLE = {
    "equal": "",
    "extra": "strike $text-error",
    "missing": "underline bold $text-success",
}


def diff_content(check: AnswerCheck, rtl_mode: str = "app") -> Content | None:
    """The character diff as styled text: missing letters underlined green, extra ones struck red.

    Right-to-left answers get the same diff: every letter keeps its style
    through shaping and reordering (:func:`quizzer.ui.textshape.shape_runs`), so
    a missing Arabic letter is underlined in the joined, right-to-left word.
    """
    if check.right and not check.diff:
        return None
    if check.confused_with and not check.correct:
        return Content.assemble(
            ("closest to another concept: ", "$text-muted"),
            display_text(check.confused_with, rtl_mode),
        )
    if not check.diff:
        return None
    runs = [(seg.text, _DIFF_STYLE.get(seg.op, "")) for seg in check.diff]
    if rtl_mode == "app" and any(has_rtl(text) for text, _ in runs):
        runs = shape_runs(runs)
    label = ("diff: ", "$text-muted")
    return Content.assemble(label, *[(text, style) if style else text for text, style in runs])


def _concepts(n: int) -> str:
    return f"{n} concept" if n == 1 else f"{n} concepts"


def _stops_on_store_error(method: F) -> F:
    """Run a handler; if the store refuses a write, end the app with its message (exit 3)."""
    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def guarded_async(self: StudyScreen, *args: Any, **kwargs: Any) -> Any:
            try:
                return await method(self, *args, **kwargs)
            except StoreError as exc:
                self._store_failed(exc)
                return None

        return guarded_async  # type: ignore[return-value]

    @functools.wraps(method)
    def guarded(self: StudyScreen, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreError as exc:
            self._store_failed(exc)
            return None

    return guarded  # type: ignore[return-value]


class StudyScreen(Screen[None]):
    """Study ``choice``; ``from_home`` decides where the summary leads."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "space", "Show / next"),
        Binding("enter", "next", "Next", show=False),
        Binding("1", "key(1)", "1", show=False),
        Binding("2", "key(2)", "2", show=False),
        Binding("3", "key(3)", "3", show=False),
        Binding("4", "key(4)", "4", show=False),
        Binding("r", "override", "I was right"),
        Binding("u", "undo", "Undo"),
        Binding("b", "bury", "Bury"),
        # While typing, u and b are letters of the answer: these work there too.
        Binding("ctrl+z", "undo_anyway", "Undo", show=False),
        Binding("ctrl+b", "bury_anyway", "Bury", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("escape", "end", "End", key_display="Esc"),
        Binding("q", "end", "End", show=False),
    ]

    def __init__(self, choice: StudyChoice, *, from_home: bool) -> None:
        super().__init__()
        self.choice = choice
        self.from_home = from_home
        self.session: Session | None = None
        self.card: CardKey | None = None
        self._phase = "question"
        self.choices: ChoiceSet | None = None
        self.check: AnswerCheck | None = None
        self.rounds: list[tuple[Concept, ...]] = []
        self.round: LearnRound | None = None
        self.question: LearnQuestion | None = None
        self.learn_cards: set[str] = set()
        #: (answered, correct) of the learn rounds already finished.
        self._rounds_done = (0, 0)
        self._started = time.monotonic()
        self._quit_warned = False
        self.round_no = 0
        self.round_count = 0
        self._shown = time.monotonic()
        self._ended = False
        self._nothing_due = False
        self._scheduler: StoreScheduler | None = None
        self._overridden = False

    def _store_failed(self, exc: StoreError) -> None:
        """The store refused a write (disk full, removed, ...): stop cleanly with its message.

        Whatever was acknowledged before is on disk; the answer that failed was not
        recorded.
        """
        self.app.exit(return_code=3, message=RichText(f"quizzer: error: {exc}"))

    @property
    def phase(self) -> str:
        """``question``, ``revealed`` (flip, answer shown) or ``feedback`` (after an answer)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        changed = value != self._phase
        self._phase = value
        if changed and self.is_mounted:
            # The footer recomposes on every refresh: only when the live keys change.
            self.refresh_bindings()

    @property
    def service(self) -> StudyService:
        """The app's study service."""
        return self.app.service  # type: ignore[attr-defined]

    @property
    def deck(self) -> Deck:
        """The deck being studied."""
        return self.service.deck(self.choice.deck)

    def compose(self) -> ComposeResult:
        """Compose the header, the card, and only the answer widgets this mode uses."""
        yield ProgressHeader(id="progress")
        with VerticalScroll(id="study-body"):
            yield CardView(id="card")
            yield Static("", id="hint", markup=False)
            # Only the widgets this mode uses: fewer widgets, faster first card. (Flip
            # mode's grade bar is mounted on the first reveal.)
            mode = self.choice.mode
            if mode != "flip":
                with Horizontal(id="continue-row", classes="hidden"):
                    yield Static("", id="feedback", markup=False)
                    button = Button(
                        "Continue (Enter)", id="continue", compact=True, variant="primary"
                    )
                    # Textual ignores a press while the last one's 0.2 s "active" flash
                    # lasts; a quick learner's next Enter must not be lost.
                    button.active_effect_duration = 0
                    yield button
            if mode in ("choice", "learn"):
                yield ChoiceList(id="choices", classes="hidden")
            if mode in ("typed", "learn"):
                yield TypedAnswer(id="typed-answer", classes="hidden")
        yield QuizFooter()

    @_stops_on_store_error
    def on_mount(self) -> None:
        """Start the session (or the learn rounds) and show the first card."""
        now = utcnow()
        if self.choice.mode == "learn":
            from quizzer.study.learn import learn_rounds

            # New concepts only (today's new-card limit applied); due reviews are
            # for flip, choice and typed modes.
            queue = self.service.store.due_cards(self.deck, [self.choice.pair], now)
            self.rounds = list(learn_rounds(queue, self.deck.concepts))
            self.round_count = len(self.rounds)
            self._next_round()
        else:
            self.session = self.service.start_session(self.choice, now)
            if isinstance(self.session.scheduler, StoreScheduler):
                self.session.scheduler.on_leech = self._leech_notice
        self._nothing_due = (self.session is not None and self.session.finished) or (
            self.session is None and self.round is None
        )
        self._show()

    # -- showing --------------------------------------------------------------

    def _where(self) -> tuple[str, str]:
        """(deck name, ``en def → en term · mode``) for the header."""
        p = self.choice.pair
        short = {"term": "term", "definition": "def"}
        pair = f"{p.prompt_lang} {short[p.prompt_side]} → {p.answer_lang} {short[p.answer_side]}"
        name = display_text(self.deck.name, getattr(self.app, "rtl_mode", "app"))
        return name, f"{pair} · {self.choice.mode}"

    def _update_progress(self) -> None:
        header = self.query_one(ProgressHeader)
        if self.session is not None:
            name, pair = self._where()
            header.update(name, self.session.done, self.session.left, pair=pair)
        else:
            left = sum(len(r) for r in self.rounds)
            if self.round is not None:
                left += self.round.total - self.round.mastered
            name, pair = self._where()
            header.update(
                name,
                len(self.learn_cards),  # concepts saved, like "left" counts concepts
                left,
                f"round {self.round_no}/{self.round_count}",
                pair=pair,
            )

    def _set_visible(self, *, grades: bool, choices: bool, typed: bool, cont: bool) -> None:
        for selector, show in (
            ("#grades", grades),
            ("#choices", choices),
            ("#typed-answer", typed),
            ("#continue-row", cont),
        ):
            self.query(selector).set_class(not show, "hidden")

    def _texts(self, key: CardKey) -> tuple[Concept, str, str]:
        concept = self.deck.get(key.concept_id)
        assert concept is not None
        p = key.pair
        prompt = concept.text(p.prompt_lang, p.prompt_side) or ""
        answer = concept.text(p.answer_lang, p.answer_side) or ""
        return concept, prompt, answer

    def _show(self) -> None:
        """Put the current card (or learn question) on screen."""
        self.phase = "question"
        self.check = None
        self._overridden = False
        self._shown = time.monotonic()
        if self.session is not None:
            if self.session.finished:
                self._finish()
                return
            self.session.show(utcnow())
            self.card = self.session.current
            mode = self.choice.mode
        else:
            if self.round is None or self.round.complete:
                self._next_round()
            if self.round is None:
                self._finish()
                return
            self.question = self.round.question
            assert self.question is not None
            self.card = self.question.card
            mode = self.question.stage
        assert self.card is not None
        concept, prompt, answer = self._texts(self.card)
        p = self.card.pair
        self.query_one(CardView).show(
            prompt,
            side_label(p.prompt_lang, p.prompt_side),
            answer,
            side_label(p.answer_lang, p.answer_side),
        )
        hint = self.query_one("#hint", Static)
        hint.display = True
        if mode == "flip":
            self._set_visible(grades=False, choices=False, typed=False, cont=False)
            hint.update("Space: show the answer")
            self.set_focus(None)
        elif mode == "choice":
            if self.session is not None:
                from quizzer.study.multiple_choice import make_choices

                self.choices = make_choices(
                    concept, self.deck.concepts, p.answer_lang, p.answer_side, self.service.rng
                )
            else:
                assert self.question is not None
                self.choices = self.question.choices
            assert self.choices is not None
            self._set_visible(grades=False, choices=True, typed=False, cont=False)
            hint.update("1–4, or ↑ ↓ and Enter")
            options = self.query_one(ChoiceList)
            options.set_options([o.text for o in self.choices.options])
            options.focus()
        else:  # typed
            self._set_visible(grades=False, choices=False, typed=True, cont=False)
            hint.update(f"Type the {side_label(p.answer_lang, p.answer_side)}, Enter to check")
            self.query_one(TypedAnswer).reset()
        self._update_progress()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something now (the footer follows)."""
        if isinstance(self.focused, Input) and action in ("space", "next", "undo", "bury", "help"):
            return False  # these letters go into the answer being typed
        if action in ("space", "next"):
            return self.phase in ("feedback", "revealed") or (
                self.phase == "question" and self._mode_now() == "flip"
            )
        if action == "override":
            return (
                self.phase == "feedback"
                and self.check is not None
                and self.check.can_override
                and not self._overridden
            )
        if action == "bury":
            return self.phase != "feedback"
        return True

    def _elapsed_ms(self) -> int:
        return min(MAX_ANSWER_MS, int((time.monotonic() - self._shown) * 1000))

    def _feedback(self, text: str, kind: str) -> None:
        self.phase = "feedback"
        feedback = self.query_one("#feedback", Static)
        feedback.update(text)
        feedback.remove_class("-right", "-near", "-wrong")
        feedback.add_class(f"-{kind}")
        self.query_one("#continue-row").remove_class("hidden")
        self.query_one("#continue", Button).focus()
        self.query_one("#hint").display = False
        self._update_progress()

    # -- flip -----------------------------------------------------------------

    async def action_space(self) -> None:
        """Reveal the answer (flip), grade Good once revealed (as in Anki), or go on."""
        if self.phase == "feedback":
            self._show()
            return
        if self.phase == "revealed":
            self._grade(3)
            return
        if self.choice.mode != "flip" or self.phase != "question" or self.session is None:
            return
        self.session.reveal()
        self.phase = "revealed"
        self.query_one(CardView).set_revealed(True)
        assert self.card is not None
        intervals = self.service.intervals(self.card)
        bars = self.query(GradeBar)
        if bars:
            bars.first().set_intervals(intervals)
        else:
            await self.query_one("#study-body").mount(
                GradeBar(intervals, id="grades"), after="#hint"
            )
        self._set_visible(grades=True, choices=False, typed=False, cont=False)
        self.query_one("#hint", Static).update(
            "How well did you recall it? 1–4 (Space or Enter: Good)"
        )

    def action_key(self, number: int) -> None:
        """1–4: a grade in flip mode, an option in choice mode."""
        if self.phase == "revealed":
            self._grade(number)
        elif self.phase == "question" and self._mode_now() == "choice":
            self.query_one(ChoiceList).choose(number - 1)

    def on_grade_bar_graded(self, event: GradeBar.Graded) -> None:
        """Grade the revealed card with the button the learner pressed."""
        if self.phase == "revealed":
            self._grade(event.grade)

    @_stops_on_store_error
    def _grade(self, grade: int) -> None:
        assert self.session is not None
        self.session.answer(grade, utcnow())  # type: ignore[arg-type]
        self._show()

    def _mode_now(self) -> str:
        if self.question is not None and self.session is None:
            return self.question.stage
        return self.choice.mode

    # -- choice ---------------------------------------------------------------

    @_stops_on_store_error
    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        """Check the chosen option, colour the options, and record the answer."""
        if self.phase != "question" or self.choices is None:
            return
        right = self.choices.is_correct(event.index)
        event.choice_list.mark(event.index, self.choices.answer_index)
        self.query_one(CardView).set_revealed(True)
        if self.session is not None:
            from quizzer.study.answers import Verdict, grade_for

            verdict = Verdict.EXACT if right else Verdict.WRONG
            grade = grade_for(verdict, duration_ms=self._elapsed_ms())
            self.session.answer(grade, utcnow(), correct=right)
            label = GRADE_NAMES[grade]
        else:
            assert self.round is not None
            self.round.answer_choice(event.index, utcnow(), self._elapsed_ms())
            label = "now type it" if right else "it comes back soon"
        if right:
            self._feedback(f"✓ Right — {label}", "right")
        else:
            self._feedback(f"✗ Not that one — {label}", "wrong")

    # -- typed ----------------------------------------------------------------

    @_stops_on_store_error
    def on_typed_answer_submitted(self, event: TypedAnswer.Submitted) -> None:
        """Check the typed text against the answer, record it, and show the character diff."""
        if self.phase != "question" or self.card is None:
            return
        concept, _prompt, expected = self._texts(self.card)
        duration = self._elapsed_ms()
        if self.session is not None:
            from quizzer.study.answers import check_card_answer, grade_for

            check = check_card_answer(event.text, concept, self.deck.concepts, self.card.pair)
            grade = grade_for(check.verdict, duration_ms=duration)
            self.session.answer(grade, utcnow(), typed=event.text, correct=check.correct)
            can_override = check.can_override
            outcome = GRADE_NAMES[grade]
        else:
            assert self.round is not None
            before = len(self.round.records)
            check = self.round.answer_typed(event.text, utcnow(), duration)
            self._record_learn(before)
            can_override = check.can_override and self.round.can_override
            outcome = "learned" if check.right else "it comes back soon"
        self.check = check
        self._show_check(check, expected, can_override, outcome)

    def _show_check(
        self, check: AnswerCheck, expected: str, can_override: bool, outcome: str
    ) -> None:
        from quizzer.study.answers import Verdict

        notes = ", ".join(_NOTE_TEXT[n] for n in check.notes if n in _NOTE_TEXT and n != "near")
        if check.verdict == Verdict.EXACT:
            verdict, kind = "✓ Right", "right"
        elif check.verdict == Verdict.ACCEPTED:
            verdict, kind = f"✓ Right ({notes})" if notes else "✓ Right", "right"
        elif check.verdict == Verdict.NEAR:
            verdict, kind = "≈ Almost" + (f" ({notes})" if notes else ""), "near"
        elif check.confused_with:
            verdict, kind = "✗ That is another concept", "wrong"
        else:
            verdict, kind = "✗ Not quite", "wrong"
        self.query_one(CardView).set_revealed(True)
        rtl_mode = getattr(self.app, "rtl_mode", "app")
        self.query_one(TypedAnswer).show_feedback(diff_content(check, rtl_mode), can_override)
        self._feedback(f"{verdict} — {outcome}", kind)

    @_stops_on_store_error
    def action_override(self) -> None:
        """“I was right”: count the last typed miss as right."""
        if (
            self.phase != "feedback"
            or self.check is None
            or not self.check.can_override
            or self._overridden
        ):
            return
        if self.session is not None:
            last = self.session.reviews[-1] if self.session.reviews else None
            if last is None or last.overridden:
                return
            from quizzer.study.answers import grade_for

            self.session.override(grade_for(self.check.verdict, overridden=True), utcnow())
        else:
            assert self.round is not None
            if not self.round.can_override:
                return
            before = len(self.round.records)
            self.round.override()
            self._record_learn(before)
        self._overridden = True
        self.query_one("#i-was-right").add_class("hidden")
        self._feedback("✓ Counted as right", "right")
        self.refresh_bindings()  # "I was right" leaves the footer

    def on_typed_answer_overridden(self, _event: TypedAnswer.Overridden) -> None:
        """Accept a near miss as right (the "I was right" button)."""
        self.action_override()

    # -- learn ----------------------------------------------------------------

    def _learn_counts(self) -> tuple[int, int]:
        """(questions answered, answered correctly) in learn mode, all rounds so far."""
        answered, correct = self._rounds_done
        if self.round is not None:
            answered += self.round.tally.answered
            correct += self.round.tally.correct
        return answered, correct

    def _next_round(self) -> None:
        self._rounds_done = self._learn_counts()
        self.round = None
        while self.rounds:
            concepts = self.rounds.pop(0)
            from quizzer.study.learn import LearnRound

            self.round_no += 1
            try:
                self.round = LearnRound(
                    concepts, self.deck.concepts, self.choice.pair, self.service.rng
                )
                return
            except ValueError:
                continue

    def _record_learn(self, before: int) -> None:
        """Send the round's new records to the store."""
        assert self.round is not None
        scheduler = self._learn_scheduler()
        for record in self.round.records[before:]:
            answer = Answer(
                mode="learn",
                duration_ms=min(record.duration_ms, MAX_ANSWER_MS),
                typed=record.typed,
                correct=record.correct,
                overridden=record.overridden,
            )
            scheduler.record(record.card, record.grade, record.at, answer)
            self.learn_cards.add(record.card.id)

    def _undo_learn(self) -> None:
        """Step the learn round back one answer, override or bury (and the store with it)."""
        if self.round is None or not self.round.can_undo:
            self.notify("Nothing to undo in this round.")
            return
        step = self.round.undo()
        if step.store_undo:
            self._learn_scheduler().undo()
        if step.record is not None:
            self.learn_cards.discard(step.record.card.id)
        self._show()
        if step.action == "bury":
            self.notify("Bury taken back: the concept is back in this round.")
        elif step.record is not None:
            grade = GRADE_NAMES[step.record.grade]
            self.notify(f"Answer taken back (its record, {grade}, too).")
        else:
            self.notify("Answer taken back.")

    def _leech_notice(self, card: CardKey, suspended: bool) -> None:
        """The answer just given made ``card`` a leech: say so, and what happened to it."""
        state = self.service.store.card(card)
        lapses = getattr(state, "lapses", None)
        why = f" ({lapses} lapses)" if lapses else ""
        what = "suspended" if suspended else "flagged"
        self.app.notify(
            f"This card is a leech{why}: {what} — see `quizzer leeches`.",
            title="Leech",
            severity="warning",
            timeout=10,
            markup=False,
        )

    def _learn_scheduler(self) -> StoreScheduler:
        if self._scheduler is None:
            self._scheduler = self.service.scheduler(self.choice)
            self._scheduler.on_leech = self._leech_notice
        return self._scheduler

    # -- continue, undo, bury, end --------------------------------------------

    async def action_next(self) -> None:
        """Enter does what Space does (typing, Enter belongs to the input)."""
        await self.action_space()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Go to the next card when Continue is pressed during feedback."""
        if event.button.id == "continue":
            event.stop()
            if self.phase == "feedback":
                self._show()

    @_stops_on_store_error
    def action_undo(self) -> None:
        """Take back the last answer and show that card again."""
        if self.session is None:
            self._undo_learn()
            return
        if not self.session.can_undo:
            self.notify("Nothing to undo.")
            return
        self.session.undo()
        self._show()
        scheduler = self.session.scheduler
        message = getattr(scheduler, "undone_message", None)
        self.notify(message() if callable(message) else "Taken back.")

    def action_undo_anyway(self) -> None:
        """Ctrl+Z: undo, also while the answer field has the focus."""
        self.action_undo()

    def action_bury_anyway(self) -> None:
        """Ctrl+B: bury, also while the answer field has the focus."""
        self.action_bury()

    @_stops_on_store_error
    def action_bury(self) -> None:
        """Hide this card until tomorrow."""
        if self.phase == "feedback":
            return
        if self.session is None:
            if self.round is None or self.question is None:
                return
            card = self.round.bury(self.question.concept.uid)
            self._learn_scheduler().bury(card, utcnow())
            self.notify("Buried until tomorrow: out of this round.")
            self._show()
            return
        if self.session.finished:
            return
        self.session.bury(utcnow())
        self.notify("Buried until tomorrow.")
        self._show()

    def action_help(self) -> None:
        """Show the keys."""
        from quizzer.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_end(self) -> None:
        """End the session and show the summary.

        In learn mode a concept is saved once typed right: ending with concepts
        half learned warns first (press again to end anyway).
        """
        unsaved = self._unsaved()
        if unsaved and not self._quit_warned:
            self._quit_warned = True
            self.notify(
                f"{_concepts(unsaved)} of this round not saved yet: a concept is saved "
                "once you type it right. Press q or Esc again to end anyway.",
                severity="warning",
                timeout=8,
            )
            return
        self._finish()

    def _unsaved(self) -> int:
        """Learn mode: concepts answered this round but not yet typed right (not recorded)."""
        if self.session is not None or self.round is None:
            return 0
        return len(self.round.in_progress)

    def _why_empty(self) -> str | None:
        """When there was nothing to study: why, if the deck simply lacks this direction."""
        if not self._nothing_due:
            return None
        why = self.service.why_no_cards(self.choice.deck, self.choice.pair)
        if why is None:
            why = self.service.new_limit_note(self.choice.deck, self.choice.pair)
        if why is None and self.choice.mode == "learn":
            why = (
                "Learn mode teaches new concepts, and none are left for today here: "
                "flip, choice or typed mode review the ones due."
            )
        return why

    def _finish(self) -> None:
        if self._ended:
            return
        self._ended = True
        if self._quit_warned:
            self.app.clear_notifications()  # the summary says what wasn't saved
        now = utcnow()
        if self.session is not None:
            s = self.session.summary(now)
            studied, correct = s.answers, s.correct
            seconds = s.time_spent.total_seconds()
            next_due = s.next_due
        else:
            studied, correct = self._learn_counts()
            seconds = time.monotonic() - self._started  # wall clock: learn is a sitting
            next_due = self._learn_scheduler().next_due(now)
        learn = self.session is None
        unsaved = self._unsaved()
        summary = SessionSummary(
            studied_label="Questions" if learn else "Cards studied",
            saved=len(self.learn_cards) if learn else None,
            note=f"Not saved: {_concepts(unsaved)} not yet typed right." if unsaved else "",
            deck_name=display_text(self.deck.name, getattr(self.app, "rtl_mode", "app")),
            pair_label=self.choice.pair_label,
            mode=self.choice.mode,
            studied=studied,
            correct=correct,
            seconds=seconds,
            next_due=next_due,
        )
        self.app.switch_screen(
            SummaryScreen(
                summary,
                from_home=self.from_home,
                deck_id=self.choice.deck,
                now=now,
                empty=self._nothing_due,
                reason=self._why_empty(),
            )
        )
