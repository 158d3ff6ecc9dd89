"""Aligning glossaries into one deck: which entries of which files are the same concept.

Glossaries in different languages rarely share a key, so alignment collects
evidence, strongest first, for each entry of each file:

1. ``map``        — the user's mapping file says so (confidence 1.0);
2. ``text``       — an existing concept already holds this very term in this language;
3. ``provenance`` — an existing concept's text came from this file and line (an edited
   entry keeps its concept);
4. ``acronym``    — the same acronym (PEFT, ZeRO, MoE) (0.95);
5. ``position``   — the files are parallel: same number of entries, and every acronym
   both files have sits at the same position (0.9; 0.6 when no acronym confirms it);
6. ``new``        — none of the above: a new concept.

Merging into an existing deck is idempotent (the same files give the same deck)
and keeps every concept id; texts the files don't carry (authored English, other
languages) are kept, and a ``corrected`` text survives while its seed is unchanged.

The pieces, in the order an import uses them: :mod:`~quizzer.glossary.entries` (the
glossary entries to align), :mod:`~quizzer.glossary.mapping` (the mapping file),
:mod:`~quizzer.glossary.matching` (the passes above, over the
:mod:`~quizzer.glossary.slot` of each concept), :mod:`~quizzer.glossary.concept_ids`
(naming new concepts) and :mod:`~quizzer.glossary.alignment_report`. What counts as
an acronym is :mod:`quizzer.concepts.term_parts`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from quizzer.concepts.deck import Deck
from quizzer.glossary.alignment_report import (
    AlignmentReport,
)
from quizzer.glossary.entries import AlignError, SourceFile
from quizzer.glossary.mapping import check_mapping
from quizzer.glossary.matching import Aligner


def align(
    files: Sequence[SourceFile],
    *,
    deck_id: str,
    deck_name: str,
    existing: Deck | None = None,
    mapping: Mapping[tuple[str, int], str] | None = None,
) -> tuple[Deck, AlignmentReport]:
    """Align ``files`` (in order) into one deck, merging into ``existing`` when given.

    Returns the new deck and the alignment report. Raises :class:`AlignError` when
    the mapping contradicts itself or two files share a name, and its
    :class:`~quizzer.glossary.mapping.MappingError` for a mapping entry that matches
    nothing (see :func:`~quizzer.glossary.mapping.check_mapping`).
    """
    names = [f.file for f in files]
    for name in names:
        if names.count(name) > 1:
            raise AlignError(
                "two glossaries with the same file name in one import",
                file=name,
                hint="rename one of them: the file name is recorded as each text's source",
            )
    mapping = dict(mapping or {})
    check_mapping(mapping, files)
    aligner = Aligner(existing, mapping)
    known_ids = {c.id for c in existing.concepts} if existing else set()
    if any(cid not in known_ids for cid in mapping.values()):
        # New concepts get their ids at the end; a mapping may name them as a run without it
        # (the dry run's report) does. An id neither has matches nothing: an error.
        _deck, first_pass = align(files, deck_id=deck_id, deck_name=deck_name, existing=existing)
        for concept in first_pass.concepts:
            aligner.planned[concept.concept_id] = [
                (m.entry.file, m.entry.term_line) for m in concept.matches
            ]
    for position, source in enumerate(files):
        aligner.align_file(source, first=position == 0 and existing is None)
    if aligner.planned:
        # After the passes, so a mapping that puts two entries into one concept is reported
        # as that (the stronger hint) before the id it names.
        check_mapping(mapping, files, known_ids | set(aligner.planned), deck_id)
    return aligner.result(deck_id, deck_name)
