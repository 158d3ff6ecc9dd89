"""The card: a framed box with the prompt and, once revealed, the answer."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, Rule

from quizzer.concepts.languages import LANGUAGE_NAMES
from quizzer.ui.widgets.script_text import ScriptText


def side_label(lang: str, side: str) -> str:
    """``"Bengali term"`` — what a text is."""
    return f"{LANGUAGE_NAMES.get(lang, lang)} {side}"


class CardView(Vertical):
    """Prompt above a rule, the answer below it (hidden until :meth:`reveal`)."""

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

    def compose(self) -> ComposeResult:
        """Compose the prompt label and text, a rule, and the hidden answer label and text."""
        yield Label("", id="prompt-label", classes="card-label", markup=False)
        yield ScriptText("", id="prompt", align="center")
        yield Rule(id="card-rule", classes="hidden")
        yield Label("", id="answer-label", classes="card-label hidden", markup=False)
        yield ScriptText("", id="answer", align="center", classes="hidden")

    def show(
        self, prompt: str, prompt_label: str, answer: str = "", answer_label: str = ""
    ) -> None:
        """Show a new card with its answer hidden."""
        self.query_one("#prompt-label", Label).update(prompt_label)
        self.query_one("#prompt", ScriptText).text = prompt
        self.query_one("#answer-label", Label).update(answer_label)
        self.query_one("#answer", ScriptText).text = answer
        self.set_revealed(False)

    def set_revealed(self, revealed: bool) -> None:
        """Show or hide the answer part."""
        for selector in ("#card-rule", "#answer-label", "#answer"):
            self.query_one(selector).set_class(not revealed, "hidden")

    @property
    def revealed(self) -> bool:
        """Whether the answer is on screen."""
        return not self.query_one("#answer").has_class("hidden")
