"""Lines as wide as the terminal draws them, not as Rich's tables count them.

Terminals in a multiplexer (tmux, and xterm and VTE under it) ask the C library's
``wcwidth`` for each code point, and it gives a spacing vowel sign (Unicode category
Mc: Devanagari ि ी, Bengali া ো) a cell of its own. Rich's width tables, which Textual
measures every line with, give those signs none, so a line of Hindi or Bengali that
Textual pads to the width of its widget is drawn wider than that: in a full repaint
the border after it is pushed to the right, or off the line.

:func:`fit_line` takes a line Rich or Textual rendered and makes what the terminal draws
of it as wide as they laid it out, measuring with :func:`quizzer.ui.textshape.cells`:
it takes the surplus out of the line's padding (trailing, then leading blanks), cuts the
text between grapheme clusters only when there is no padding left, and pads a line the
terminal draws narrower. :mod:`quizzer.ui.widgets.drawn` applies it to the lines of the
app's widgets, :class:`DrawnWidths` to what the command line prints.

One limit: where Textual cuts a widget's line itself, it counts Rich's cells, and no
line holding a vowel sign can be cut right by that count. A list's scroll bar would cut
every line, so lists draw their own (:class:`quizzer.ui.widgets.drawn.DrawnOptionList`);
a notification drawn over part of such a line, or a widget scrolled partly out of view
sideways, can leave it a few cells off until the next repaint.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style

from quizzer.ui.textshape import cells, clusters


def _drawn(segments: list[Segment]) -> int:
    return sum(cells(segment.text) for segment in segments if not segment.control)


def close_gaps(segments: list[Segment]) -> tuple[list[Segment], int]:
    """The line with the cells the terminal draws beyond Rich's count taken out of the
    padding after them, and what is left over (no padding after it).

    Padding is the blanks ending a segment (what Rich and Textual add to fill a width come
    as segments of their own, or at a segment's end); the spaces between the words of a
    text are never taken. Taken as early as possible, so that from the padding after a
    Hindi word on, a column of the line is the same for Rich and for the terminal: where
    Textual cuts the line (at a scroll bar, a widget over it), it cuts at the right place.
    """
    out: list[Segment] = []
    drift = 0  # cells drawn so far beyond Rich's count
    for text, style, control in segments:
        if control:
            out.append(Segment(text, style, control))
            continue
        head = text.rstrip(" ")
        drift += cells(head) - cell_len(head)
        blanks = len(text) - len(head)
        taken = min(max(drift, 0), blanks)
        drift -= taken
        out.append(Segment(head + " " * (blanks - taken), style))
    return out, drift


def _take_leading_blanks(segments: list[Segment], surplus: int) -> int:
    """Remove up to ``surplus`` blanks from the line's start (right-aligned text); how many."""
    taken = 0
    for index, (text, style, control) in enumerate(segments):
        if control:
            continue
        kept = text.lstrip(" ")
        blanks = min(len(text) - len(kept), surplus - taken)
        segments[index] = Segment(text[blanks:], style)
        taken += blanks
        if taken == surplus or kept:
            break
    return taken


def _cut_to(segments: list[Segment], width: int) -> list[Segment]:
    """The line cut to ``width`` drawn cells between grapheme clusters."""
    out: list[Segment] = []
    used = 0
    for text, style, control in segments:
        if control:
            out.append(Segment(text, style, control))
            continue
        kept = ""
        for cluster in clusters(text):
            size = cells(cluster)
            if used + size > width:
                break
            kept += cluster
            used += size
        if kept:
            out.append(Segment(kept, style))
        if len(kept) < len(text):
            break
    return out


def fit_line(
    segments: list[Segment], width: int | None = None, style: Style | None = None
) -> list[Segment]:
    """One line of segments as the terminal will draw it in exactly ``width`` cells (by
    default as many as Rich counts), blanks added in ``style``."""
    if width is None:
        width = _counted(segments)
    segments, surplus = close_gaps(segments)
    if surplus > 0:
        _take_leading_blanks(segments, surplus)
    drawn = _drawn(segments)
    if drawn > width:
        segments = _cut_to(segments, width)
        drawn = _drawn(segments)
    if drawn < width:
        segments.append(Segment(" " * (width - drawn), style))
    return [s for s in segments if s.text]


def _counted(line: list[Segment]) -> int:
    return sum(cell_len(s.text) for s in line if not s.control)


class DrawnWidths:
    """A Rich renderable drawn with :func:`fit_line` on each of its lines, so a table holding
    Hindi or Bengali keeps its columns (and its width) on a terminal."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Each line of the renderable, its gaps closed (never cut: the terminal wraps a line
        longer than it, as it would Rich's), then a line break."""
        rendered = list(console.render(self.renderable, options))
        ends_line = bool(rendered) and rendered[-1].text.endswith("\n")
        lines = list(Segment.split_lines(rendered))
        for number, line in enumerate(lines, 1):
            yield from (s for s in close_gaps(line)[0] if s.text)
            if number < len(lines) or ends_line:
                yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As wide as the renderable."""
        return Measurement.get(console, options, self.renderable)
