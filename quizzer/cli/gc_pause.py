"""The cyclic garbage collector held off while the quiz starts, until its first paint.

Starting the app builds a few hundred thousand long-lived objects (modules, classes,
Textual's widgets and styles, the decks' summaries, the store's card states) and next to
no garbage, yet the collector walks them again and again as they pile up: about a tenth
of the CPU time to the first paint. :func:`pause` holds it off; :func:`resume`, called
once the first screen is painted (``QuizzerApp(on_first_paint=...)``, or when the command
ends), moves what exists by then out of its reach (``gc.freeze``: it lives as long as the
app anyway) and turns it back on.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Hold the collector off until :func:`resume` (nothing if it is already off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Undo :func:`pause`: freeze what was built meanwhile and turn the collector on again.

    Does nothing unless :func:`pause` turned it off (so a test app, run with the collector
    on, is left alone); safe to call more than once.
    """
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def paused() -> bool:
    """Whether :func:`pause` holds the collector off now."""
    return _paused
