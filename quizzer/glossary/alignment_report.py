"""The alignment report: per concept an import touched, which entries went in, how, how sure.

Each entry's :class:`Match` names the evidence (``map``, ``text``, ``provenance``,
``acronym``, ``acronym+position``, ``position``, ``new``; see :mod:`quizzer.glossary.align`)
and its confidence; a concept below :data:`UNSURE_BELOW` is reported as unsure, and
``quizzer import`` then suggests a mapping file.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator
from dataclasses import dataclass

from quizzer.glossary.entries import SourceEntry

#: Below this confidence a match is reported as unsure, with a mapping-file hint.
UNSURE_BELOW = 0.8


@dataclass(frozen=True, slots=True)
class Match:
    """Why an entry went into its concept (see :class:`ConceptReport` for which)."""

    entry: SourceEntry
    method: str
    confidence: float


@dataclass(frozen=True, slots=True)
class ConceptReport:
    """How one concept of the result was assembled: its entries and the weakest confidence."""

    concept_id: str
    status: str  # "new", "updated", "unchanged"
    matches: tuple[Match, ...]
    #: For an entry that parallel files couldn't place for sure: the concept ids it most
    #: likely belongs to (counted from the sure entries before it and after it).
    likely: tuple[str, ...] = ()

    @property
    def confidence(self) -> float:
        """The lowest confidence of the concept's matches (1.0 with none)."""
        matches = self.matches
        if len(matches) == 1:  # most concepts of a one-file import: no generator
            return matches[0].confidence
        return min((m.confidence for m in matches), default=1.0)

    @property
    def unsure(self) -> bool:
        """Whether the weakest match is below :data:`UNSURE_BELOW`."""
        return self.confidence < UNSURE_BELOW


@dataclass(frozen=True, slots=True)
class AlignmentReport:
    """Per concept touched by the import, what matched and how sure it is; plus notes."""

    concepts: tuple[ConceptReport, ...]
    notes: tuple[str, ...] = ()

    def count(self, status: str) -> int:
        """How many concepts have ``status`` (``new``, ``updated`` or ``unchanged``)."""
        return operator.countOf(map(_STATUS, self.concepts), status)

    def matches(self) -> Iterator[Match]:
        """Every match of every concept, in order."""
        return itertools.chain.from_iterable(map(_MATCHES, self.concepts))

    def weakest(self) -> float:
        """The lowest confidence of any match (1.0 with none)."""
        return min(map(_CONFIDENCE, self.matches()), default=1.0)

    @property
    def unsure(self) -> tuple[ConceptReport, ...]:
        """The concepts with at least one unsure match."""
        if self.weakest() >= UNSURE_BELOW:  # (the usual answer, without a call per concept)
            return ()
        return tuple(c for c in self.concepts if c.unsure)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (for ``--json`` style output and tests)."""
        return {
            "concepts": [
                {
                    "id": c.concept_id,
                    "status": c.status,
                    "confidence": round(c.confidence, 2),
                    "likely": list(c.likely),
                    "entries": [
                        {
                            "file": m.entry.file,
                            "line": m.entry.term_line,
                            "lang": m.entry.lang,
                            "method": m.method,
                            "confidence": m.confidence,
                        }
                        for m in c.matches
                    ],
                }
                for c in self.concepts
            ],
            "notes": list(self.notes),
        }


# C-level getters: a 50,000-concept report is summed up without a Python call per concept.
_STATUS = operator.attrgetter("status")
_MATCHES = operator.attrgetter("matches")
_CONFIDENCE = operator.attrgetter("confidence")
