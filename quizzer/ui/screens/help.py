"""The help screen: every key, by screen and mode, in two columns that fit 80×24.

Narrower, one column that scrolls."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

#: (key, what it does); a row with no "what" is a heading.
Rows = tuple[tuple[str, str], ...]

HELP_LEFT: Rows = (
    ("Everywhere", ""),
    ("? F1", "this help"),
    ("Esc q", "end the session · leave"),
    ("Ctrl+T", "light / dark theme (kept)"),
    ("Ctrl+C", "quit at once"),
    ("Home", ""),
    ("↑ ↓", "choose a deck"),
    ("Enter", "start (^S from a picker)"),
    ("click", "pick a deck · double: start"),
    ("f Tab", "to the pickers · next picker"),
    ("x", "swap prompt and answer"),
    ("b", "its reverse too, after it"),
    ("Space", "mark decks to study together"),
    ("p", "practice: no schedule change"),
    ("m", "next mode"),
    ("s", "statistics"),
    ("/", "find cards, by any text"),
    ("Summary", ""),
    ("Enter", "home (or quit)  · s: stats"),
)

HELP_RIGHT: Rows = (
    ("Study", ""),
    ("u", "undo the last answer or bury"),
    ("b", "bury the card until tomorrow"),
    ("^l", "hear it (espeak-ng)"),
    ("flip", ""),
    ("Space", "show the answer, then Good"),
    ("1–4", "Again · Hard · Good · Easy"),
    ("Enter", "works like Space"),
    ("choice", ""),
    ("1–4", "pick (or ↑ ↓ and Enter)"),
    ("Enter", "next card"),
    ("typed", ""),
    ("Enter", "check, then next card"),
    ("r", "I was right (near misses)"),
    ("^z ^b", "undo · bury while typing"),
    ("learn", ""),
    ("", "~7 new a round: choice, then"),
    ("", "typed; misses come back soon"),
    ("u b", "undo · bury, as above"),
)

KEY_WIDTH = 8


def help_column(rows: Rows) -> Content:
    """One column of headings and ``key  what`` lines."""
    lines: list[Content] = []
    for key, what in rows:
        if not what:
            lines.append(Content.styled(key, "bold $text-accent"))
        else:
            lines.append(Content.assemble((f"{key:<{KEY_WIDTH}}", "bold"), what))
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    """Keys by screen and mode; any of Esc, q, ?, F1 closes it."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    #help-box {
        width: 78;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    #help-columns {
        height: auto;
    }
    .help-column {
        width: 1fr;
        height: auto;
    }
    #help-left {
        margin: 0 2 0 0;
    }
    #help-box:focus {
        background-tint: transparent;
    }
    /* Help below 78 columns (HelpScreen.on_resize): one column, scrolled */
    HelpScreen.-narrow #help-columns {
        layout: vertical;
    }
    HelpScreen.-narrow .help-column {
        width: 1fr;
    }
    HelpScreen.-narrow #help-left {
        margin: 0;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("question_mark", "dismiss", "Close", show=False),
        Binding("f1", "dismiss", "Close", show=False),
    ]

    #: Narrower than this, one column (that scrolls) instead of two.
    NARROW = 78

    def compose(self) -> ComposeResult:
        """Compose the two columns of keys and the closing hint, in a box that scrolls."""
        with VerticalScroll(id="help-box"):
            with Horizontal(id="help-columns"):
                yield Static(help_column(HELP_LEFT), id="help-left", classes="help-column")
                yield Static(help_column(HELP_RIGHT), id="help-right", classes="help-column")
            yield Static(Content.styled("Esc closes", "$text-muted"), id="help-close")

    def on_mount(self) -> None:
        """Focus the box, so ↑ ↓ PgUp PgDn scroll it when it is taller than the screen."""
        self.set_focus(self.query_one("#help-box", VerticalScroll))

    def on_resize(self, event: events.Resize) -> None:
        """One column below :attr:`NARROW` columns; say how to scroll when it overflows."""
        self.set_class(event.size.width < self.NARROW, "-narrow")
        self.call_after_refresh(self._scroll_hint)

    def _scroll_hint(self) -> None:
        """On the box's border, always in sight: how to scroll, when there is more."""
        box = self.query_one("#help-box", VerticalScroll)
        box.border_subtitle = "↑ ↓ PgDn: more · Esc closes" if box.max_scroll_y else ""
