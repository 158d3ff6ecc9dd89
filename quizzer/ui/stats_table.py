"""Widgets showing one Rich renderable (a table or chart of the statistics) rendered once per width.

A ``Static`` holding a Rich table renders it whole to measure its width, again to
count its lines, and again to paint it, at each layout pass; the statistics screen
has a dozen such tables, and at a million answers that was most of the time between
its figures being counted and their being on the screen. :class:`RenderedTable`
renders its table once for a width (as ``Static`` would: the same console options and
the widget's own style, so the screen looks the same) and answers the layout's
questions and each line from that.
"""

from __future__ import annotations

from itertools import islice

from rich.console import RenderableType
from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip

from quizzer.ui.textshape import cells
from quizzer.ui.widgets.drawn import DrawnCells


class RenderedTable(DrawnCells):
    """Shows ``renderable`` (a table, or any Rich renderable), rendered once per width."""

    DEFAULT_CSS = """
    RenderedTable {
        height: auto;
        width: auto;
    }
    """

    def __init__(
        self, renderable: RenderableType, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.renderable = renderable
        #: Renders kept: (width asked, widest line, lines). A table narrower than the
        #: width it was given is laid out the same at any width from its own up.
        self._renders: list[tuple[int, int, list[Strip]]] = []

    def _rendered_at(self, width: int) -> tuple[int, list[Strip]]:
        """The renderable's widest line and its lines at ``width`` (rendered once for it)."""
        for asked, widest, strips in self._renders:
            if width == asked or widest <= width < asked:
                return widest, strips
        app = self.app
        options = app.console_options.update(highlight=False, width=width, height=None)
        renderable = self.post_render(self.renderable, self.visual_style.rich_style)
        segments = app.console.render(renderable, options.update_width(width))
        lines = Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
        strips = [Strip(line) for line in islice(lines, None)]
        widest = max((cells(strip.text) for strip in strips), default=0)
        self._renders = [*self._renders[-3:], (width, widest, strips)]
        return widest, strips

    def _strips(self, width: int) -> list[Strip]:
        return self._rendered_at(width)[1]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The renderable's widest line at the container's width (its lines kept for later).

        As wide as Rich measures it (a table: its columns' widest cells), without a pass of
        its own over every cell; laid out narrower than the container, the lines are the
        same at that narrower width, so they are rendered once.
        """
        return self._rendered_at(container.width)[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The number of lines at ``width``."""
        return len(self._strips(width))

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the renderable at the widget's width."""
        width = self.size.width
        lines = self._strips(width)
        if 0 <= y < len(lines):
            return lines[y].extend_cell_length(width, self.visual_style.rich_style)
        return Strip.blank(width, self.visual_style.rich_style)


class RenderedChart(RenderedTable):
    """Shows a chart ``text`` of lines that never wrap: as wide as its widest line whatever the
    room (the screen scrolls sideways where it doesn't fit), rendered once at that width.

    The charts were widgets rendering their text themselves, which Textual turned into
    styles again for every one of a year's cells at each layout question.
    """

    def __init__(self, text: Text, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(text, id=id, classes=classes)
        self._show(text)

    def _show(self, text: Text) -> None:
        """Show ``text`` from now on (its lines rendered anew)."""
        self.renderable = text
        self._width = max((cells(line) for line in text.plain.split("\n")), default=0)
        self._renders = []

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The widest line of the chart, at any container width."""
        return self._width
