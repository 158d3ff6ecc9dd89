"""A one-line primary button, drawn as Textual's compact primary ``Button``, for less.

The home screen's only button (Start) was Textual's ``Button``: its stylesheet (every
variant, flat and ANSI styles) and set-up cost ~30 ms of the first paint, more than
the rest of the screen's labels together. A :class:`LineButton` is the one look the
screen uses: its label centred and bold on ``$primary``, the same focus, hover and
"pressed" flash, the same keys (Enter, a click) and the same 0.2 s during which a
second press is ignored.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget


class LineButton(Widget, can_focus=True):
    """A compact primary button showing ``label``; posts :class:`LineButton.Pressed`."""

    DEFAULT_CSS = """
    LineButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;
        text-style: bold;
        color: $button-color-foreground;
        background: $primary;
        &:focus {
            text-style: $button-focus-text-style;
            background-tint: $foreground 5%;
        }
        &:hover { background: $primary-darken-2; }
        &.-active {
            background: $primary;
            tint: $background 30%;
        }
        &:disabled {
            text-opacity: 0.6;
            pointer: not-allowed;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "press", "Press button", show=False)]
    ALLOW_SELECT = False
    #: How long the "pressed" look lasts; presses meanwhile are ignored (as Button's).
    ACTIVE_S = 0.2

    class Pressed(Message):
        """The button was pressed (Enter or a click)."""

        def __init__(self, button: LineButton) -> None:
            super().__init__()
            self.button = button

        @property
        def control(self) -> LineButton:
            """The button that was pressed."""
            return self.button

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label

    def render(self) -> Content:
        """The label (plain text, never markup)."""
        return Content(self.label)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The widest line of the label, plus a cell each side."""
        return max(cell_len(line) for line in self.label.splitlines() or [""]) + 2

    def press(self) -> None:
        """Flash the pressed look and post :class:`Pressed` (not when disabled or hidden)."""
        if self.disabled or not self.display:
            return
        self.add_class("-active")
        self.set_timer(self.ACTIVE_S, partial(self.remove_class, "-active"))
        self.post_message(self.Pressed(self))

    def action_press(self) -> None:
        """Enter: press, unless the last press is still showing."""
        if not self.has_class("-active"):
            self.press()

    async def _on_click(self, event: events.Click) -> None:
        event.stop()
        if not self.has_class("-active"):
            self.press()
