"""The console the deck commands print on (they pass it `rich.text.Text`, never markup)."""

from __future__ import annotations

from rich.console import Console

from quizzer.ui.textshape import fix_cell_widths


def text_console() -> Console:
    """The console deck texts are printed on: no highlighting, lines as long as the text."""
    # Bengali vowel signs take a cell in terminals; Rich counts some as zero.
    fix_cell_widths()
    return Console(highlight=False, soft_wrap=True)
