"""A widget that shows one Rich renderable (a table of the statistics) rendered once per width.

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
from textual.geometry import Size
from textual.render import measure
from textual.strip import Strip
from textual.widget import Widget


class RenderedTable(Widget):
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
        self._widths: dict[int, int] = {}
        self._lines: tuple[int, list[Strip]] | None = None

    def _strips(self, width: int) -> list[Strip]:
        """The renderable's lines at ``width`` (rendered once for it)."""
        if self._lines is not None and self._lines[0] == width:
            return self._lines[1]
        app = self.app
        options = app.console_options.update(highlight=False, width=width, height=None)
        renderable = self.post_render(self.renderable, self.visual_style.rich_style)
        segments = app.console.render(renderable, options.update_width(width))
        lines = Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
        strips = [Strip(line) for line in islice(lines, None)]
        self._lines = (width, strips)
        return strips

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The renderable's widest line, at most the container's width (measured once)."""
        width = self._widths.get(container.width)
        if width is None:
            console = self.app.console
            width = measure(
                console, self.renderable, container.width, container_width=container.width
            )
            self._widths[container.width] = width
        return width

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
