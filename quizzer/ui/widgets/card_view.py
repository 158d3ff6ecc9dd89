"""The card: a framed box with the prompt and, once revealed, the answer."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from quizzer.concepts.languages import LANGUAGE_NAMES
from quizzer.ui.widgets.script_text import ScriptText


def side_label(lang: str, side: str) -> str:
    """``"Bengali term"`` — what a text is."""
    return f"{LANGUAGE_NAMES.get(lang, lang)} {side}"


class CardView(Vertical):
    """Prompt above a rule, the answer below it (hidden until :meth:`set_revealed`).

    The rule and the answer are mounted the first time the answer shows: the first card
    is painted without them (three widgets fewer to build before it).
    """

    DEFAULT_CSS = """
    CardView {
        height: auto;
        max-height: 1fr;
        border: round $primary;
        padding: 0 2;
        margin: 1 2 0 2;
        overflow-y: auto;
    }
    CardView .card-label {
        color: $text-muted;
        width: 1fr;
    }
    CardView #prompt {
        text-style: bold;
        margin: 0 0 1 0;
    }
    CardView Rule {
        margin: 0;
        color: $primary 50%;
    }
    CardView .hidden {
        display: none;
    }
    """

    #: The widgets of the answer part, once mounted.
    ANSWER_PART = ("#card-rule", "#answer-label", "#answer")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._answer = ("", "")  # (label, text) of the card shown
        self._answer_mounted = False

    def compose(self) -> ComposeResult:
        """Compose the prompt label and text (the answer part comes with the first reveal)."""
        yield Label("", id="prompt-label", classes="card-label", markup=False)
        yield ScriptText("", id="prompt", align="center")

    def show(
        self, prompt: str, prompt_label: str, answer: str = "", answer_label: str = ""
    ) -> None:
        """Show a new card with its answer hidden."""
        self.query_one("#prompt-label", Label).update(prompt_label)
        self.query_one("#prompt", ScriptText).text = prompt
        self._answer = (answer_label, answer)
        if self._answer_mounted:
            self.query_one("#answer-label", Label).update(answer_label)
            self.query_one("#answer", ScriptText).text = answer
        self.set_revealed(False)

    def set_revealed(self, revealed: bool) -> None:
        """Show or hide the answer part (mounting it the first time it shows)."""
        if not self._answer_mounted:
            if not revealed:
                return
            from textual.widgets import Rule

            label, text = self._answer
            # Registered at once (a query finds them now); laid out with the next refresh.
            self.mount(
                Rule(id="card-rule"),
                Label(label, id="answer-label", classes="card-label", markup=False),
                ScriptText(text, id="answer", align="center"),
            )
            self._answer_mounted = True
            return
        for selector in self.ANSWER_PART:
            self.query_one(selector).set_class(not revealed, "hidden")

    @property
    def revealed(self) -> bool:
        """Whether the answer is on screen."""
        return self._answer_mounted and not self.query_one("#answer").has_class("hidden")
