"""What a deck source reads to: rows of cells with their line numbers, and what the file says
about them (its format, column names, deck name, tags)."""

from __future__ import annotations

from dataclasses import dataclass, field

from quizzer.errors import SourceError

#: Most rows (or notes) one deck source gives: each becomes a concept, and 200,000 short
#: rows take ~10 s and ~0.6 GB to import; a larger deck is split into several.
MAX_ROWS = 200_000


class DeckSourceError(SourceError):
    """A deck source that can't be read as asked; ``line`` is 1-based when there is one."""


@dataclass(frozen=True, slots=True)
class Row:
    """One note or row: its cells (plain text), where it starts, its Anki GUID if any, and
    the concept id it already has (a note quizzer exported names its concept)."""

    line: int
    cells: tuple[str, ...]
    guid: str | None = None
    concept_id: str | None = None


@dataclass(frozen=True, slots=True)
class SourceTable:
    """A deck source read into rows.

    ``format`` names what was read, for the report (``"Quizlet export (tab between term
    and definition, one per line)"``). ``names`` are the column names the file gives (a
    header row, Anki's ``#columns:``), or ``()``; ``deck`` the deck name it gives.
    """

    format: str
    rows: tuple[Row, ...]
    names: tuple[str, ...] = ()
    deck: str | None = None
    #: Lines for the report about what was read (columns that hold no text, left out).
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: The file's number of each text column, when some columns hold no text (Anki's
    #: ``#guid column:1``…); ``()`` when the text columns are all the file's columns.
    numbers: tuple[int, ...] = ()

    @property
    def width(self) -> int:
        """The number of text columns (the widest row)."""
        return max((len(row.cells) for row in self.rows), default=0)
