"""The typed answer: an input line (kept in typing order, right-to-left text drawn shaped),
then a character diff."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, Static

from quizzer.ui.widgets.drawn import DrawnStatic
from quizzer.ui.widgets.script_input import ScriptInput


class TypedAnswer(Vertical):
    """Posts :class:`TypedAnswer.Submitted` with the logical-order text typed."""

    DEFAULT_CSS = """
    TypedAnswer {
        height: auto;
        margin: 1 2 0 2;
    }
    TypedAnswer #diff, TypedAnswer #right-answer { height: auto; }
    TypedAnswer #i-was-right { margin: 0; }
    TypedAnswer .hidden { display: none; }
    """

    class Submitted(Message):
        """The learner pressed Enter on ``text``."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Overridden(Message):
        """The learner says a near miss was right."""

    def __init__(self, *, rtl_mode: str = "app", id: str | None = None) -> None:
        super().__init__(id=id)
        #: How right-to-left text is drawn while it is typed (see :class:`ScriptInput`).
        self.rtl_mode = rtl_mode

    def compose(self) -> ComposeResult:
        """Compose the input line, the hidden diff and the hidden "I was right" button."""
        yield ScriptInput(
            rtl_mode=self.rtl_mode, placeholder="type the answer, Enter to check", id="typed"
        )
        yield DrawnStatic("", id="right-answer", classes="hidden", markup=False)
        yield DrawnStatic("", id="diff", classes="hidden", markup=False)
        yield Button("I was right (r)", id="i-was-right", classes="hidden", compact=True)

    def reset(self) -> None:
        """Clear for a new card and focus the input."""
        field = self.query_one(Input)
        field.value = ""
        field.disabled = False
        for selector in ("#right-answer", "#diff", "#i-was-right"):
            self.query_one(selector).add_class("hidden")
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Post :class:`TypedAnswer.Submitted` unless the input is blank."""
        event.stop()
        if event.value.strip():
            self.post_message(self.Submitted(event.value))

    def show_feedback(
        self, answer: Content | None, diff: Content | None, can_override: bool
    ) -> None:
        """After a check: lock the input, show the right answer and the character diff
        (each if given) and maybe "I was right"."""
        self.query_one(Input).disabled = True
        for selector, content in (("#right-answer", answer), ("#diff", diff)):
            widget = self.query_one(selector, Static)
            widget.update(content or "")
            widget.set_class(content is None, "hidden")
        self.query_one("#i-was-right").set_class(not can_override, "hidden")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Post :class:`TypedAnswer.Overridden` and hide the "I was right" button."""
        event.stop()
        if event.button.id == "i-was-right":
            event.button.add_class("hidden")
            self.post_message(self.Overridden())
