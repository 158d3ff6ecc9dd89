"""An input line drawn by grapheme clusters, in the cells a terminal gives them, and showing
right-to-left text as it will read: joined and in visual order."""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Offset
from textual.strip import Strip
from textual.widgets import Input
from textual.widgets.input import Selection

from quizzer.ui.textshape import base_direction, cells, clusters, has_rtl, shape_runs

#: Drawn before a mark that starts the value (nothing to sit on): the usual dotted circle.
_MARK_BASE = "\u25cc"


@dataclass(frozen=True, slots=True)
class DrawnCluster:
    """One grapheme cluster of the value as the field draws it: its text (shaped, in visual
    order), the value's characters it stands for (``start`` to ``end``; the cell after the
    value is ``len(value)`` to ``len(value) + 1``), and where it starts on the line, in cells."""

    text: str
    start: int
    end: int
    x: int

    @property
    def width(self) -> int:
        """The cells the terminal draws it in."""
        return cells(self.text)


def cluster_starts(value: str) -> list[int]:
    """Where each grapheme cluster of ``value`` starts, then ``len(value)``."""
    starts = [0]
    for cluster in clusters(value):
        starts.append(starts[-1] + len(cluster))
    return starts


class ScriptInput(Input):
    """Textual's :class:`~textual.widgets.Input`, its value drawn per grapheme cluster in the
    cells a terminal draws (:func:`quizzer.ui.textshape.cells`), and Arabic, Persian, Urdu
    or Hebrew drawn as it is typed the way the card shows it: letters joined, marks kept,
    right to left.

    Textual lays the value out by Rich's count, which gives a Bengali or Hindi vowel sign no
    cell, where the terminal gives it one: typed Bengali would push the field's right border
    out of line. Here any value that is not plain ASCII is drawn by this class: cut into
    grapheme clusters (a conjunct with its vowel sign is one, and so is a letter with its
    marks), measured as the terminal draws them (CJK two cells), scrolled sideways a whole
    cluster at a time so the cursor stays in view, and handed to Textual as a line exactly
    as wide as the field. The cursor and the selection cover whole clusters, Left and Right
    step over a whole cluster, and a click lands on the cluster under the mouse.

    Only the drawing changes: the value stays in logical (typing) order, so editing, the
    submitted answer and its check are Textual's own. In ``app`` mode (see
    :func:`quizzer.ui.textshape.resolve_rtl_mode`) a value with right-to-left letters is
    shaped and reordered with the cursor carried on its letter through the reordering, and
    a right-to-left line is aligned to the field's right edge, where Left and Right move
    the cursor the way they point on screen. ``terminal`` mode draws the value in typing
    order (the terminal reorders it), and an ASCII value is drawn as Textual draws it.
    """

    def __init__(
        self,
        *,
        rtl_mode: str = "app",
        placeholder: str = "",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(placeholder=placeholder, id=id, classes=classes)
        #: ``app`` (we shape and reorder) or ``terminal`` (the terminal does).
        self.rtl_mode = rtl_mode
        #: The first cell of the drawn line that the field shows: its own sideways scroll,
        #: since Textual's counts Rich's cells.
        self.first_cell = 0
        #: Where a selection made with the mouse started, while the button is held.
        self.drag_anchor: int | None = None

    def drawn_here(self) -> bool:
        """Whether this class draws the value (else Textual does): a value that is not
        plain ASCII, or one that is shaped (:meth:`shaped`)."""
        value = self.value
        return bool(value) and not self.password and not (value.isascii() and value.isprintable())

    def shaped(self) -> bool:
        """Whether the value is drawn shaped here (``app`` mode and right-to-left letters)."""
        return self.rtl_mode == "app" and not self.password and has_rtl(self.value)

    def _visual_keys(self) -> bool:
        """Whether Left and Right swap: right-to-left text drawn here reads leftwards."""
        return self.shaped() and base_direction(self.value) == "R"

    def _step(self, position: int, direction: int) -> int:
        """The cluster boundary next to ``position`` in ``direction`` (-1 back, +1 on)."""
        starts = cluster_starts(self.value)
        if direction < 0:
            return max((s for s in starts if s < position), default=0)
        return min((s for s in starts if s > position), default=len(self.value))

    def _move(self, direction: int, select: bool) -> None:
        """Move the cursor (or, with ``select``, the selection's end) a cluster."""
        start, end = self.selection
        if select:
            self.selection = Selection(start, self._step(end, direction))
        elif self.selection.is_empty:
            self.cursor_position = self._step(end, direction)
        else:
            self.cursor_position = min(start, end) if direction < 0 else max(start, end)

    def action_cursor_left(self, select: bool = False) -> None:
        """Move the cursor a cluster left on screen (in right-to-left text, on to the next)."""
        self._move(1 if self._visual_keys() else -1, select)

    def action_cursor_right(self, select: bool = False) -> None:
        """Move the cursor a cluster right on screen (in right-to-left text, back one)."""
        self._move(-1 if self._visual_keys() else 1, select)

    def action_cursor_left_word(self, select: bool = False) -> None:
        """Move a word left on screen (in right-to-left text, the next word)."""
        if self._visual_keys():
            super().action_cursor_right_word(select)
        else:
            super().action_cursor_left_word(select)

    def action_cursor_right_word(self, select: bool = False) -> None:
        """Move a word right on screen (in right-to-left text, the word before)."""
        if self._visual_keys():
            super().action_cursor_left_word(select)
        else:
            super().action_cursor_right_word(select)

    def drawn_clusters(self) -> list[DrawnCluster]:
        """The value's clusters in the order they are drawn (visual order when shaped), then
        the cell after the value, where the cursor sits at its end; each with its place on
        the whole line (before any scrolling)."""
        value = self.value
        starts = cluster_starts(value)
        starts.append(len(value) + 1)  # the cursor's cell after the value
        # Each cluster carries its own index as its "style" through shaping and reordering.
        spans = enumerate(itertools.pairwise(starts))
        runs = [((value + " ")[a:b], str(i)) for i, (a, b) in spans]
        if self.shaped():
            runs = shape_runs(runs, base_direction(value))
        drawn: list[DrawnCluster] = []
        x = 0
        for text, key in runs:
            index = int(key)
            if unicodedata.combining(text[0]) or unicodedata.category(text[0]) == "Mc":
                text = _MARK_BASE + text  # a mark with no letter to sit on
            cluster = DrawnCluster(text, starts[index], starts[index + 1], x)
            drawn.append(cluster)
            x += cluster.width
        return drawn

    def _cursor_cluster(self, drawn: list[DrawnCluster]) -> DrawnCluster:
        cursor = self.cursor_position
        return next(c for c in drawn if c.start <= cursor < c.end)

    def _window(self, drawn: list[DrawnCluster]) -> tuple[int, int]:
        """The first cell shown and the blanks before the line (a right-to-left line
        shorter than the field is aligned right); keeps :attr:`first_cell` up to date."""
        width = self.scrollable_content_region.width
        total = sum(c.width for c in drawn)
        if total <= width:
            self.first_cell = 0
            right = self.shaped() and base_direction(self.value) == "R"
            return 0, width - total if right else 0
        cursor = self._cursor_cluster(drawn)
        first = max(0, min(self.first_cell, total - width))
        first = min(first, cursor.x)
        first = max(first, cursor.x + cursor.width - width)
        self.first_cell = first
        return first, 0

    def render_line(self, y: int) -> Strip:
        """Textual's line, or the value drawn cluster by cluster (:meth:`drawn_clusters`) in
        exactly the field's width, scrolled to show the cursor."""
        if y != 0 or not self.drawn_here():
            return super().render_line(y)
        width = self.scrollable_content_region.width
        drawn = self.drawn_clusters()
        first, blanks = self._window(drawn)
        styles = self._styles_by_cluster(drawn)
        segments = [Segment(" " * blanks)] if blanks else []
        for cluster, style in zip(drawn, styles, strict=True):
            left, right = cluster.x - first, cluster.x + cluster.width - first
            if left >= width or right <= 0:
                continue
            if left < 0 or right > width:  # half of a wide cluster at an edge: blanks
                segments.append(Segment(" " * (min(right, width) - max(left, 0)), style))
            else:
                segments.append(Segment(cluster.text, style))
        used = blanks + sum(cells(segment.text) for segment in segments)
        segments.append(Segment(" " * (width - used)))
        line = Segment.apply_style(segments, self.rich_style)
        # Its width given: Textual would count the vowel signs' cells as none.
        return Strip(line, width)

    def _styles_by_cluster(self, drawn: list[DrawnCluster]) -> list[Style]:
        """Each drawn cluster's style: the cursor's on the cluster holding it, the
        selection's on a cluster any of whose characters is selected."""
        plain = Style()
        if not self.has_focus:
            return [plain] * len(drawn)
        cursor = self._cursor_cluster(drawn)
        start, end = sorted(self.selection)
        cursor_style = self.get_component_rich_style("input--cursor")
        selection = self.get_component_rich_style("input--selection")
        styles = []
        for cluster in drawn:
            if cluster is cursor:
                styles.append(cursor_style)
            elif cluster.start < end and start < cluster.end:
                styles.append(selection)
            else:
                styles.append(plain)
        return styles

    def visual_runs(self) -> list[tuple[str, Style]]:
        """The value in visual order as (text, style) runs: the selection and the cursor (a
        space after the last letter when it is at the end) styled on their clusters."""
        drawn = self.drawn_clusters()
        runs: list[tuple[str, Style]] = []
        for cluster, style in zip(drawn, self._styles_by_cluster(drawn), strict=True):
            if runs and runs[-1][1] == style:
                runs[-1] = (runs[-1][0] + cluster.text, style)
            else:
                runs.append((cluster.text, style))
        return runs

    @property
    def cursor_screen_offset(self) -> Offset:
        """Where the cursor is on screen (for the terminal's own cursor, where an input
        method draws): on its cluster as drawn here."""
        if not self.drawn_here():
            return super().cursor_screen_offset
        drawn = self.drawn_clusters()
        first, blanks = self._window(drawn)
        x, y, _width, _height = self.content_region
        return Offset(x + blanks + self._cursor_cluster(drawn).x - first, y)

    def index_at(self, x: int) -> int:
        """The value's index for the cell ``x`` cells from the field's content edge: the
        start of the cluster drawn there (past the text, its nearer end)."""
        drawn = self.drawn_clusters()
        first, blanks = self._window(drawn)
        cell = x - blanks + first
        for cluster in drawn:
            if cluster.x <= cell < cluster.x + cluster.width:
                return min(cluster.start, len(self.value))
        if cell < 0:
            return drawn[0].start if drawn else 0
        return min(drawn[-1].start, len(self.value)) if drawn else 0

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Put the cursor on the cluster clicked, and select while the button is held."""
        if not self.drawn_here():
            return
        # Textual's own handler counts Rich's cells from its own scroll: not here.
        event.prevent_default()
        self.drag_anchor = self.index_at(event.get_content_offset_capture(self).x)
        self.selection = Selection.cursor(self.drag_anchor)
        self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Extend the selection made with the mouse to the cluster under it."""
        if self.drag_anchor is None:
            return
        event.prevent_default()
        index = self.index_at(event.get_content_offset_capture(self).x)
        self.selection = Selection(self.drag_anchor, index)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """Stop selecting with the mouse."""
        if self.drag_anchor is not None:
            event.prevent_default()
            self.release_mouse()

    def on_mouse_release(self, event: events.MouseRelease) -> None:
        """The mouse is no longer captured here."""
        self.drag_anchor = None
