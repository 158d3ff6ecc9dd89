"""The lines above the card: deck, language pair, mode, and done/left with a bar."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Label, Static

BAR_WIDTH = 12
#: Below this many columns the header takes two lines, so the pair and mode stay visible.
NARROW = 90


def bar(done: int, total: int, width: int = BAR_WIDTH) -> Content:
    """A progress bar of ``width`` cells: ``done`` of ``total`` filled."""
    filled = 0 if total <= 0 else min(width, round(width * done / total))
    return Content.assemble(("━" * filled, "$accent"), ("━" * (width - filled), "$panel-lighten-2"))


class ProgressHeader(Horizontal):
    """``Quantization · ru term → en term · flip`` and the counts with a bar.

    The deck name gives way first (cut with an ellipsis); the pair and mode are
    always shown. Narrower than :data:`NARROW` columns, the counts and bar go to
    a second line of their own (so the counts never share a column width with
    the pair). The bar is a line of text: Textual's ProgressBar is made for work
    in progress (with its percentage, its timers and an indeterminate state).
    """

    DEFAULT_CSS = """
    ProgressHeader {
        height: 1;
        padding: 0 2;
        background: $panel;
    }
    ProgressHeader.-narrow {
        height: 2;
        layout: vertical;
    }
    ProgressHeader > Horizontal {
        height: 1;
    }
    ProgressHeader #line-where {
        width: 1fr;
    }
    ProgressHeader #line-counts {
        width: auto;
        margin: 0 0 0 3;
    }
    ProgressHeader.-narrow #line-counts {
        width: 1fr;
        margin: 0;
    }
    ProgressHeader #where {
        width: 1fr;
        text-style: bold;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    ProgressHeader #pair {
        width: auto;
        margin: 0 0 0 3;
        text-style: bold;
        text-wrap: nowrap;
    }
    ProgressHeader.-narrow #pair {
        margin: 0 0 0 1;
    }
    ProgressHeader #counts {
        width: auto;
        text-wrap: nowrap;
    }
    ProgressHeader.-narrow #counts {
        width: 1fr;
        text-overflow: ellipsis;
    }
    ProgressHeader #bar {
        width: 12;
        margin: 0 0 0 3;
    }
    ProgressHeader.-narrow #bar {
        margin: 0 0 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The counts as shown, e.g. ``3 done · 17 left``.
        self.counts = ""

    def compose(self) -> ComposeResult:
        """Compose the deck, pair and counts labels and the bar."""
        with Horizontal(id="line-where"):
            yield Label("", id="where", markup=False)
            yield Label("", id="pair", markup=False)
        with Horizontal(id="line-counts"):
            yield Label("", id="counts", markup=False)
            yield Static(bar(0, 1), id="bar")

    def on_resize(self, event: events.Resize) -> None:
        """Switch to the two-line layout when narrower than :data:`NARROW`."""
        self.set_class(event.size.width < NARROW, "-narrow")

    def on_mount(self) -> None:
        """Pick the one- or two-line layout for the app's starting width."""
        self.set_class(self.app.size.width < NARROW, "-narrow")

    def update(
        self,
        where: str,
        done: int,
        left: int,
        extra: str = "",
        pair: str = "",
        counts: str | None = None,
    ) -> None:
        """Show the deck (``where``), the ``pair`` and mode, and how far along.

        ``counts`` is the text of the counts (default ``"3 done · 17 left"``);
        ``extra`` goes before it (e.g. the learn round).
        """
        if counts is None:
            counts = f"{done} done · {left} left"
        self.counts = f"{extra} · {counts}" if extra else counts
        self.query_one("#where", Label).update(where)
        self.query_one("#pair", Label).update(pair)
        self.query_one("#counts", Label).update(self.counts)
        self.query_one("#bar", Static).update(bar(done, done + left))
