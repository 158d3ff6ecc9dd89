"""Pausing the cyclic garbage collector while many small acyclic objects are built.

(The quiz's start-up pause, until its first paint, is :mod:`quizzer.cli.gc_pause`.)

A 50,000-concept deck, an import or a million answers read from the log are hundreds of
thousands of small objects without cycles; every collection walks every object alive, so
the collector's repeated passes made loading, importing and reading the log grow faster
than linearly (align: 0.66 s without, 1.3 s with; a million answers: as much as decoding).
Reference counting still frees everything.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(*, settle: bool = False) -> Iterator[None]:
    """No cyclic garbage collection inside the block (unless it was off already).

    ``settle``: the objects alive at the end go straight to the oldest generation, so the
    next young collection doesn't walk every object just built (a second at a million
    answers). When objects are frozen already (the app freezes what it holds at its first
    paint), the new ones are frozen with them rather than thawing those.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            if settle:
                settle_alive()
            gc.enable()


def settle_alive() -> None:
    """Move every object alive now to the collector's oldest generation (or, when objects
    are frozen already, freeze these with them: unfreezing would thaw the app's too)."""
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    if not frozen_before:
        gc.unfreeze()
