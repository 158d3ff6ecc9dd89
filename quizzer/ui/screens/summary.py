"""The end of a session: cards studied, correct %, time spent, when the next card is due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from quizzer.ui.language_labels import drawn_names
from quizzer.ui.screens.base import QuizzerScreen
from quizzer.ui.widgets.drawn import DrawnStatic
from quizzer.ui.widgets.quiz_footer import QuizFooter

if TYPE_CHECKING:
    from quizzer.study.flow import FlowSummary
    from quizzer.study.selection import StudyChoice


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """The figures of one session."""

    deck_name: str
    #: The direction, its languages named in English and in themselves, drawn for the
    #: terminal (:meth:`~quizzer.study.selection.StudyChoice.pair_label`).
    pair_label: str
    mode: str
    studied: int
    correct: int
    seconds: float
    next_due: datetime | None
    #: What ``studied`` counts: cards (flip, choice, typed) or questions (learn).
    studied_label: str = "Cards studied"
    #: Learn mode: concepts recorded in the store this sitting.
    saved: int | None = None
    #: A warning line, e.g. what was not saved.
    note: str = ""
    #: Every answer given (more than ``studied`` when a card came back); ``correct`` is
    #: out of these. ``None``: one answer per item studied.
    answers: int | None = None
    #: What waits and why: ``"12 wait for their first direction · 5 siblings tomorrow"``.
    waiting: str = ""
    #: A practice session's selection (``"every card"``), ``""`` for a session on the schedule.
    practice: str = ""

    @property
    def answered(self) -> int:
        """Answers given: what ``correct`` is out of."""
        return self.studied if self.answers is None else self.answers

    @classmethod
    def of(
        cls, s: FlowSummary, deck_name: str, choice: StudyChoice, rtl_mode: str = "app"
    ) -> SessionSummary:
        """The summary of a study flow's sitting (``deck_name`` as shown; the languages
        named as the card captions name them, drawn for ``rtl_mode``)."""
        return cls(
            studied_label="Questions" if s.questions else "Cards studied",
            saved=s.saved,
            note=f"Not saved: {concepts_count(s.unsaved)} not yet typed right."
            if s.unsaved
            else "",
            deck_name=deck_name,
            pair_label=choice.pair_label(drawn_names(rtl_mode)[0]),
            mode=choice.mode,
            studied=s.studied,
            answers=s.answers,
            correct=s.correct,
            seconds=s.seconds,
            next_due=s.next_due,
        )

    @property
    def correct_percent(self) -> int | None:
        """Share of the answers counted correct, in %, or ``None`` before any answer."""
        return round(100 * self.correct / self.answered) if self.answered else None


def concepts_count(n: int) -> str:
    """``"1 concept"``, ``"3 concepts"``."""
    return f"{n} concept" if n == 1 else f"{n} concepts"


def format_duration(seconds: float) -> str:
    """``"45s"``, ``"3m 05s"``, ``"1h 02m"``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def format_next_due(due: datetime | None, now: datetime) -> str:
    """``"now"``, ``"in 10 minutes"``, ``"in 3 hours"``, ``"in 2 days (Tue 04:00)"``."""
    if due is None:
        return "nothing scheduled"
    seconds = (due - now).total_seconds()
    local = due.astimezone()
    if seconds <= 60:
        return "now"
    if seconds < 3600:
        return f"in {round(seconds / 60)} minutes"
    if seconds < 86400:
        return f"in {round(seconds / 3600)} hours ({local:%H:%M})"
    return f"in {round(seconds / 86400)} days ({local:%a %d %b})"


class SummaryScreen(QuizzerScreen[None]):
    """Shown when a session ends; Enter goes home (or quits), s opens statistics."""

    DEFAULT_CSS = """
    SummaryScreen {
        align: center middle;
    }
    #summary-box {
        width: 64;
        max-width: 100%;
        height: auto;
        border: round $accent;
        padding: 1 2;
    }
    #summary-where {
        color: $text-muted;
        margin: 0 0 1 0;
    }
    #summary-reason {
        margin: 0 0 1 0;
    }
    #summary-note {
        margin: 1 0 0 0;
    }
    #summary-practice {
        margin: 1 0 0 0;
    }
    #summary-waiting {
        margin: 1 0 0 0;
    }
    #summary-hint {
        margin: 1 0 0 0;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "Done"),
        Binding("s", "stats", "Stats"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "done", "Done", show=False),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(
        self,
        summary: SessionSummary,
        *,
        from_home: bool,
        deck_id: str,
        now: datetime | None = None,
        empty: bool = False,
        reason: str | None = None,
    ) -> None:
        super().__init__()
        self.summary = summary
        self.empty = empty
        self.reason = reason
        self.now = now
        self.from_home = from_home
        self.deck_id = deck_id

    def compose(self) -> ComposeResult:
        """Compose the session's counts, time and next due card, and the key hints."""
        s = self.summary
        percent = s.correct_percent
        of = f"{s.answered} answers" if s.answered != s.studied else str(s.answered)
        rows = [
            (s.studied_label, str(s.studied)),
            ("Correct", "–" if percent is None else f"{percent}% ({s.correct} of {of})"),
            ("Time spent", format_duration(s.seconds)),
        ]
        if not s.practice:
            rows.append(
                ("Next card due", format_next_due(s.next_due, self.now or datetime.now(UTC)))
            )
        if s.saved is not None:
            rows.insert(2, ("Concepts saved", str(s.saved)))
        with Vertical(id="summary-box"):
            title = "Session over" if s.studied or not self.empty else "Nothing to study right now"
            if s.practice:
                title = "Practice over" if s.studied or not self.empty else "Nothing to practise"
            yield Static(Content.styled(title, "bold $accent"), id="summary-title")
            # Both names of each language, on two lines where one is too short: the box
            # has the room, and the summary is read at leisure.
            where = f"{s.deck_name} · {s.pair_label} · {s.mode}"
            if s.practice:
                where += f" · practice: {s.practice}"
            yield DrawnStatic(Content(where), id="summary-where")
            if self.reason:
                yield Static(Content.styled(self.reason, "$text-warning"), id="summary-reason")
            body = Content("\n").join(
                Content.assemble((f"{label:<15}", "$text-muted"), (value, "bold"))
                for label, value in rows
            )
            yield Static(body, id="summary-figures")
            if s.note:
                yield Static(Content.styled(s.note, "$text-warning"), id="summary-note")
            if s.practice and s.studied:
                yield Static(
                    Content.styled("Practice: your answers are kept as practice.", "$text-muted"),
                    id="summary-practice",
                )
            if s.waiting:
                yield Static(
                    Content.styled(f"Waiting: {s.waiting}", "$text-muted"), id="summary-waiting"
                )
            hint = (
                "Enter: home · s: statistics · q: quit"
                if self.from_home
                else ("Enter or q: quit · s: statistics")
            )
            yield Static(Content.styled(hint, "$text-muted"), id="summary-hint")
        yield QuizFooter()

    def action_done(self) -> None:
        """Back to the home screen, or quit when the session came from the command line."""
        if self.from_home:
            self.app.pop_screen()
        else:
            self.app.exit(0)

    def action_quit(self) -> None:
        """Quit the app with exit code 0."""
        self.app.exit(0)

    def action_stats(self) -> None:
        """Open statistics for this deck."""
        self.quizzer.open_stats(self.deck_id)

    def action_help(self) -> None:
        """Show the keys."""
        from quizzer.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
