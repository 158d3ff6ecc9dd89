"""Reading the store's JSON with a limit on nesting, so that a too-deep document is damage.

Python's JSON decoders (``json``'s C scanner, msgspec) bound nesting by the interpreter's
recursion limit and raise :class:`RecursionError` when a document goes deeper. That is not
a ``ValueError``, so every ``except ValueError`` that turns a bad file into "damaged, run
the doctor" let it through as a traceback: one file of ``[[[[…`` stopped every command,
the doctor included. :func:`loads` says it as :class:`TooDeep`, a ``ValueError`` like any
other malformed JSON. No store quizzer writes nests more than a few levels.
"""

from __future__ import annotations

import json
from typing import Any


class TooDeep(ValueError):
    """A JSON document nested deeper than the decoder can follow."""

    def __init__(self) -> None:
        super().__init__("nested too deeply to read")


def loads(data: bytes | str) -> Any:
    """``json.loads(data)``; :class:`TooDeep` (a ``ValueError``) when it nests too deeply."""
    try:
        return json.loads(data)
    except RecursionError as exc:
        raise TooDeep from exc
