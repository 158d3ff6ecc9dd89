"""The help screen: every key, by mode."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

HELP_ROWS: tuple[tuple[str, str], ...] = (
    ("Everywhere", ""),
    ("?", "this help"),
    ("q  Esc", "end the session (summary) · leave"),
    ("Ctrl+T", "light / dark theme"),
    ("Home", ""),
    ("↑ ↓  Enter", "choose a deck and start"),
    ("Tab", "move to the direction and mode pickers"),
    ("x", "swap prompt and answer"),
    ("m", "next mode"),
    ("s", "statistics"),
    ("Study", ""),
    ("u", "undo the last answer"),
    ("b", "bury this card until tomorrow"),
    ("flip", "Space: answer · 1 Again  2 Hard  3 Good  4 Easy"),
    ("Space ×2", "answer, then Good (Enter works like Space)"),
    ("choice", "1–4, or ↑ ↓ and Enter · Enter: next"),
    ("typed", "Enter checks · r: I was right · Enter: next"),
    ("learn", "~7 concepts a round: choice, then typed"),
    ("Summary", ""),
    ("Enter", "back home (or quit when started from the command line)"),
    ("s", "statistics"),
)


class HelpScreen(ModalScreen[None]):
    """Keys by screen and mode; any of Esc, q, ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("question_mark", "dismiss", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        lines: list[Content] = []
        for key, what in HELP_ROWS:
            if not what:
                lines.append(Content.styled(key, "bold $accent"))
            else:
                lines.append(Content.assemble((f"  {key:<11}", "bold"), what))
        with VerticalScroll(id="help-box"):
            yield Static(Content("\n").join(lines), id="help-text")
            yield Static(Content.styled("Esc closes", "$text-muted"), id="help-close")

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)
