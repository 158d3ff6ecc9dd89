"""The card: a framed box with the prompt and, once revealed, the answer."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.style import Style
from textual.widgets import Rule

from quizzer.ui.language_labels import Captions, fit_caption, named
from quizzer.ui.widgets.drawn import DrawnCells
from quizzer.ui.widgets.script_text import ScriptText


def side_captions(lang: str, side: str, rtl_mode: str = "app") -> Captions:
    """What a text is, its language named in itself: ``"Bangla · বাংলা term"`` where the
    line has room, ``"বাংলা term"`` where it hasn't (the names drawn as they read)."""
    return named(lambda name: f"{name(lang)} {side}", rtl_mode)


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

    #: The caption above the text, and its shorter form (:func:`side_captions`).
    captions: Captions = ("", "")

    @property
    def caption(self) -> str:
        """The caption as shown at the widget's width."""
        width = self.content_region.width or self.size.width
        return fit_caption(self.captions, width)

    def set_caption(self, captions: Captions) -> None:
        """Show ``captions`` (the first where it fits, else the second) above the text."""
        self.captions = captions
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Return the text's lines and the caption's."""
        return super().get_content_height(container, viewport, width) + 1

    def render(self) -> Content:
        """The caption in the caption's colour, then the text's lines, bold."""
        muted = self.get_visual_style("captioned-text--caption").foreground
        caption = Content.styled(self.caption, Style(foreground=muted))
        return Content("\n").join([caption, self.render_text().stylize(Style(bold=True))])


class CaptionLine(DrawnCells):
    """One line naming a text (:func:`side_captions`): the long caption where it fits, else
    the short one, cut with "…" where even that is too long."""

    DEFAULT_CSS = """
    CaptionLine {
        height: 1;
    }
    """

    def __init__(
        self, captions: Captions, *, id: str | None = None, classes: str = "card-label"
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.captions = captions

    def update(self, captions: Captions) -> None:
        """Show ``captions`` from now on."""
        self.captions = captions
        self.refresh()

    def render(self) -> Content:
        """The caption that fits the line."""
        width = self.content_region.width or self.size.width
        return Content(fit_caption(self.captions, width))


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
        self._answer: tuple[Captions, str] = (("", ""), "")  # (captions, text) of the card
        self._answer_mounted = False

    def compose(self) -> ComposeResult:
        """Compose the prompt label and text (the answer part comes with the first reveal)."""
        yield CaptionedText("", id="prompt", align="center", rtl_mode=self.rtl_mode)

    def show(
        self,
        prompt: str,
        prompt_label: Captions,
        answer: str = "",
        answer_label: Captions = ("", ""),
    ) -> None:
        """Show a new card with its answer hidden."""
        shown = self.query_one("#prompt", CaptionedText)
        shown.set_caption(prompt_label)
        shown.text = prompt
        self._answer = (answer_label, answer)
        if self._answer_mounted:
            self.query_one("#answer-label", CaptionLine).update(answer_label)
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
                CaptionLine(label, id="answer-label"),
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
