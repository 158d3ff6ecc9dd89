"""The quizzer Textual app: home → study → summary, with help and statistics on top."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from quizzer.study.selection import StudyChoice

if TYPE_CHECKING:
    from quizzer.services.study import StudyService

STATS_MODULE = "quizzer.ui.screens.stats"


class QuizzerApp(App[int]):
    """The quiz. ``start`` skips the home screen and opens a study session directly;
    ``on_first_paint`` is called once the first screen is painted."""

    CSS_PATH = "quizzer.tcss"
    TITLE = "quizzer"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "toggle_dark", "Theme", key_display="^t"),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        service: StudyService,
        *,
        start: StudyChoice | None = None,
        rtl_mode: str = "app",
        theme: str | None = None,
        on_first_paint: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.service = service
        self.start = start
        self.on_first_paint = on_first_paint
        self.rtl_mode = rtl_mode
        if theme is None:
            # Ctrl+T's last choice, if this Textual still has that theme.
            remembered = service.last_theme()
            theme = remembered if remembered in self.available_themes else None
        if theme:
            self.theme = theme

    def get_default_screen(self) -> Screen[None]:
        """The first screen: the study screen for a start given on the command line, else
        the home screen (Textual's own blank default screen would be composed, styled and
        laid out under it first, for nothing)."""
        if self.start is not None and self.start.mode == "match":
            from quizzer.ui.screens.match import MatchScreen

            return MatchScreen(self.start, from_home=False)
        if self.start is not None:
            from quizzer.ui.screens.study import StudyScreen

            return StudyScreen(self.start, from_home=False)
        from quizzer.ui.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        """Call ``on_first_paint`` after the first screen's first repaint."""
        if self.on_first_paint is not None:
            self.call_after_refresh(self.on_first_paint)

    def action_toggle_dark(self) -> None:
        """Switch between the light and the dark theme."""
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"
        self.service.remember_theme(self.theme)

    @staticmethod
    def stats_available() -> bool:
        """Whether the statistics screen is installed."""
        return importlib.util.find_spec(STATS_MODULE) is not None

    def open_stats(self, deck: str | None = None) -> None:
        """Push the statistics screen (for ``deck``, or every deck), if it is installed."""
        if not self.stats_available():
            self.notify("The statistics screen is not available.", severity="warning")
            return
        from quizzer.ui.screens.stats import StatsScreen

        self.push_screen(StatsScreen(load=lambda: self.service.stats(deck)))

    def on_unmount(self) -> None:
        """Close the study service."""
        self.service.close()
