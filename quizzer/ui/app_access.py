"""One typed way from a screen or widget to the running :class:`~quizzer.ui.app.QuizzerApp`."""

from __future__ import annotations

from typing import Any, TypeVar

from textual import events
from textual.dom import DOMNode
from textual.screen import Screen

from quizzer.services.study import StudyService
from quizzer.ui.app import QuizzerApp

ResultT = TypeVar("ResultT")


def quizzer_app(node: DOMNode) -> QuizzerApp:
    """The app ``node`` runs in; ``TypeError`` if that is not a :class:`QuizzerApp`."""
    app = node.app
    if not isinstance(app, QuizzerApp):
        raise TypeError(f"{type(node).__name__} runs in {type(app).__name__}, not QuizzerApp")
    return app


def rtl_mode(node: DOMNode) -> str:
    """The app's right-to-left mode (``"app"`` outside a :class:`QuizzerApp`, e.g. a test app)."""
    app = node.app
    return app.rtl_mode if isinstance(app, QuizzerApp) else "app"


class QuizzerScreen(Screen[ResultT]):
    """A screen of the quizzer app: the app, its study service and its RTL mode, typed."""

    @property
    def quizzer(self) -> QuizzerApp:
        """The running app."""
        return quizzer_app(self)

    @property
    def service(self) -> StudyService:
        """The app's study service."""
        return quizzer_app(self).service

    @property
    def rtl_mode(self) -> str:
        """How right-to-left text is drawn (see :func:`quizzer.ui.textshape.display_text`)."""
        return rtl_mode(self)

    def on_resize(self, event: events.Resize) -> None:
        """Lay the screen out again only for a size it isn't laid out at.

        Textual's first layout of a screen posts the screen a Resize to the size it was
        just laid out at, and a terminal may report the size it already has (tmux does,
        once more as the app starts): Textual would lay the whole screen out again for each
        (three layouts more before the first paint). Anything else that changes the layout
        schedules its own.
        """
        # The size the compositor last arranged the screen for (``Screen.size`` is the
        # terminal's); Textual is pinned below 9, and tests/ui/test_ui_resize.py checks both
        # that a repeated size is skipped and that a new one is laid out.
        if event.size == self._compositor.size:
            event.prevent_default()  # (Screen._on_resize)

    def replace_with(self, screen: Screen[Any]) -> None:
        """Show ``screen`` in place of this one. The app's first screen (`quizzer study`'s
        study screen) can't be switched away (Textual switches only pushed screens): there
        ``screen`` goes on top of it."""
        if len(self.app.screen_stack) > 1:
            self.app.switch_screen(screen)
        else:
            self.app.push_screen(screen)
