"""A block of learner text in any script, wrapped and shaped for the terminal."""

from __future__ import annotations

from textual.content import Content
from textual.css.types import TextAlign
from textual.geometry import Size
from textual.reactive import reactive

from quizzer.ui.textshape import base_direction, cells, has_rtl, visual_lines
from quizzer.ui.widgets.drawn import DrawnCells


class ScriptText(DrawnCells):
    """Glossary text shown as data (never markup), wrapped before Arabic shaping.

    Arabic needs its lines wrapped in logical order and then shaped and
    reordered one by one, so this widget does its own wrapping at its content
    width (see :mod:`quizzer.ui.textshape`); Textual's wrapping is switched off.
    ``align`` is ``start`` (left, or right for right-to-left text), ``center``
    or ``end``; ``rtl_mode`` is ``app`` (shaped and reordered here) or ``terminal``
    (the terminal does it), as the app was started with.
    """

    DEFAULT_CSS = """
    ScriptText {
        height: auto;
        width: 1fr;
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    text: reactive[str] = reactive("", layout=True)

    def __init__(
        self,
        text: str = "",
        *,
        align: str = "start",
        rtl_mode: str = "app",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.align = align
        #: ``app`` (we shape and reorder) or ``terminal`` (it does).
        self.rtl_mode = rtl_mode
        self.set_reactive(ScriptText.text, text)

    def lines(self, width: int) -> list[str]:
        """The visual lines at ``width`` cells."""
        return visual_lines(self.text, width, self.rtl_mode)

    @property
    def rtl(self) -> bool:
        """Whether the text's paragraph direction is right to left."""
        return has_rtl(self.text) and base_direction(self.text) == "R"

    def _text_align(self) -> TextAlign:
        if self.align == "center":
            return "left"  # the block is centred by render(), its lines aligned within it
        rtl = self.rtl
        if self.align == "end":
            return "left" if rtl else "right"
        return "right" if rtl else "left"

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """Return the widest visual line at the container's width, in cells."""
        return max((cells(line) for line in self.lines(container.width)), default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Return the number of visual lines at ``width`` (at least one)."""
        return max(1, len(self.lines(width)))

    def on_mount(self) -> None:
        """Align the lines for the text's direction once mounted."""
        self.styles.text_align = self._text_align()

    def watch_text(self, _text: str) -> None:
        """Re-align for the new text's direction (it may switch between LTR and RTL)."""
        if self.is_mounted:
            self.styles.text_align = self._text_align()

    def render(self) -> Content:
        """Render the text (:meth:`render_text`)."""
        return self.render_text()

    def render_text(self) -> Content:
        """The visual lines as plain content, centring the block if asked."""
        width = self.content_region.width or self.size.width
        lines = self.lines(width)
        if self.align == "center" and lines:
            # Centre the block, not each line: a wrapped definition reads as a paragraph.
            widths = [cells(line) for line in lines]
            block = max(widths)
            left = " " * max(0, (width - block) // 2)
            rtl = self.rtl
            lines = [
                left + (" " * (block - w) if rtl else "") + line
                for line, w in zip(lines, widths, strict=True)
            ]
        return Content("\n".join(lines))
