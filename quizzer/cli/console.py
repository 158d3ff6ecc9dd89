"""The console the deck commands print on (they pass it `rich.text.Text`, never markup)."""

from __future__ import annotations

from rich.console import Console, ConsoleRenderable, RenderHook

from quizzer.ui.drawn_cells import DrawnWidths


class _DrawnWidths(RenderHook):
    """Prints everything through :class:`DrawnWidths`: Bengali and Hindi vowel signs take a
    cell on a terminal, which Rich's tables don't count; a table keeps its columns."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        """Each renderable wrapped to be drawn with its lines fitted."""
        return [DrawnWidths(renderable) for renderable in renderables]


def text_console() -> Console:
    """The console deck texts are printed on: no highlighting, lines as long as the text."""
    console = Console(highlight=False, soft_wrap=True)
    console.push_render_hook(_DrawnWidths())
    return console
