"""A snapshot's manifest of the review log (``meta.months``) and its check.

Apart from :mod:`quizzer.progress.monthfile` so that opening a store, which checks the
manifest, doesn't import the month files' reader (their decoder and cache), needed only
when the review log itself is read or written.
"""

from __future__ import annotations

from typing import Any

from quizzer.progress.values import shown_value

#: The manifest of a snapshot: month -> [answers it holds, generation that wrote it].
Manifest = dict[str, list[int]]


def manifest_problem(value: Any) -> str | None:
    """What is wrong with a snapshot's ``meta.months`` (``None``: nothing)."""
    if not isinstance(value, dict):
        return f"meta.months is not a table: {shown_value(value)}"
    for month, entry in value.items():
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in entry)
        ):
            key = shown_value(month, 20)
            return f"meta.months[{key}] is not [count, generation]: {shown_value(entry)}"
    return None
