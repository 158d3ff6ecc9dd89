"""A concept being assembled by alignment, and how a seed text replaces the one it had.

Alignment puts each glossary entry into a :class:`Slot`: a concept of the existing
deck, or a new one. Its texts are rewritten from the entry by :func:`seed_text`,
which keeps a correction the user made while the seed it corrected is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.glossary.alignment_report import Match
from quizzer.glossary.entries import SourceEntry


@dataclass
class Slot:
    """A concept being assembled: its id (``None`` until named), acronym and texts so far,
    the deck's concept it started from, and the matches that put entries into it."""

    id: str | None
    acronym: str | None
    entries: dict[str, Entry]
    original: Concept | None = None
    matches: list[Match] = field(default_factory=list)
    likely: list[Slot] = field(default_factory=list)

    def can_take(self, entry: SourceEntry, any_file: bool = False) -> bool:
        """A slot takes one text per language per import: free, or already this file's
        (an edit) — or any file's when ``any_file`` (the texts are identical)."""
        lang = entry.lang
        for m in self.matches:  # (a loop, not any(): called for every entry of an import)
            if m.entry.lang == lang:
                return False
        held = self.entries.get(lang)
        return held is None or any_file or held.term.source.file == entry.file

    def unchanged(self, entries: Mapping[str, Entry]) -> bool:
        """Whether the slot, with ``entries`` as its texts, is its original concept as it
        was: the same id, acronym and entries, in the same order."""
        original = self.original
        return (
            original is not None
            and original.id == self.id
            and original.acronym == self.acronym
            and list(original.entries.items()) == list(entries.items())
        )


def seed_text(new: str, old: Text | None, file: str, line: int, notes: list[str]) -> Text:
    """The text to store for a seed, keeping a still-valid correction."""
    if (
        old is not None
        and old.source.kind == "seed"
        and (old.text, old.source.file, old.source.line) == (new, file, line)
    ):
        return old
    if old is not None and old.source.kind == "corrected":
        if old.source.original == new:
            source = Provenance(
                "corrected", file=file, line=line, original=new, reason=old.source.reason
            )
            return Text(old.text, source)
        notes.append(
            f"{file}:{line}: the seed text changed, so the correction made to it was dropped"
        )
    return Text(new, Provenance("seed", file, line))
