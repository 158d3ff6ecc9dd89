"""Flip mode's answer part: the grade buttons, once the card is turned over."""

from __future__ import annotations

from collections.abc import Mapping

from textual.containers import Vertical
from textual.message import Message

from quizzer.ui.widgets.grade_bar import GradeBar


class FlipPanel(Vertical):
    """The :class:`GradeBar`, mounted on the first reveal; posts :class:`FlipPanel.Graded`."""

    DEFAULT_CSS = """
    FlipPanel {
        height: auto;
    }
    """

    #: The hint while the answer is hidden, and once it is shown.
    QUESTION_HINT = "Space: show the answer"
    REVEALED_HINT = "How well did you recall it? 1–4 (Space or Enter: Good)"

    class Graded(Message):
        """The learner graded the card ``grade`` (1–4) with a button."""

        def __init__(self, grade: int) -> None:
            super().__init__()
            self.grade = grade

    async def reveal(self, intervals: Mapping[int, str]) -> None:
        """Label the grade buttons with ``intervals``, mounting them the first time."""
        bars = self.query(GradeBar)
        if bars:
            bars.first().set_intervals(intervals)
        else:
            await self.mount(GradeBar(intervals, id="grades"))

    def on_grade_bar_graded(self, event: GradeBar.Graded) -> None:
        """Pass the pressed grade on as :class:`FlipPanel.Graded`."""
        event.stop()
        self.post_message(self.Graded(event.grade))
