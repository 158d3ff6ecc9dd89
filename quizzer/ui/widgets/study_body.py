"""The study screen's body: the card, a hint, the mode's answer panels and the feedback row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Static

from quizzer.cards.card import Pair
from quizzer.ui.language_labels import Captions, named
from quizzer.ui.widgets.card_view import CardView, side_captions
from quizzer.ui.widgets.drawn import DrawnStatic
from quizzer.ui.widgets.fitted_line import FittedLine
from quizzer.ui.widgets.flip_panel import FlipPanel

if TYPE_CHECKING:
    from quizzer.study.answers import AnswerCheck
    from quizzer.ui.widgets.choice_panel import ChoicePanel
    from quizzer.ui.widgets.typed_panel import TypedPanel

#: Each stage's panel, by id (a mode's panels only are composed).
_PANELS = {"flip": "flip-panel", "choice": "choices-panel", "typed": "typed-panel"}


class StudyBody(VerticalScroll):
    """What the learner answers in ``mode``: only the panels that mode uses are composed.

    Flip mode has the :class:`FlipPanel`; choice, typed and learn mode the Continue
    row and the :class:`ChoicePanel` and/or :class:`TypedPanel`. The panels' messages
    bubble up to the screen. ``rtl_mode`` is how right-to-left texts are drawn (see
    :class:`~quizzer.ui.widgets.script_text.ScriptText`).
    """

    DEFAULT_CSS = """
    StudyBody {
        /* The scrollbar's column is kept even when nothing overflows: feedback that
           makes the body overflow must not narrow and re-wrap the card. */
        scrollbar-gutter: stable;
    }
    StudyBody #hint {
        color: $text-muted;
        margin: 0 2;
        height: auto;
    }
    StudyBody #continue-row {
        height: auto;
        margin: 0 2;
    }
    StudyBody #feedback {
        width: 1fr;
        text-style: bold;
    }
    StudyBody #feedback.-right { color: $success; }
    StudyBody #feedback.-near { color: $warning; }
    StudyBody #feedback.-wrong { color: $error; }
    StudyBody #continue {
        width: auto;
    }
    """

    def __init__(self, mode: str, *, rtl_mode: str = "app", id: str | None = None) -> None:
        super().__init__(id=id)
        self.mode = mode
        self.rtl_mode = rtl_mode
        self._to_end = False
        self._asked = False
        #: The widget to keep in sight once the answer widgets are shown (a marked option).
        self._in_sight: Widget | None = None

    def allow_focus(self) -> bool:
        """Focusable (to scroll it with the keys) once it shows a card: Textual's auto-focus
        would otherwise focus it as the screen composes, for :meth:`ask` to take the focus
        back, two restylings of the body before the first card for nothing. The screen's
        resume, after its first card, focuses it as before when nothing else has the focus."""
        return self._asked and super().allow_focus()

    def compose(self) -> ComposeResult:
        """Compose the card, the hint and this mode's panels (fewer widgets, faster first card)."""
        yield CardView(rtl_mode=self.rtl_mode, id="card")
        yield FittedLine(id="hint")
        if self.mode != "flip":  # (flip mode's panel is mounted with the first answer shown)
            with Horizontal(id="continue-row", classes="hidden"):
                yield DrawnStatic("", id="feedback", markup=False)
                button = Button("Continue (Enter)", id="continue", compact=True, variant="primary")
                # Textual ignores a press while the last one's 0.2 s "active" flash
                # lasts; a quick learner's next Enter must not be lost.
                button.active_effect_duration = 0
                yield button
        # A mode's panels are imported when a session of that mode starts: flip mode,
        # the benchmark's, loads neither the options' nor the typed answer's widgets.
        if self.mode in ("choice", "learn"):
            from quizzer.ui.widgets.choice_panel import ChoicePanel

            yield ChoicePanel(rtl_mode=self.rtl_mode, id=_PANELS["choice"], classes="hidden")
        if self.mode in ("typed", "learn"):
            from quizzer.ui.widgets.typed_panel import TypedPanel

            yield TypedPanel(rtl_mode=self.rtl_mode, id=_PANELS["typed"], classes="hidden")

    def _show_panel(self, stage: str | None) -> None:
        """Show the panel of ``stage`` only (``None``: none) and hide the Continue row."""
        for name, panel in _PANELS.items():
            self.query(f"#{panel}").set_class(name != stage, "hidden")
        self.query("#continue-row").add_class("hidden")

    def _hint(self, text: str | Captions) -> None:
        hint = self.query_one("#hint", FittedLine)
        hint.display = True
        hint.show(text)

    def ask(
        self, stage: str | None, pair: Pair, prompt: str, answer: str, options: Sequence[str] = ()
    ) -> None:
        """Show a new card (answer hidden), asked as ``stage`` (a choice with ``options``)."""
        self.query_one(CardView).show(
            prompt,
            side_captions(pair.prompt_lang, pair.prompt_side, self.rtl_mode),
            answer,
            side_captions(pair.answer_lang, pair.answer_side, self.rtl_mode),
        )
        self._to_end = False
        self._in_sight = None
        self.scroll_home(animate=False)
        if stage == "flip":
            self._show_panel(None)  # the grades come with the answer
            self._hint(FlipPanel.QUESTION_HINT)
            self.screen.set_focus(None)
        elif stage == "choice":
            self._show_panel("choice")
            panel = self._choices()
            self._hint(panel.HINT)
            panel.ask(options)
        else:
            self._show_panel("typed")
            typed = self._typed()
            lang, side = pair.answer_lang, pair.answer_side
            self._hint(named(lambda name: typed.hint(f"{name(lang)} {side}"), self.rtl_mode))
            typed.ask()
        self._asked = True

    def _choices(self) -> ChoicePanel:
        from quizzer.ui.widgets.choice_panel import ChoicePanel

        return self.query_one(f"#{_PANELS['choice']}", ChoicePanel)

    def _typed(self) -> TypedPanel:
        from quizzer.ui.widgets.typed_panel import TypedPanel

        return self.query_one(f"#{_PANELS['typed']}", TypedPanel)

    async def reveal(self, intervals: Mapping[int, str]) -> None:
        """Flip mode: show the answer and the grade buttons with their ``intervals``."""
        self.query_one(CardView).set_revealed(True)
        panels = self.query(FlipPanel)
        if panels:
            panel = panels.first()
        else:
            # Mounted here, not composed hidden: a widget fewer before the first card.
            panel = FlipPanel(id=_PANELS["flip"], classes="hidden")
            await self.mount(panel)
        await panel.reveal(intervals)
        self._show_panel("flip")
        self._hint(FlipPanel.REVEALED_HINT)
        self._show_end()

    def _show_end(self) -> None:
        """On a short screen, scroll so the answer widgets at the bottom are in sight.

        Until the next card, every new layout (the diff, the buttons) scrolls
        there again: see :meth:`watch_virtual_size`.
        """
        self._to_end = True
        self._scroll_to_answer()

    def _scroll_to_answer(self) -> None:
        if self._in_sight is None:
            self.scroll_end(animate=False)
        else:  # the end, then back up as little as the marked option needs
            self.scroll_end(animate=False, immediate=True)
            self.scroll_to_widget(self._in_sight, animate=False, immediate=True)

    def watch_virtual_size(self, _old: object, _new: object) -> None:
        """Keep the answer widgets in sight while they are laid out (see :meth:`_show_end`)."""
        if self._to_end:
            self._scroll_to_answer()

    def choose(self, index: int) -> None:
        """Pick option ``index`` of the choice question (a number key)."""
        self._choices().choose(index)

    def mark_choice(self, chosen: int, correct: int) -> None:
        """Mark the options ✓ and ✗ and keep the right one in sight.

        The answer is not added to the card: the option marked ✓ is the answer, and a
        card grown by a long answer re-wrapped and pushed the options down, out of a
        short terminal's view.
        """
        self._in_sight = self._choices().mark(chosen, correct)

    def show_check(self, check: AnswerCheck, can_override: bool) -> None:
        """Show the answer and the typed answer's diff under the field (and maybe "I was
        right"); the card stays as it is."""
        self._typed().show_check(check, can_override)

    def hide_override(self) -> None:
        """Take the "I was right" button away."""
        self._typed().hide_override()

    def feedback(self, text: str, kind: str) -> None:
        """Say how the answer went (``kind``: right, near or wrong) and focus Continue."""
        feedback = self.query_one("#feedback", Static)
        feedback.update(text)
        feedback.remove_class("-right", "-near", "-wrong")
        feedback.add_class(f"-{kind}")
        self.query_one("#continue-row").remove_class("hidden")
        self.query_one("#continue", Button).focus(scroll_visible=False)
        self.query_one("#hint").display = False
        self._show_end()
