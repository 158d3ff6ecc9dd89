"""Glossary entries ready to align, and the error alignment reports.

A :class:`SourceFile` is one parsed, language-tagged glossary; its
:class:`SourceEntry` records carry what alignment needs (texts, lines, language,
the term's acronym) and what the deck records as provenance (file name, lines).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quizzer.concepts.term_parts import acronym_of
from quizzer.errors import SourceError
from quizzer.glossary.language_id import FileLanguage


class AlignError(SourceError):
    """The glossaries or the mapping can't be aligned as asked (``file`` names the glossary)."""


@dataclass(frozen=True, slots=True)
class SourceEntry:
    """A glossary entry ready to align: its texts, lines, language and file name."""

    file: str
    index: int
    lang: str
    term: str
    definition: str
    term_line: int
    definition_line: int
    #: The term's acronym (:func:`quizzer.concepts.term_parts.acronym_of`), set on creation.
    acronym: str | None = field(default=None, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "acronym", acronym_of(self.term))

    @property
    def where(self) -> str:
        """The entry's file and term line, as ``file:line`` for messages."""
        return f"{self.file}:{self.term_line}"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One glossary file's entries (file is the bare name recorded in provenance), and its
    languages as identification found them."""

    file: str
    title: str
    entries: tuple[SourceEntry, ...]
    #: The file's languages with their entry counts and confidence, in order.
    languages: tuple[FileLanguage, ...] = ()
    #: (term line, note) for entries whose language couldn't be told.
    language_notes: tuple[tuple[int, str], ...] = ()
