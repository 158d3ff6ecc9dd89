"""The four grade buttons, each showing the interval it would give."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button

from quizzer.scheduling.grades import GRADE_NAMES

_VARIANTS: dict[int, Literal["error", "warning", "success", "primary"]] = {
    1: "error",
    2: "warning",
    3: "success",
    4: "primary",
}


class GradeBar(Horizontal):
    """Again / Hard / Good / Easy; posts :class:`GradeBar.Graded`."""

    DEFAULT_CSS = """
    GradeBar {
        height: auto;
        margin: 1 2 0 2;
        align-horizontal: center;
    }
    GradeBar Button {
        width: 1fr;
        min-width: 12;
        margin: 0 1 0 0;
    }
    GradeBar.-narrow {
        layout: grid;
        grid-size: 2;
        grid-rows: 1;
        grid-gutter: 0 1;
    }
    GradeBar.-narrow Button {
        margin: 0;
    }
    """

    #: Narrower than this, the buttons go two by two so every interval shows.
    NARROW = 64

    class Graded(Message):
        """The learner chose ``grade`` (1–4)."""

        def __init__(self, grade: int) -> None:
            super().__init__()
            self.grade = grade

    def __init__(
        self,
        intervals: Mapping[int, str] | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._intervals = dict(intervals or {})

    @staticmethod
    def label(grade: int, interval: str | None) -> str:
        """``"3 Good · 10m"``."""
        name = GRADE_NAMES[grade]
        return f"{grade} {name} · {interval}" if interval else f"{grade} {name}"

    def compose(self) -> ComposeResult:
        """Compose one compact button per grade, labelled with its interval."""
        for grade in GRADE_NAMES:
            yield Button(
                self.label(grade, self._intervals.get(grade)),
                id=f"grade-{grade}",
                variant=_VARIANTS[grade],
                compact=True,
            )

    def on_mount(self) -> None:
        """Guess the layout from the screen's width (its margins are 2 and 2), no flicker."""
        self.set_class(self.app.size.width - 4 < self.NARROW, "-narrow")

    def on_resize(self, event: events.Resize) -> None:
        """Two rows of two buttons when four in a row would cut their labels."""
        self.set_class(event.size.width < self.NARROW, "-narrow")

    def set_intervals(self, intervals: Mapping[int, str]) -> None:
        """Label each button with the interval (``"10m"``, ``"3d"``) its grade gives."""
        self._intervals = dict(intervals)
        for grade in GRADE_NAMES:
            button = self.query_one(f"#grade-{grade}", Button)
            button.label = self.label(grade, intervals.get(grade))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Post :class:`GradeBar.Graded` for the pressed grade button."""
        event.stop()
        grade = int((event.button.id or "grade-0").rsplit("-", 1)[1])
        if grade in GRADE_NAMES:
            self.post_message(self.Graded(grade))
