"""The footer with the keys that work now, recomposed at most once per refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class QuizFooter(Footer):
    """Textual's Footer, but a burst of binding changes (focus, phase, reveal) rebuilds it once.

    Textual's Footer recomposes its key widgets on every bindings update; a new
    card brings several in a row, which made the first card measurably slower.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._recompose_pending = False

    #: Narrower than this, the keys go closer together (Textual's compact footer).
    NARROW = 80

    def on_resize(self, event: events.Resize) -> None:
        """Compact below :attr:`NARROW` columns, so the last keys stay on screen."""
        self.compact = event.size.width < self.NARROW

    def bindings_changed(self, screen: Screen) -> None:
        """Schedule one recompose after the next refresh, however many updates arrive."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if not self._recompose_pending:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_once)

    async def _recompose_once(self) -> None:
        self._recompose_pending = False
        await self.recompose()
