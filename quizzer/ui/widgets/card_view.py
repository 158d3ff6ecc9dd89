"""The card: a framed box with the prompt and, once revealed, the answer."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.style import Style
from textual.widgets import Rule

from quizzer.concepts.languages import language_name
from quizzer.ui.widgets.drawn import DrawnLabel
from quizzer.ui.widgets.script_text import ScriptText


def side_label(lang: str, side: str) -> str:
    """``"Bengali term"`` — what a text is."""
    return f"{language_name(lang)} {side}"


class CaptionedText(ScriptText):
    """A :class:`ScriptText` under a caption line of its own (``English term``), drawn as a
    muted label of the full width above it was: one widget for the two lines of the card's
    prompt, a label fewer to compose and style before the first card. The text is bold,
    the caption not (both are one content, so a mouse selection reads them as shown)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"captioned-text--caption"}

    DEFAULT_CSS = """
    CaptionedText > .captioned-text--caption {
        color: $text-muted;
    }
    """

    #: The caption above the text.
    caption = ""

    def set_caption(self, caption: str) -> None:
        """Show ``caption`` above the text."""
        self.caption = caption
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Return the text's lines and the caption's."""
        return super().get_content_height(container, viewport, width) + 1

    def render(self) -> Content:
        """The caption in the caption's colour, then the text's lines, bold."""
        muted = self.get_visual_style("captioned-text--caption").foreground
        caption = Content.styled(self.caption.partition("\n")[0], Style(foreground=muted))
        return Content("\n").join([caption, self.render_text().stylize(Style(bold=True))])


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

    def __init__(self, *, rtl_mode: str = "app", id: str | None = None) -> None:
        super().__init__(id=id)
        #: How right-to-left texts are drawn (see :class:`ScriptText`).
        self.rtl_mode = rtl_mode
        self._answer = ("", "")  # (label, text) of the card shown
        self._answer_mounted = False

    def compose(self) -> ComposeResult:
        """Compose the prompt label and text (the answer part comes with the first reveal)."""
        yield CaptionedText("", id="prompt", align="center", rtl_mode=self.rtl_mode)

    def show(
        self, prompt: str, prompt_label: str, answer: str = "", answer_label: str = ""
    ) -> None:
        """Show a new card with its answer hidden."""
        shown = self.query_one("#prompt", CaptionedText)
        shown.set_caption(prompt_label)
        shown.text = prompt
        self._answer = (answer_label, answer)
        if self._answer_mounted:
            self.query_one("#answer-label", DrawnLabel).update(answer_label)
            self.query_one("#answer", ScriptText).text = answer
        self.set_revealed(False)

    def set_revealed(self, revealed: bool) -> None:
        """Show or hide the answer part (mounting it the first time it shows)."""
        if not self._answer_mounted:
            if not revealed:
                return
            label, text = self._answer
            # Registered at once (a query finds them now); laid out with the next refresh.
            self.mount(
                Rule(id="card-rule"),
                DrawnLabel(label, id="answer-label", classes="card-label", markup=False),
                ScriptText(text, id="answer", align="center", rtl_mode=self.rtl_mode),
            )
            self._answer_mounted = True
            return
        for selector in self.ANSWER_PART:
            self.query_one(selector).set_class(not revealed, "hidden")

    @property
    def revealed(self) -> bool:
        """Whether the answer is on screen."""
        return self._answer_mounted and not self.query_one("#answer").has_class("hidden")
