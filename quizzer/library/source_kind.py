"""What a file given to ``quizzer import`` holds, told by its first bytes: an Anki package, a
table (Quizlet export, CSV/TSV), or a glossary.

Kept apart from the import of deck sources (:mod:`quizzer.services.deck_import`, which reads
Anki packages): telling a glossary costs a glossary import a few microseconds, not the
Anki reader's imports.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

from quizzer.decksources.delimited import read_table
from quizzer.decksources.table import DeckSourceError
from quizzer.errors import SourceError
from quizzer.glossary.parse import decode

SourceKind = Literal["anki", "table", "glossary"]

#: How much of a file tells its kind: Anki's header lines, a header row, the first rows.
HEAD_BYTES = 64 * 1024

#: File names read as an Anki package, and as a table, whatever their content.
ANKI_SUFFIXES = (".apkg", ".colpkg")
TABLE_SUFFIXES = (".csv", ".tsv")

#: How a zip (an Anki package) starts.
ZIP_MAGIC = b"PK\x03\x04"


def source_kind(path: Path, separator: str | None = None) -> SourceKind:
    """What the file at ``path`` holds, by its content: an Anki package (a zip, or a file
    named ``.apkg``/``.colpkg``), a table (named ``.csv``/``.tsv``, or
    :func:`quizzer.decksources.delimited.read_table` finds one in its first lines), else a
    glossary. Only the file's head is read; the reader of its kind reads it all, checked."""
    # A file named as a package or a table is read as one, so that one missing or damaged
    # (empty, cut short, not a zip) is refused in the words of its kind, not a glossary's.
    suffix = path.suffix.lower()
    head, whole = _head(path)
    if suffix in ANKI_SUFFIXES or (head is not None and head.startswith(ZIP_MAGIC)):
        return "anki"
    if separator is not None or suffix in TABLE_SUFFIXES:
        return "table"
    if head is None:
        return "glossary"  # no regular file: the glossary reader says what is wrong
    text = None
    for cut in range(4):  # the head may end inside a character
        try:
            text = decode(head[: len(head) - cut])
            break
        except SourceError:
            continue
    if text is None:
        return "glossary"
    if not whole:
        text = text.rpartition("\n")[0]  # the last line may go on past the head
    try:
        return "table" if read_table(text) is not None else "glossary"
    except DeckSourceError:
        return "table"  # a table with a bad row: reading it says which


def _head(path: Path) -> tuple[bytes | None, bool]:
    """The first :data:`HEAD_BYTES` of a regular file and whether that is all of it;
    ``None`` for anything else (a FIFO or a device is never opened to peek)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None, False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, False
            head = fh.read(HEAD_BYTES + 1)
    except OSError:
        return None, False
    return head[:HEAD_BYTES], len(head) <= HEAD_BYTES
