"""The footer with the keys that work now: one widget drawing every key on one line.

Textual's ``Footer`` is a container of one ``FooterKey`` widget per key, recomposed
(every key widget built, styled and laid out again) whenever the bindings change: a
sixth of the home screen's first paint, and several times per card. This footer
draws the same line (the same styles: Textual's footer colours of the theme) from
the screen's active bindings, and is repainted, not recomposed, when they change.
A click on a key presses it, as on Textual's footer; a disabled key is dim.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from textual import events
from textual.content import Content
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen

#: Textual's footer colours of the current theme (the variables its Footer uses).
_KEY_STYLE = "bold $footer-key-foreground on $footer-key-background"
_DESCRIPTION_STYLE = "$footer-description-foreground on $footer-description-background"


class FooterEntry(NamedTuple):
    """One key as the footer shows it, and the cells it takes on the line."""

    key: str
    key_display: str
    description: str
    enabled: bool
    start: int
    end: int


class QuizFooter(Widget):
    """The keys of the screen's active bindings that are shown, on one line at the bottom.

    Compact below :attr:`NARROW` columns (as Textual's compact footer), so the last
    keys stay on screen.
    """

    DEFAULT_CSS = """
    QuizFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    """

    ALLOW_SELECT = False

    #: Narrower than this, the keys go closer together.
    NARROW = 80

    def __init__(self) -> None:
        super().__init__()
        self._entries: list[FooterEntry] = []

    def on_mount(self) -> None:
        """Follow the screen's bindings."""
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        """Stop following them."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Repaint with the new keys (one repaint per refresh, however many updates)."""
        if screen is self.screen:
            self.refresh()

    @property
    def entries(self) -> list[FooterEntry]:
        """The keys drawn last, in order, with their cells (for clicks and for tests)."""
        return list(self._entries)

    def _layout(self) -> list[FooterEntry]:
        compact = self.size.width < self.NARROW
        entries: list[FooterEntry] = []
        seen: set[str] = set()
        x = 0
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            # Textual's footer shows one key per action (the first bound).
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            display = self.app.get_key_display(binding)
            width = len(display) + len(binding.description) + (1 if compact else 3)
            entries.append(
                FooterEntry(binding.key, display, binding.description, enabled, x, x + width)
            )
            x += width + (1 if compact else 0)
        return entries

    def render(self) -> Content:
        """The keys: the key in the key colour, then its description."""
        self._entries = self._layout()
        compact = self.size.width < self.NARROW
        parts: list[Content | tuple[str, str] | str] = []
        for entry in self._entries:
            dim = "" if entry.enabled else " dim"
            if compact:
                key, description = entry.key_display, f" {entry.description}"
            else:
                key, description = f" {entry.key_display} ", f"{entry.description} "
            parts.append((key, _KEY_STYLE + dim))
            parts.append((description, _DESCRIPTION_STYLE + dim))
            if compact:
                parts.append(" ")
        return Content.assemble(*parts)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Press the key clicked on (a disabled one rings the bell)."""
        for entry in self._entries:
            if entry.start <= event.x < entry.end:
                if entry.enabled:
                    self.app.simulate_key(entry.key)
                else:
                    self.app.bell()
                return
