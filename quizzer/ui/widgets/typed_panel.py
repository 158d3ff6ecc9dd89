"""Typed mode's answer part: the input line, then the verdict's character diff."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message

from quizzer.ui.textshape import display_text
from quizzer.ui.widgets.answer_diff import diff_content
from quizzer.ui.widgets.typed_answer import TypedAnswer

if TYPE_CHECKING:
    from quizzer.study.answers import AnswerCheck


class TypedPanel(Vertical):
    """Posts :class:`TypedPanel.Submitted` (text typed) and :class:`TypedPanel.Overridden`."""

    DEFAULT_CSS = """
    TypedPanel {
        height: auto;
    }
    """

    class Submitted(Message):
        """The learner pressed Enter on ``text`` (logical order, as typed)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Overridden(Message):
        """The learner says a near miss was right (the "I was right" button)."""

    def __init__(
        self, *, rtl_mode: str = "app", id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        #: How the diff's right-to-left text is drawn (see :class:`ScriptText`).
        self.rtl_mode = rtl_mode

    @staticmethod
    def hint(answer_label: str) -> str:
        """``"Type the Bangla · বাংলা term, Enter to check"`` for ``answer_label`` (what the
        answer is, its language named as the card's captions name it)."""
        return f"Type the {answer_label}, Enter to check"

    def compose(self) -> ComposeResult:
        """Compose the answer field."""
        yield TypedAnswer(rtl_mode=self.rtl_mode, id="typed-answer")

    def ask(self) -> None:
        """Clear the field for a new card and focus it."""
        self.query_one(TypedAnswer).reset()

    def show_check(self, check: AnswerCheck, can_override: bool) -> None:
        """Lock the field, show the answer (unless typed right) and the character diff
        under it and, if ``can_override``, "I was right".

        The answer is told here, below the field, not added to the card: a card grown
        by its answer pushed the field down and scrolled the card on a short screen.
        """
        answer = None
        if not check.right:
            shown = display_text(check.expected, self.rtl_mode)
            answer = Content.assemble(("answer: ", "$text-muted"), (shown, "bold"))
        diff = diff_content(check, self.rtl_mode)
        self.query_one(TypedAnswer).show_feedback(answer, diff, can_override)

    def hide_override(self) -> None:
        """Take the "I was right" button away (it was used)."""
        self.query_one("#i-was-right").add_class("hidden")

    def on_typed_answer_submitted(self, event: TypedAnswer.Submitted) -> None:
        """Pass the answer on as :class:`TypedPanel.Submitted`."""
        event.stop()
        self.post_message(self.Submitted(event.text))

    def on_typed_answer_overridden(self, event: TypedAnswer.Overridden) -> None:
        """Pass "I was right" on as :class:`TypedPanel.Overridden`."""
        event.stop()
        self.post_message(self.Overridden())
