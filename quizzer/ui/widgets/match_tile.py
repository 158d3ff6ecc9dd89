"""One text of the Match board: its key label and as much of the text as its box holds."""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.message import Message

from quizzer.ui.textshape import cells, visual_lines
from quizzer.ui.widgets.drawn import DrawnCells


class MatchTile(DrawnCells):
    """A tile labelled ``key`` (``1``, ``a``); a click posts :class:`MatchTile.Clicked`.

    The board gives every tile an equal share of its height; a text longer than that is
    cut at the last line it fills, with "…", so eight tiles fit a 60×20 terminal.
    """

    DEFAULT_CSS = """
    MatchTile {
        height: 1fr;
        min-height: 1;
        padding: 0 1;
        background: $boost;
        pointer: pointer;
    }
    MatchTile:hover { background: $primary 20%; }
    MatchTile.-selected { background: $accent 40%; text-style: bold; }
    MatchTile.-wrong { background: $error 40%; }
    MatchTile.-matched { color: $text-disabled; background: $surface; }
    """

    class Clicked(Message):
        """The learner clicked the tile labelled ``key``."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, key: str, text: str, *, rtl_mode: str = "app") -> None:
        super().__init__(id=f"tile-{key}")
        self.key = key
        self.text = text
        self.rtl_mode = rtl_mode

    def render(self) -> Content:
        """The key label, then the text wrapped into the tile, cut with "…" if too long."""
        width = max(1, self.content_region.width - 3)
        height = max(1, self.content_region.height)
        # Wrapped in reading order, then each line shaped and laid out (right to left for
        # Arabic), clusters kept whole: the card's own wrapping.
        lines = visual_lines(self.text, width, self.rtl_mode)
        if len(lines) > height:
            lines = lines[:height]
            last = lines[-1]
            while last and cells(last) + 1 > width:
                last = last[:-1]
            lines[-1] = last.rstrip() + "…"
        label = Content.styled(f"{self.key} ", "bold $accent")
        body = Content("\n   ").join(Content(line) for line in lines)
        return Content.assemble(label, " ", body)

    def on_click(self, event: events.Click) -> None:
        """Tell the board this tile was clicked."""
        event.stop()
        self.post_message(self.Clicked(self.key))
