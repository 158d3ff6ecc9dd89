"""The line above the card: deck, language pair, mode, and done/left with a bar."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Label, Static

BAR_WIDTH = 12


def bar(done: int, total: int, width: int = BAR_WIDTH) -> Content:
    """A progress bar of ``width`` cells: ``done`` of ``total`` filled."""
    filled = 0 if total <= 0 else min(width, round(width * done / total))
    return Content.assemble(("━" * filled, "$accent"), ("━" * (width - filled), "$panel-lighten-2"))


class ProgressHeader(Horizontal):
    """``Quantization · ru term → en term · flip`` and ``3 done · 17 left`` with a bar.

    The bar is drawn by hand: Textual's ProgressBar brings three sub-widgets and
    timers, which cost start-up time the first card shouldn't wait for.
    """

    DEFAULT_CSS = """
    ProgressHeader {
        height: 1;
        padding: 0 2;
        background: $panel;
    }
    ProgressHeader #where {
        width: 1fr;
        text-style: bold;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    ProgressHeader #counts {
        width: auto;
        margin: 0 1;
    }
    ProgressHeader #bar {
        width: 12;
    }
    """

    def compose(self) -> ComposeResult:
        yield Label("", id="where", markup=False)
        yield Label("", id="counts", markup=False)
        yield Static(bar(0, 1), id="bar")

    def update(self, where: str, done: int, left: int, extra: str = "") -> None:
        """Show where we are and how far along (``extra`` goes before the counts)."""
        self.query_one("#where", Label).update(where)
        counts = f"{done} done · {left} left"
        self.query_one("#counts", Label).update(f"{extra} · {counts}" if extra else counts)
        self.query_one("#bar", Static).update(bar(done, done + left))
