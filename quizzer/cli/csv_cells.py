"""Cells of an exported CSV that are safe to open in a spreadsheet and to print on a terminal.

A typed answer is the learner's text, or text carried in by merging another store: it may
start with ``=`` (a spreadsheet runs it as a formula) or hold ESC and other control
characters (a terminal acts on them: OSC 52 writes the clipboard, ``ESC[2J`` clears it).
"""

from __future__ import annotations

from quizzer.errors import shown

#: A cell starting with one of these is a formula to a spreadsheet (OWASP's list for CSV
#: injection); such a cell gets a leading ``'``, which spreadsheets show as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str, *, raw: bool = False, terminal: bool = False) -> str:
    """``text`` as a CSV cell: formula starts neutralised unless ``raw``; control characters
    written as escapes when the CSV goes to a ``terminal`` (whatever ``raw`` says)."""
    if terminal:
        text = shown(text)
    if not raw and text.startswith(FORMULA_STARTS):
        text = "'" + text
    return text
