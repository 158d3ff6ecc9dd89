"""The base of quizzer's own screens: the app, its study service and its RTL mode, typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual.screen import Screen

if TYPE_CHECKING:
    from quizzer.services.study import StudyService
    from quizzer.ui.app import QuizzerApp

ResultT = TypeVar("ResultT")


class QuizzerScreen(Screen[ResultT]):
    """A screen of the quizzer app. It runs in a :class:`~quizzer.ui.app.QuizzerApp`, which
    pushes it: the app is imported for its type only, so the screens don't import the app
    that imports them."""

    @property
    def quizzer(self) -> QuizzerApp:
        """The running app."""
        return cast("QuizzerApp", self.app)

    @property
    def service(self) -> StudyService:
        """The app's study service."""
        return self.quizzer.service

    @property
    def rtl_mode(self) -> str:
        """How right-to-left text is drawn (see :func:`quizzer.ui.textshape.display_text`)."""
        return self.quizzer.rtl_mode

    def replace_with(self, screen: Screen[Any]) -> None:
        """Show ``screen`` in place of this one. The app's first screen (`quizzer study`'s
        study screen) can't be switched away (Textual switches only pushed screens): there
        ``screen`` goes on top of it."""
        if len(self.app.screen_stack) > 1:
            self.app.switch_screen(screen)
        else:
            self.app.push_screen(screen)
