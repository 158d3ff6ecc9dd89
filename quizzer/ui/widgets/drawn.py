"""The app's widgets with their lines fitted to the cells the terminal draws.

:class:`DrawnCells` fits every line a widget renders (Textual's ``render_line``, its line
API) with :func:`quizzer.ui.drawn_cells.fit_line` and hands it on as a
:class:`~textual.strip.Strip` given its width explicitly, which Textual keeps through
padding, borders and compositing.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import RenderResult
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import RenderOptions
from textual.widget import Widget
from textual.widgets import OptionList, Static

from quizzer.ui.drawn_cells import fit_line
from quizzer.ui.textshape import cells, line_spans


def fit_strip(strip: Strip, width: int, style: Style | None = None) -> Strip:
    """``strip`` as the terminal will draw it in exactly ``width`` cells."""
    strip = strip.adjust_cell_length(width, style)  # padded (or cut) by Rich's count
    if all(segment.text.isascii() for segment in strip):
        return strip
    return Strip(fit_line(list(strip), width, style), width)


class CellWrapped(Content):
    """A :class:`~textual.content.Content` wrapped by the cells the terminal draws
    (:func:`quizzer.ui.textshape.line_spans`), its styles kept.

    Textual wraps by Rich's count, which gives a Hindi or Bengali vowel sign no cell: a
    line it wraps can be wider than the widget on a terminal (and :func:`fit_strip` would
    cut it). The lines this gives fit by both counts, so Textual leaves them as they are.
    """

    @classmethod
    def of(cls, content: Content) -> CellWrapped:
        """``content``, to be wrapped by drawn cells."""
        return cls(content.plain, list(content.spans), strip_control_codes=False)

    def _wrapped(self, width: int) -> Content:
        whole = Content(self.plain, list(self.spans), strip_control_codes=False)
        return Content("\n").join(whole[start:end] for start, end in line_spans(self.plain, width))

    def render_strips(
        self, width: int, height: int | None, style: VisualStyle, options: RenderOptions
    ) -> list[Strip]:
        """The lines wrapped here, rendered as Textual renders a content (aligned as its
        rules say)."""
        if options.rules.get("text_wrap", "wrap") == "nowrap":
            return super().render_strips(width, height, style, options)
        return self._wrapped(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        """The widest line, in drawn cells."""
        return max((cells(line) for line in self.plain.split("\n")), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        """How many lines at ``width``."""
        if rules.get("text_wrap", "wrap") == "nowrap":
            return super().get_height(rules, width)
        return len(line_spans(self.plain, width))


def cell_wrapped(visual: RenderResult) -> RenderResult:
    """``visual`` wrapped by drawn cells when it is a text (:class:`CellWrapped`)."""
    return CellWrapped.of(visual) if isinstance(visual, Content) else visual


def fitted(widget: Widget, line: Strip) -> Strip:
    """A line ``widget`` rendered, fitted to its content's width in drawn cells."""
    return fit_strip(line, widget.content_region.width, widget.visual_style.rich_style)


class DrawnCells(Widget):
    """A widget whose every line is fitted to the cells the terminal draws (:func:`fit_strip`).

    For a direct subclass of ``Widget`` only: Textual's CSS follows a class's first base, so
    a subclass of a built-in widget overrides ``render_line`` with :func:`fitted` instead.
    """

    def render_line(self, y: int) -> Strip:
        """The line Textual renders, fitted."""
        return fitted(self, super().render_line(y))


class DrawnStatic(Static):
    """Textual's :class:`~textual.widgets.Static`, its text wrapped and its lines fitted to
    the cells drawn."""

    def render(self) -> RenderResult:
        """The text, wrapped by drawn cells (:class:`CellWrapped`)."""
        return cell_wrapped(super().render())

    def render_line(self, y: int) -> Strip:
        """The line Textual renders, fitted."""
        return fitted(self, super().render_line(y))


class DrawnOptionList(OptionList):
    """Textual's :class:`~textual.widgets.OptionList`, its lines fitted to the cells drawn,
    with a scroll bar of its own.

    Textual draws a scroll bar as a widget over the list and cuts the list's lines where it
    starts, counting Rich's cells: a line holding Hindi or Bengali would be cut a few cells
    too far, and in a full repaint the bar and the border after it pushed to the right.
    Textual's bar is hidden here (its column kept), and the list draws the bar in that
    column itself, as part of each line, and takes the mouse there itself: its thumb is
    dragged, and a click on the track above or below the thumb pages up or down.
    """

    DEFAULT_CSS = """
    DrawnOptionList { scrollbar-visibility: hidden; }
    """

    #: While the thumb is dragged: the line of the thumb the mouse holds (else ``None``).
    thumb_grip: int | None = None

    def render_line(self, y: int) -> Strip:
        """The option's line fitted to the list's width, then the scroll bar's cell."""
        style = self.visual_style.rich_style
        inner = self.scrollable_content_region.width
        line = fit_strip(super().render_line(y), inner, style)
        bar = self.content_region.width - inner
        if bar <= 0:
            return line
        return Strip([*line, Segment(" " * bar, self._bar_style(y))], inner + bar)

    def thumb(self) -> tuple[int, int]:
        """The scroll bar's thumb: its first line and how many lines it takes (of the
        lines the list shows)."""
        height = max(1, self.scrollable_content_region.height)
        total = max(height, self.virtual_size.height)
        size = max(1, round(height * height / total))
        top = min(height - size, round(self.scroll_offset.y * height / total))
        return top, size

    def _bar_style(self, y: int) -> Style:
        """The scroll bar's colour at line ``y``: the thumb's where it is, else the track's."""
        top, size = self.thumb()
        styles = self.styles
        color = styles.scrollbar_color if top <= y < top + size else styles.scrollbar_background
        return Style(bgcolor=(self.background_colors[1] + color).rich_color)

    def _in_bar(self, event: events.MouseEvent) -> bool:
        """Whether ``event`` is on the scroll bar's column (when the list shows a bar)."""
        offset = event.get_content_offset(self)
        if offset is None or not self.show_vertical_scrollbar:
            return False
        return offset.x >= self.scrollable_content_region.width

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """On the thumb, take hold of it; on the track, page towards the mouse."""
        if not self._in_bar(event):
            return
        event.stop()
        y = event.get_content_offset_capture(self).y
        top, size = self.thumb()
        if y < top:
            self.scroll_page_up(animate=False)
        elif y >= top + size:
            self.scroll_page_down(animate=False)
        else:
            self.thumb_grip = y - top
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """While the thumb is held, move it (and the list) with the mouse."""
        if self.thumb_grip is None:
            return
        event.stop()
        height = max(1, self.scrollable_content_region.height)
        total = max(height, self.virtual_size.height)
        top = event.get_content_offset_capture(self).y - self.thumb_grip
        self.scroll_to(y=round(top * total / height), animate=False)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """Let go of the thumb."""
        if self.thumb_grip is not None:
            event.stop()
            self.release_mouse()

    def on_mouse_release(self, event: events.MouseRelease) -> None:
        """The mouse is no longer captured here (let go, or taken by another widget)."""
        self.thumb_grip = None
