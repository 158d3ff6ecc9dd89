"""The home screen's deck list: a click highlights a deck, Enter or a double click starts it."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class DeckList(OptionList):
    """The deck list. A click only highlights a deck; Enter (or a double click) starts it.

    ``initial`` is highlighted as soon as the list is mounted, before any key
    typed early can reach it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select", "Start", show=False)]

    def __init__(self, *options: Option, initial: int | None = None, id: str | None = None) -> None:
        super().__init__(*options, id=id)
        self._initial = initial

    def on_mount(self) -> None:
        """Highlight the ``initial`` deck (clamped to the list) before any key arrives."""
        if self._initial is not None and self.option_count:
            self.highlighted = min(self._initial, self.option_count - 1)

    def on_click(self, event: events.Click) -> None:
        """Highlight the clicked deck; a double click starts it."""
        # Textual's OptionList selects on click; a deck is chosen with the mouse
        # before the direction and mode, so a click must not start the session.
        event.prevent_default()  # (OptionList's own click handler would select it)
        clicked: int | None = event.style.meta.get("option")
        if clicked is None or self.get_option_at_index(clicked).disabled:
            return
        self.highlighted = clicked
        if event.chain >= 2:
            self.action_select()
