"""An input line that shows right-to-left text as it will read: joined and in visual order."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widgets import Input

from quizzer.ui.textshape import base_direction, has_rtl, shape_runs


class ScriptInput(Input):
    """Textual's :class:`~textual.widgets.Input` that draws Arabic, Persian, Urdu or Hebrew as
    it is typed the way the card shows it: letters joined, marks kept, right to left.

    Only the drawing changes: the value stays in logical (typing) order, so editing, the
    submitted answer and its check are Textual's own. In ``app`` mode (see
    :func:`quizzer.ui.textshape.resolve_rtl_mode`) a value with right-to-left letters is
    shaped and reordered with the cursor carried on its letter through the reordering, and
    a right-to-left line is aligned to the field's right edge, where Left and Right move
    the cursor the way they point on screen. ``terminal`` mode, and a value without
    right-to-left letters, draw and move as Textual does.
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

    def _visual_keys(self) -> bool:
        """Whether Left and Right swap: right-to-left text drawn here reads leftwards."""
        return self.shaped() and base_direction(self.value) == "R"

    def action_cursor_left(self, select: bool = False) -> None:
        """Move the cursor left on screen: in right-to-left text, on to the next letter."""
        if self._visual_keys():
            super().action_cursor_right(select)
        else:
            super().action_cursor_left(select)

    def action_cursor_right(self, select: bool = False) -> None:
        """Move the cursor right on screen: in right-to-left text, back a letter."""
        if self._visual_keys():
            super().action_cursor_left(select)
        else:
            super().action_cursor_right(select)

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

    def shaped(self) -> bool:
        """Whether the value is drawn shaped here (``app`` mode and right-to-left letters)."""
        return self.rtl_mode == "app" and not self.password and has_rtl(self.value)

    def render_line(self, y: int) -> Strip:
        """Textual's line, or for right-to-left text the shaped line (:meth:`visual_runs`)."""
        if y != 0 or not self.shaped():
            return super().render_line(y)
        # The cells the field shows (Textual's line is one longer, for a cursor past the end).
        width = self.scrollable_content_region.width
        segments = [Segment(text, style) for text, style in self.visual_runs()]
        strip = Strip(segments)
        if base_direction(self.value) == "R":
            # Right-aligned; a line wider than the field keeps its left end, where typing goes.
            over = strip.cell_length - width
            strip = strip.crop(over) if over > 0 else Strip([Segment(" " * -over), *segments])
        strip = strip.crop(0, width).extend_cell_length(width + 1)
        return strip.apply_style(self.rich_style)

    def visual_runs(self) -> list[tuple[str, Style]]:
        """The value in visual order as (text, style) runs: the selection and the cursor (a
        space after the last letter when it is at the end) styled on their letters."""
        value = self.value
        kinds = [""] * (len(value) + 1)
        if self.has_focus:
            start, end = sorted(self.selection)
            kinds[start:end] = ["selection"] * (end - start)
            kinds[self.cursor_position] = "cursor"
        styles = {
            "": Style(),
            "cursor": self.get_component_rich_style("input--cursor"),
            "selection": self.get_component_rich_style("input--selection"),
        }
        runs = shape_runs(list(zip(value + " ", kinds, strict=True)), base_direction(value))
        return [(text, styles[kind]) for text, kind in runs]
