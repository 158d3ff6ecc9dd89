"""Four answer options, chosen by number, arrows and Enter, or a click."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Label

from quizzer.ui.widgets.script_text import ScriptText


class ChoiceOption(Horizontal):
    """One option: its number key and its text."""

    DEFAULT_CSS = """
    ChoiceOption {
        height: auto;
        padding: 0 1;
        margin: 0 0 0 0;
    }
    ChoiceOption .choice-key {
        width: 4;
        color: $accent;
        text-style: bold;
    }
    ChoiceOption.-highlight {
        background: $boost;
        outline-left: thick $accent;
    }
    ChoiceOption.-correct {
        background: $success 30%;
    }
    ChoiceOption.-wrong {
        background: $error 30%;
    }
    """

    def __init__(self, index: int, text: str, rtl_mode: str = "app") -> None:
        super().__init__(id=f"choice-{index + 1}")
        self.index = index
        self.text = text
        self.rtl_mode = rtl_mode

    def compose(self) -> ComposeResult:
        """Compose the option's number key and its script-aware text."""
        yield Label(f"{self.index + 1}.", classes="choice-key", markup=False)
        yield ScriptText(self.text, rtl_mode=self.rtl_mode)

    def set_text(self, text: str) -> None:
        """Show another option text (and its number again, without a mark)."""
        self.text = text
        self.query_one(ScriptText).text = text
        self.set_mark("")

    def set_mark(self, mark: str) -> None:
        """Show ``mark`` (✓ or ✗) after the option's number, or only the number."""
        self.query_one(".choice-key", Label).update(
            f"{self.index + 1}{' ' + mark if mark else '.'}"
        )

    def on_click(self, event: Click) -> None:
        """Choose this option in the parent list; the click goes no further."""
        event.stop()
        parent = self.parent
        if isinstance(parent, ChoiceList):
            parent.choose(self.index)


class ChoiceList(Vertical, can_focus=True):
    """Options numbered 1–4; posts :class:`ChoiceList.Chosen` once, until :meth:`set_options`."""

    DEFAULT_CSS = """
    ChoiceList {
        height: auto;
        margin: 1 2 0 2;
        padding: 0 0;
    }
    ChoiceList:focus {
        background-tint: $foreground 3%;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("enter", "select", "Choose", show=False),
    ]

    highlighted: reactive[int] = reactive(0)

    class Chosen(Message):
        """The learner picked option ``index`` (0-based)."""

        def __init__(self, choice_list: ChoiceList, index: int) -> None:
            super().__init__()
            self.choice_list = choice_list
            self.index = index

    def __init__(
        self, *, rtl_mode: str = "app", id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        #: How right-to-left options are drawn (see :class:`ScriptText`).
        self.rtl_mode = rtl_mode
        self.options: list[str] = []
        self.locked = False

    def set_options(self, options: Sequence[str]) -> None:
        """Replace the options and unlock the list."""
        self.options = list(options)
        self.locked = False
        # Reuse the option widgets: removing is asynchronous, and ids must stay unique.
        existing = list(self.query(ChoiceOption))
        for option in existing:
            option.remove_class("-correct", "-wrong")
            option.display = option.index < len(self.options)
            if option.display:
                option.set_text(self.options[option.index])
        new = [
            ChoiceOption(i, t, self.rtl_mode)
            for i, t in enumerate(self.options)
            if i >= len(existing)
        ]
        if new:
            self.mount_all(new)
        self.highlighted = 0
        self._paint()

    def watch_highlighted(self, _value: int) -> None:
        """Move the highlight mark to the newly highlighted option."""
        self._paint()

    def _paint(self) -> None:
        for option in self.query(ChoiceOption):
            option.set_class(option.index == self.highlighted, "-highlight")
            if option.index == self.highlighted and self.is_mounted and self.has_focus:
                option.scroll_visible(animate=False)  # long options can overflow 80×24

    def check_action(self, action: str, _parameters: tuple[object, ...]) -> bool | None:
        """Refuse moving and selecting once an option is chosen, so the screen gets those keys."""
        # Once answered, Enter and the arrows belong to the screen (Enter: next card).
        return not (action in ("move", "select") and self.locked)

    def action_move(self, step: int) -> None:
        """Move the highlight ``step`` options, wrapping around; ignored once locked."""
        if self.options and not self.locked:
            self.highlighted = (self.highlighted + step) % len(self.options)

    def action_select(self) -> None:
        """Choose the highlighted option."""
        self.choose(self.highlighted)

    def choose(self, index: int) -> None:
        """Pick option ``index`` (ignored when locked or out of range)."""
        if self.locked or not 0 <= index < len(self.options):
            return
        self.locked = True
        self.highlighted = index
        self._paint()
        self.post_message(self.Chosen(self, index))

    def mark(self, chosen: int, correct: int) -> ChoiceOption | None:
        """Mark the right option ✓ in green and a wrong pick ✗ in red (the colour alone
        is lost on a monochrome terminal or to a colour-blind learner); return the right
        option's widget."""
        right = None
        for option in self.query(ChoiceOption):
            wrong = option.index == chosen and chosen != correct
            option.set_class(option.index == correct, "-correct")
            option.set_class(wrong, "-wrong")
            option.set_mark("✓" if option.index == correct else "✗" if wrong else "")
            if option.index == correct:
                right = option
        return right
