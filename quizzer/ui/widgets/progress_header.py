"""The line above the card: deck, language pair, mode, and done/left with a bar."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar


class ProgressHeader(Horizontal):
    """``Quantization · ru term → en term · flip`` and ``3 done · 17 left`` with a bar."""

    DEFAULT_CSS = """
    ProgressHeader {
        height: 1;
        padding: 0 2;
        background: $panel;
    }
    ProgressHeader #where {
        width: 1fr;
        text-style: bold;
    }
    ProgressHeader #counts {
        width: auto;
        margin: 0 1;
    }
    ProgressHeader ProgressBar {
        width: 12;
    }
    ProgressHeader ProgressBar Bar {
        width: 12;
    }
    """

    def compose(self) -> ComposeResult:
        yield Label("", id="where", markup=False)
        yield Label("", id="counts", markup=False)
        yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="bar")

    def update(self, where: str, done: int, left: int) -> None:
        """Show where we are and how far along."""
        self.query_one("#where", Label).update(where)
        self.query_one("#counts", Label).update(f"{done} done · {left} left")
        self.query_one(ProgressBar).update(total=max(1, done + left), progress=done)
