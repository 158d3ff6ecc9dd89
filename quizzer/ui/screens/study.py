"""The study screen: one card at a time in flip, choice, typed or learn mode.

The screen owns no quiz logic and never asks which engine runs: it drives a
:class:`quizzer.study.flow.StudyFlow` (a session of due cards, or learn rounds),
started by :func:`quizzer.services.sessions.start_flow`, which records
every answer the moment it is given. Each mode's answer widgets are a panel
(:mod:`~quizzer.ui.widgets.flip_panel`, :mod:`~quizzer.ui.widgets.choice_panel`,
:mod:`~quizzer.ui.widgets.typed_panel`) whose messages the screen passes on to the flow.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Input

from quizzer.cards.card import CardKey
from quizzer.concepts.deck import Deck
from quizzer.scheduling.grades import Grade
from quizzer.services.sessions import intervals, start_flow
from quizzer.services.study import utcnow
from quizzer.study.cram import describe
from quizzer.study.flow import StudyFlow, card_texts
from quizzer.study.selection import StudyChoice, reverse
from quizzer.study.session import MAX_ANSWER_MS
from quizzer.ui.language_labels import Captions, named
from quizzer.ui.screens.base import QuizzerScreen
from quizzer.ui.store_errors import stops_on_store_error
from quizzer.ui.textshape import display_text
from quizzer.ui.widgets.answer_diff import verdict_line
from quizzer.ui.widgets.progress_header import ProgressHeader
from quizzer.ui.widgets.quiz_footer import QuizFooter
from quizzer.ui.widgets.study_body import StudyBody

if TYPE_CHECKING:  # the panels' modules are loaded with their mode (see StudyBody)
    from quizzer.ui.widgets.choice_panel import ChoicePanel
    from quizzer.ui.widgets.flip_panel import FlipPanel
    from quizzer.ui.widgets.typed_panel import TypedPanel


class StudyScreen(QuizzerScreen[None]):
    """Study ``choice``; ``from_home`` decides where the summary leads."""

    DEFAULT_CSS = """
    #study-body {
        height: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "space", "Show/next"),
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
        # Ctrl+L: a letter would be part of a typed answer.
        Binding("ctrl+l", "hear", "Hear", key_display="^l", show=False),
        Binding("escape", "end", "End", key_display="Esc"),
        Binding("q", "end", "End", show=False),
    ]

    def __init__(self, choice: StudyChoice, *, from_home: bool) -> None:
        super().__init__()
        self.choice = choice
        self.from_home = from_home
        #: What is studied; started on mount.
        self.flow: StudyFlow | None = None
        self._phase = "question"
        self._started = time.monotonic()
        self._shown = time.monotonic()
        self._quit_warned = False
        self._ended = False
        self._nothing_due = False
        self._deck: Deck | None = None

    # -- what is shown -------------------------------------------------------

    @property
    def phase(self) -> str:
        """``question``, ``revealed`` (flip, answer shown) or ``feedback`` (after an answer)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        changed = value != self._phase
        self._phase = value
        if changed and self.is_mounted:
            # The footer shows the keys that work now: only when they change.
            self.refresh_bindings()

    @property
    def _flow(self) -> StudyFlow:
        assert self.flow is not None, "the study flow starts on mount"
        return self.flow

    @property
    def deck(self) -> Deck:
        """The deck being studied."""
        if self._deck is None:
            self._deck = self.service.deck_for(self.choice)
        return self._deck

    @property
    def card(self) -> CardKey | None:
        """The card on screen."""
        return self.flow.card if self.flow is not None else None

    def _where(self) -> tuple[str, Captions]:
        """(deck name, ``Arabic · العربية def → English term · mode`` and the same with the
        languages named in themselves only) for the header."""
        # With several directions, the one of the card on screen (a flow's card, not yet
        # the screen's while the flow starts).
        card = self.flow.card if self.flow is not None and len(self.choice.pairs) > 1 else None
        p = card.pair if card is not None else self.choice.pair
        short = {"term": "term", "definition": "def"}
        more = ""
        if len(self.choice.pairs) > 1:
            more = " (+rev)" if self.choice.also == (reverse(self.choice.pair),) else " (+more)"
        mode = "practice" if self.choice.cram else self.choice.mode
        pair = named(
            lambda name: (
                f"{name(p.prompt_lang)} {short[p.prompt_side]} → "
                f"{name(p.answer_lang)} {short[p.answer_side]}{more} · {mode}"
            ),
            self.rtl_mode,
        )
        return display_text(self.deck.name, self.rtl_mode), pair

    def _stage(self) -> str | None:
        return self.flow.stage if self.flow is not None else self.choice.mode

    # -- showing --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Compose the header, the card, and only the answer panels this mode uses."""
        yield ProgressHeader(id="progress")
        yield StudyBody(self.choice.mode, rtl_mode=self.rtl_mode, id="study-body")
        yield QuizFooter()

    @stops_on_store_error
    def on_mount(self) -> None:
        """Start the study flow and show the first card."""
        self.flow = start_flow(self.service, self.choice, utcnow(), on_leech=self._leech_notice)
        self._nothing_due = self.flow.finished
        self._show()

    def _update_progress(self) -> None:
        name, pair = self._where()
        p = self._flow.progress()
        self.query_one(ProgressHeader).update(name, p.done, p.left, p.extra, pair, p.counts)

    def _show(self) -> None:
        """Put the next card (or learn question) on screen; the summary when there is none."""
        self.phase = "question"
        self._shown = time.monotonic()
        flow = self._flow
        if not flow.next(utcnow()):
            self._finish()
            return
        assert flow.card is not None
        _concept, prompt, answer = card_texts(self.deck, flow.card)
        options = [o.text for o in flow.choices.options] if flow.choices is not None else []
        self.query_one(StudyBody).ask(flow.stage, flow.card.pair, prompt, answer, options)
        self._update_progress()

    def check_action(self, action: str, _parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something now (the footer follows)."""
        if isinstance(self.focused, Input) and action in ("space", "next", "undo", "bury", "help"):
            return False  # these letters go into the answer being typed
        if action in ("space", "next"):
            return self.phase in ("feedback", "revealed") or (
                self.phase == "question" and self._stage() == "flip"
            )
        if action == "override":
            return self.phase == "feedback" and self.flow is not None and self.flow.may_override
        if action == "bury":
            return self.phase != "feedback"
        return True

    def _elapsed_ms(self) -> int:
        return min(MAX_ANSWER_MS, int((time.monotonic() - self._shown) * 1000))

    def _feedback(self, text: str, kind: str) -> None:
        self.phase = "feedback"
        self.query_one(StudyBody).feedback(text, kind)
        self._update_progress()

    # -- answers --------------------------------------------------------------

    async def action_space(self) -> None:
        """Reveal the answer (flip), grade Good once revealed (as in Anki), or go on."""
        if self.phase == "feedback":
            self._show()
            return
        if self.phase == "revealed":
            self._grade(3)
            return
        flow = self.flow
        if flow is None or flow.stage != "flip" or self.phase != "question":
            return
        flow.reveal()
        self.phase = "revealed"
        assert flow.card is not None
        # Practice changes no schedule: its grades carry no intervals.
        labels = {} if self.choice.cram else intervals(self.service, flow.card)
        await self.query_one(StudyBody).reveal(labels)

    def action_key(self, number: int) -> None:
        """1–4: a grade in flip mode, an option in choice mode."""
        if self.phase == "revealed":
            self._grade(number)
        elif self.phase == "question" and self._stage() == "choice":
            self.query_one(StudyBody).choose(number - 1)

    def on_flip_panel_graded(self, event: FlipPanel.Graded) -> None:
        """Grade the revealed card with the button the learner pressed."""
        if self.phase == "revealed":
            self._grade(event.grade)

    @stops_on_store_error
    def _grade(self, grade: int) -> None:
        self._flow.grade(cast(Grade, grade), utcnow())
        self._show()

    @stops_on_store_error
    def on_choice_panel_chosen(self, event: ChoicePanel.Chosen) -> None:
        """Check the chosen option, colour the options, and record the answer."""
        flow = self._flow
        if self.phase != "question" or flow.choices is None:
            return
        self.query_one(StudyBody).mark_choice(event.index, flow.choices.answer_index)
        outcome = flow.choose(event.index, utcnow(), self._elapsed_ms())
        if outcome.right:
            self._feedback(f"✓ Right — {outcome.outcome}", "right")
        else:
            self._feedback(f"✗ Not that one — {outcome.outcome}", "wrong")

    @stops_on_store_error
    def on_typed_panel_submitted(self, event: TypedPanel.Submitted) -> None:
        """Check the typed text against the answer, record it, and show the character diff."""
        if self.phase != "question" or self.card is None:
            return
        duration = self._elapsed_ms()
        outcome = self._flow.type_answer(event.text, utcnow(), duration)
        verdict, kind = verdict_line(outcome.check)
        self.query_one(StudyBody).show_check(outcome.check, outcome.can_override)
        self._feedback(f"{verdict} — {outcome.outcome}", kind)

    @stops_on_store_error
    def action_override(self) -> None:
        """“I was right”: count the last typed miss as right."""
        if self.phase != "feedback" or not self._flow.override(utcnow()):
            return
        self.query_one(StudyBody).hide_override()
        self._feedback("✓ Counted as right", "right")
        self.refresh_bindings()  # "I was right" leaves the footer

    def on_typed_panel_overridden(self, _event: TypedPanel.Overridden) -> None:
        """Accept a near miss as right (the "I was right" button)."""
        self.action_override()

    def _leech_notice(self, card: CardKey, suspended: bool) -> None:
        """The answer just given made ``card`` a leech: say so, and what happened to it."""
        lapses = self.service.lapses(card)
        why = f" ({lapses} lapses)" if lapses else ""
        what = "suspended" if suspended else "flagged"
        self.app.notify(
            f"This card is a leech{why}: {what} — see `quizzer leeches`.",
            title="Leech",
            severity="warning",
            timeout=10,
            markup=False,
        )

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

    @stops_on_store_error
    def action_undo(self) -> None:
        """Take back the last answer (or bury) and show that card again."""
        undone = self._flow.undo()
        if undone.undone:
            self._show()
        self.notify(undone.message)

    def action_undo_anyway(self) -> None:
        """Ctrl+Z: undo, also while the answer field has the focus."""
        self.action_undo()

    def action_bury_anyway(self) -> None:
        """Ctrl+B: bury, also while the answer field has the focus."""
        self.action_bury()

    @stops_on_store_error
    def action_bury(self) -> None:
        """Hide this card until tomorrow."""
        if self.phase == "feedback":
            return
        message = self._flow.bury(utcnow())
        if message is not None:
            self.notify(message)
            self._show()

    def action_hear(self) -> None:
        """Speak the prompt (before the answer is shown) or the answer, in its language."""
        # espeak-ng's voices are the Anki export's: its modules load only when asked.
        from quizzer.services.speech import speak

        card = self.card
        if card is None:
            return
        _concept, prompt, answer = card_texts(self.deck, card)
        p = card.pair
        asked = self.phase == "question"
        text, lang = (prompt, p.prompt_lang) if asked else (answer, p.answer_lang)
        problem = speak(text, lang)
        if problem is not None:
            self.notify(problem, severity="warning")

    def action_help(self) -> None:
        """Show the keys."""
        from quizzer.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_end(self) -> None:
        """End the session and show the summary.

        In learn mode a concept is saved once typed right: ending with concepts
        half learned warns first (press again to end anyway).
        """
        unsaved = self.flow.unsaved if self.flow is not None else 0
        if unsaved and not self._quit_warned:
            from quizzer.ui.screens.summary import concepts_count  # (the summary: at the end)

            self._quit_warned = True
            self.notify(
                f"{concepts_count(unsaved)} of this round not saved yet: a concept is saved "
                "once you type it right. Press q or Esc again to end anyway.",
                severity="warning",
                timeout=8,
            )
            return
        self._finish()

    def _finish(self) -> None:
        from quizzer.ui.screens.summary import SessionSummary, SummaryScreen

        if self._ended:
            return
        self._ended = True
        if self._quit_warned:
            self.app.clear_notifications()  # the summary says what wasn't saved
        now = utcnow()
        s = self._flow.summary(now, time.monotonic() - self._started)
        summary = SessionSummary.of(s, self._where()[0], self.choice, self.rtl_mode)
        if self.choice.cram:
            summary = replace(summary, practice=describe(self.choice.cram))
        else:
            waiting = self.service.waiting_for(self.choice, now)
            if waiting:
                summary = replace(summary, waiting=waiting)
        reason = None
        if self._nothing_due:
            reason = (
                f"No card to practise: {describe(self.choice.cram)}."
                if self.choice.cram
                else self.service.why_empty(self.choice)
            )
        self.replace_with(
            SummaryScreen(
                summary,
                from_home=self.from_home,
                deck_id=self.choice.deck,
                now=now,
                empty=self._nothing_due,
                reason=reason,
            )
        )
