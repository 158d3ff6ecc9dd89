"""Choice mode's answer part: four numbered options."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from quizzer.ui.widgets.choice_list import ChoiceList, ChoiceOption


class ChoicePanel(Vertical):
    """The options of one question; posts :class:`ChoicePanel.Chosen` once per question."""

    DEFAULT_CSS = """
    ChoicePanel {
        height: auto;
    }
    """

    HINT = "1–4, or ↑ ↓ and Enter"

    class Chosen(Message):
        """The learner picked option ``index`` (0-based)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(
        self, *, rtl_mode: str = "app", id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        #: How right-to-left options are drawn (see :class:`ScriptText`).
        self.rtl_mode = rtl_mode

    def compose(self) -> ComposeResult:
        """Compose the option list."""
        yield ChoiceList(rtl_mode=self.rtl_mode, id="choices")

    def ask(self, options: Sequence[str]) -> None:
        """Show a new question's ``options`` and take the focus."""
        choices = self.query_one(ChoiceList)
        choices.set_options(options)
        choices.focus()

    def choose(self, index: int) -> None:
        """Pick option ``index`` (a number key); ignored once one is chosen."""
        self.query_one(ChoiceList).choose(index)

    def mark(self, chosen: int, correct: int) -> ChoiceOption | None:
        """Mark the right option ✓ and a wrong pick ✗; return the right option's widget."""
        return self.query_one(ChoiceList).mark(chosen, correct)

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        """Pass the pick on as :class:`ChoicePanel.Chosen`."""
        event.stop()
        self.post_message(self.Chosen(event.index))
