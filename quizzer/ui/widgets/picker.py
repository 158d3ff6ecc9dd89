"""A one-line drop-down picker whose list is built only when it is first opened.

Textual's ``Select`` is five widgets (its current value, two labels, an arrow and
an overlay ``OptionList``), each styled and laid out at start-up: the home
screen's five of them were a third of its first paint. A :class:`Picker` is one
widget drawing ``value ▼``; its list (a :class:`PickerList`) is mounted the first
time it opens. Keys as ``Select``'s: Enter, Space, Up or Down open the list; in it
the arrows move, Enter or a click picks, typing jumps to a matching option,
Escape closes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from quizzer.ui.language_labels import fit_caption
from quizzer.ui.widgets.drawn import CellWrapped, DrawnCells, DrawnOptionList

#: Typing in an open list searches what was typed within this many seconds.
SEARCH_RESET_S = 0.7


class PickerList(DrawnOptionList):
    """A picker's open list, drawn over the screen below the picker."""

    DEFAULT_CSS = """
    PickerList {
        overlay: screen;
        constrain: none inside;
        offset-y: 1;
        width: 1fr;
        height: auto;
        max-height: 12;
        background: $surface;
        &:focus { background-tint: $foreground 5%; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", "Close menu")]

    def __init__(self, options: Sequence[Option]) -> None:
        super().__init__(*options, compact=True)  # no border: as Textual's compact Select
        self._query = ""
        self._typed_at = 0.0

    def action_dismiss(self) -> None:
        """Close the list, the focus back on its picker."""
        picker = self.parent
        if isinstance(picker, Picker):
            picker.close(refocus=True)

    def _on_blur(self, event: events.Blur) -> None:
        picker = self.parent
        if isinstance(picker, Picker):
            picker.close(refocus=False)

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        """Printable keys search the list (screen keys such as ``m`` don't fire here)."""
        return character is not None and character.isprintable()

    async def _on_key(self, event: events.Key) -> None:
        if event.character is None or not event.is_printable:
            return
        event.stop()
        event.prevent_default()
        now = time.monotonic()
        self._query = (self._query if now - self._typed_at < SEARCH_RESET_S else "") + (
            event.character.lower()
        )
        self._typed_at = now
        found = [
            (str(option.prompt).lower().find(self._query), index)
            for index, option in enumerate(self._options)
        ]
        hits = [hit for hit in found if hit[0] >= 0]
        if hits:
            self.highlighted = min(hits)[1]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Pick the option (Enter or a click) for the picker."""
        event.stop()
        picker = self.parent
        if isinstance(picker, Picker) and event.option.id is not None:
            picker.value = event.option.id
            picker.close(refocus=True)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Keep the list's highlight to itself (the screen listens to its deck list's)."""
        event.stop()


class Picker(DrawnCells, can_focus=True):
    """One line showing the chosen option's label and ``▼``; opens its list on demand.

    ``options`` are ``(label, value)`` pairs; ``value`` must be one of them. Setting
    :attr:`value` to another one posts :class:`Picker.Changed`. ``short`` gives, per value,
    a shorter label drawn when the chosen one's does not fit (a language's name in itself
    alone, ``বাংলা`` for ``Bangla · বাংলা``). ``shape`` prepares a
    label for display (e.g. joins Arabic letters), only when it is drawn: shaping one
    Arabic name costs ~12 ms of imports and set-up, and the first paint shows only the
    chosen label.
    """

    DEFAULT_CSS = """
    Picker {
        width: 1fr;
        height: 1;
        padding: 0 1 0 0;
        background: $surface;
        color: $foreground;
        pointer: pointer;
        &:focus { background-tint: $foreground 5%; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,down,space,up", "open", "Show menu", show=False)
    ]

    ALLOW_SELECT = False

    class Changed(Message):
        """The picker's value changed (by the user or by code)."""

        def __init__(self, picker: Picker, value: str) -> None:
            super().__init__()
            self.picker = picker
            self.value = value

        @property
        def control(self) -> Picker:
            """The picker that changed."""
            return self.picker

    def __init__(
        self,
        options: Sequence[tuple[str, str]],
        value: str,
        *,
        id: str,
        short: Mapping[str, str] | None = None,
        shape: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(id=id)
        self._options = list(options)
        self._labels = dict((v, label) for label, v in self._options)
        if value not in self._labels:
            raise ValueError(f"{value!r} is not one of the options")
        self._value = value
        self._list: PickerList | None = None
        self._short = dict(short or {})
        self._shape = shape
        self._shaped: dict[str, str] = {}

    def _shown(self, label: str) -> str:
        """``label`` as drawn (shaped once, then remembered)."""
        if self._shape is None:
            return label
        shown = self._shaped.get(label)
        if shown is None:
            shown = self._shaped[label] = self._shape(label)
        return shown

    @property
    def value(self) -> str:
        """The chosen option's value."""
        return self._value

    @value.setter
    def value(self, value: str) -> None:
        if value not in self._labels:
            raise ValueError(f"{value!r} is not one of the options")
        if value == self._value:
            return
        self._value = value
        self.refresh()
        self.post_message(self.Changed(self, value))

    @property
    def expanded(self) -> bool:
        """Whether the list is open."""
        return self._list is not None and self._list.display

    def render(self) -> Content:
        """The chosen label, then an arrow at the right edge."""
        arrow = "▲" if self.expanded else "▼"
        room = max(0, self.content_region.width - 2)
        label = self._labels[self._value]
        captions = (label, self._short.get(self._value, label))
        # Cut by the cells the terminal draws: Rich's count gives a Bengali vowel sign none,
        # so cut by it the arrow fell off the line. The padding is Rich's, as the blanks the
        # terminal draws beyond it are taken back when the line is fitted.
        shown = Content(self._shown(fit_caption(captions, room))).truncate(room, pad=True)
        return Content.assemble(shown, " ", (arrow, "$foreground 50%"))

    def action_open(self) -> None:
        """Open the list (mounting it the first time), the chosen option highlighted."""
        if self._list is None:
            options = [
                Option(CellWrapped.of(Content(self._shown(label))), id=value)
                for label, value in self._options
            ]
            self._list = PickerList(options)
            self.mount(self._list)
        else:
            self._list.display = True
        values = [v for _, v in self._options]
        self._list.highlighted = values.index(self._value)
        self._list.focus(scroll_visible=False)
        self.refresh()

    def close(self, *, refocus: bool) -> None:
        """Close the list; ``refocus`` gives the focus back to the picker."""
        if self._list is not None:
            self._list.display = False
        if refocus:
            self.focus()
        self.refresh()

    async def _on_click(self, event: events.Click) -> None:
        event.stop()
        if event.widget is not self:  # a click in the open list, which handled it
            return
        if self.expanded:
            self.close(refocus=True)
        else:
            self.action_open()
