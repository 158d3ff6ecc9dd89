"""The matching passes of alignment: which slot each entry of a glossary file goes into.

:class:`Aligner` keeps the slots (the existing deck's concepts, then new ones) and
aligns one file at a time, strongest evidence first: the mapping file, the same text,
the same file and line, the same acronym, then position against a parallel file (or,
with entries added or missing, against the segments between sure matches); what is
left becomes a new concept. :meth:`Aligner.result` names the new concepts and builds
the deck and the report.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Generic, TypeVar

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import order_languages
from quizzer.glossary.alignment_report import AlignmentReport, ConceptReport, Match
from quizzer.glossary.concept_ids import new_concept_ids
from quizzer.glossary.entries import AlignError, SourceEntry, SourceFile
from quizzer.glossary.slot import Slot, seed_text

_Key = TypeVar("_Key")


class Aligner:
    """Aligns glossary files one by one into the slots of a deck being built (see
    :mod:`quizzer.glossary.align` for the evidence, strongest first)."""

    def __init__(self, existing: Deck | None, mapping: Mapping[tuple[str, int], str]) -> None:
        self.slots: list[Slot] = []
        self.by_id: dict[str, Slot] = {}
        self.mapping = mapping
        self.notes: list[str] = []
        # Concept id → (file, term line) keys a first pass put there; see _provisional.
        self.planned: dict[str, list[tuple[str, int]]] = {}
        self.slot_by_key: dict[tuple[str, int], Slot] = {}
        # (file, line, lang, slot that kept texts from that line, slot its entry went into).
        self.moved: list[tuple[str, int, str, Slot, Slot]] = []
        # File name → slot per entry position, for position alignment.
        self.sequences: dict[str, list[Slot]] = {}
        # The deck's languages in order: the existing deck's, then each file's as it comes.
        self.languages: tuple[str, ...] = existing.languages if existing is not None else ()
        if existing is not None:
            for concept in existing.concepts:
                slot = Slot(concept.id, concept.acronym, dict(concept.entries), concept)
                self.slots.append(slot)
                self.by_id[concept.id] = slot
            lines: dict[str, list[tuple[int, Slot]]] = {}
            for slot in self.slots:
                for entry in slot.entries.values():
                    src = entry.term.source
                    if src.file and src.line:
                        lines.setdefault(src.file, []).append((src.line, slot))
            for file, pairs in lines.items():
                self.sequences[file] = [s for _line, s in sorted(pairs, key=itemgetter(0))]

    def _provisional(self, cid: str, file: str) -> Slot | None:
        """The slot an earlier file of this import started for concept ``cid``.

        New concepts get their ids only at the end (from all their texts), so a
        mapping naming such an id (as a dry run reported it) is resolved through the
        entries a first pass without the mapping put into that concept.
        """
        for key in self.planned.get(cid, ()):
            slot = self.slot_by_key.get(key)
            if slot is not None and key[0] != file and slot.original is None:
                return slot
        return None

    # -- matching -------------------------------------------------------------------------

    def align_file(self, source: SourceFile, first: bool) -> None:
        """Put every entry of ``source`` into a slot (``first``: the first file of an
        import into no deck, where every new concept is a sure one)."""
        entries = source.entries
        n = len(entries)
        self.languages = order_languages((*self.languages, *(e.lang for e in entries)))
        before = len(self.slots)  # the slots this file finds (it appends its new ones)
        chosen: list[tuple[Slot, str, float] | None] = [None] * n
        claimed: set[int] = set()

        def claim(i: int, slot: Slot, method: str, confidence: float) -> None:
            chosen[i] = (slot, method, confidence)
            claimed.add(id(slot))

        # 1. the mapping file
        for i, e in enumerate(entries if self.mapping else ()):
            cid = self.mapping.get((e.file, e.term_line))
            if cid is None:
                continue
            slot = self.by_id.get(cid) or self._provisional(cid, e.file)
            if slot is None:
                slot = Slot(cid, None, {})
                self.slots.append(slot)
            slot.id = cid
            self.by_id[cid] = slot
            if id(slot) in claimed or not slot.can_take(e):
                raise AlignError(
                    f"the mapping puts this entry into concept {cid!r}, which already has a "
                    f"{e.lang} text from another entry",
                    file=e.file,
                    line=e.term_line,
                    hint="map each concept to one entry per language",
                )
            claim(i, slot, "map", 1.0)

        # 2. same text, 3. same file and line, 4. same acronym — looked up in indexes of the
        # slots as they stand before this file, so a merge stays linear in the deck size.
        # (Claims don't change the slots' texts, so each index is built when first needed.)
        by_text: dict[tuple[str, str], list[Slot]] = {}
        for slot in self.slots:
            for lang, held in slot.entries.items():
                text, original = held.term.text, held.term.source.original
                if text:
                    by_text.setdefault((lang, text), []).append(slot)
                if original and original != text:
                    by_text.setdefault((lang, original), []).append(slot)

        # (Each pass only when its index has something: a first import has no slots yet.)
        same_text = _OpenSlots(by_text, claimed, any_file=True)
        for i, e in enumerate(entries if by_text else ()):
            if chosen[i] is None:
                hit = same_text.unique((e.lang, e.term), e)
                if hit is not None:
                    claim(i, hit, "text", 1.0)
        # (Later passes look only at the entries still open: none, re-importing a file.)
        pending = [i for i in range(n) if chosen[i] is None]
        by_line, by_acronym = self._line_and_acronym_indexes() if pending else ({}, {})
        same_line = _OpenSlots(by_line, claimed)
        for i in pending if by_line else ():
            e = entries[i]
            hit = same_line.unique((e.lang, e.file, e.term_line), e)
            if hit is not None:
                claim(i, hit, "provenance", 1.0)
        same_acronym = _OpenSlots(by_acronym, claimed)
        for i in pending if by_acronym else ():
            e = entries[i]
            if chosen[i] is None and e.acronym:
                hit = same_acronym.unique(e.acronym.casefold(), e)
                if hit is not None:
                    claim(i, hit, "acronym", 0.95)

        # 5. position, against a parallel file seen before
        ref = self._parallel_reference(source, chosen)
        likely: dict[int, list[Slot]] = {}
        if ref is not None:
            sequence, anchors = ref
            for i, e in enumerate(entries):
                slot = sequence[i]
                pick = chosen[i]
                if pick is None and id(slot) not in claimed and slot.can_take(e):
                    claim(i, slot, "position", 0.9 if anchors else 0.6)
                elif pick is not None and pick[1] == "acronym" and pick[0] is slot:
                    chosen[i] = (slot, "acronym+position", 1.0)
        else:
            likely = self._segment_align(source, chosen, claimed, claim)

        # 6. new concepts
        pending = [i for i in range(n) if chosen[i] is None]
        # The languages an open slot lacks: an entry in one of them might have belonged there.
        open_langs = (
            {
                lang
                for lang in {entries[i].lang for i in pending}
                if any(id(s) not in claimed and lang not in s.entries for s in self.slots)
            }
            if pending and not first
            else set()
        )
        for i in pending:
            slot = Slot(None, None, {})
            self.slots.append(slot)
            # Sure when no earlier concept could have taken it (e.g. the first file).
            sure = first or entries[i].lang not in open_langs
            chosen[i] = (slot, "new", 1.0 if sure else 0.5)

        if ref is None:
            for i, candidates in likely.items():
                slot, method, _confidence = chosen[i]  # type: ignore[misc]
                if method == "new":
                    chosen[i] = (slot, "new", 0.5)
                    slot.likely.extend(candidates)

        sequence_out: list[Slot] = []
        filled: set[tuple[int, str]] = set()  # (slot, language) this file put an entry into
        for i, e in enumerate(entries):
            slot, method, confidence = chosen[i]  # type: ignore[misc]
            self._apply(slot, e)
            slot.matches.append(Match(e, method, confidence))
            self.slot_by_key[(e.file, e.term_line)] = slot
            sequence_out.append(slot)
            filled.add((id(slot), e.lang))
        self.sequences[source.file] = sequence_out
        # Texts an earlier import took from this file that it no longer holds are kept
        # (progress hangs off them) but reported, so the user can remove them by hand.
        # (Slots this file made hold its own entries only.)
        for slot in itertools.islice(self.slots, before):
            for lang, held in slot.entries.items():
                src = held.term.source
                if src.file == source.file and (id(slot), lang) not in filled:
                    now = self.slot_by_key.get((source.file, src.line or 0))
                    if now is not None and now is not slot:
                        # The file still has that line, but its entry went elsewhere (a
                        # mapping, an edit): named in result(), once new concepts have ids.
                        self.moved.append((source.file, src.line or 0, lang, slot, now))
                    else:
                        self.notes.append(
                            f"{source.file}: concept {slot.id!r} kept its {lang} texts from "
                            f"line {src.line}, which the file no longer has"
                        )

    def _line_and_acronym_indexes(
        self,
    ) -> tuple[dict[tuple[str, str, int], list[Slot]], dict[str, list[Slot]]]:
        """The slots by (language, file, line) of each term, and by acronym (casefolded)."""
        by_line: dict[tuple[str, str, int], list[Slot]] = {}
        by_acronym: dict[str, list[Slot]] = {}
        for slot in self.slots:
            for lang, held in slot.entries.items():
                src = held.term.source
                if src.file and src.line:
                    by_line.setdefault((lang, src.file, src.line), []).append(slot)
            if slot.acronym:
                by_acronym.setdefault(slot.acronym.casefold(), []).append(slot)
        return by_line, by_acronym

    def _segment_align(
        self,
        source: SourceFile,
        chosen: list[tuple[Slot, str, float] | None],
        claimed: set[int],
        claim: Callable[[int, Slot, str, float], None],
    ) -> dict[int, list[Slot]]:
        """Position alignment against a parallel file with entries added or missing.

        The entries already matched for sure (text, acronym, mapping) that sit in the
        same order in an earlier file cut both files into segments. A segment with as
        many open entries here as there are open concepts there is aligned by position
        (0.85); in a segment whose sizes differ nothing is certain, so its entries stay
        new concepts and are returned with the concepts they most likely belong to
        (counting from the segment's start and from its end), for the report.
        """
        best: tuple[int, list[tuple[int, int]], list[Slot]] | None = None
        for file, sequence in self.sequences.items():
            if file == source.file:
                continue
            where = {id(slot): j for j, slot in enumerate(sequence)}
            anchors: list[tuple[int, int]] = []
            for i, pick in enumerate(chosen):
                if pick is not None and id(pick[0]) in where:
                    anchors.append((i, where[id(pick[0])]))
            if not anchors or any(b[1] <= a[1] for a, b in itertools.pairwise(anchors)):
                continue  # nothing sure to cut by, or the two files disagree on the order
            if best is None or len(anchors) > best[0]:
                best = (len(anchors), anchors, sequence)
        if best is None:
            return {}
        _count, anchors, sequence = best
        n, m = len(source.entries), len(sequence)
        likely: dict[int, list[Slot]] = {}
        bounds = [(-1, -1), *anchors, (n, m)]
        for (i0, j0), (i1, j1) in itertools.pairwise(bounds):
            here = [i for i in range(i0 + 1, i1) if chosen[i] is None]
            there = list({id(t): t for t in sequence[j0 + 1 : j1] if id(t) not in claimed}.values())
            if not here:
                continue
            if len(here) == len(there):
                for i, slot in zip(here, there, strict=True):
                    if slot.can_take(source.entries[i]):
                        claim(i, slot, "position", 0.85)
                continue
            for k, i in enumerate(here):
                candidates = []
                if k < len(there):
                    candidates.append(there[k])
                back = len(there) - (len(here) - k)
                if 0 <= back < len(there) and all(c is not there[back] for c in candidates):
                    candidates.append(there[back])
                likely[i] = candidates
        if likely:
            self.notes.append(
                f"{source.file} has {n} entries, {self.file_of(sequence)} has {m}: where the "
                "counts differ between two sure matches, entries were kept apart (UNSURE)"
            )
        return likely

    def file_of(self, sequence: list[Slot]) -> str:
        """The name of the file whose slot sequence ``sequence`` is."""
        return next((f for f, seq in self.sequences.items() if seq is sequence), "?")

    def _parallel_reference(
        self, source: SourceFile, chosen: Sequence[tuple[Slot, str, float] | None]
    ) -> tuple[list[Slot], int] | None:
        """The best earlier file with as many entries whose known matches all line up."""
        n = len(source.entries)
        best: tuple[int, str, list[Slot]] | None = None
        for file, sequence in self.sequences.items():
            if file == source.file or len(sequence) != n:
                continue
            agree = conflict = 0
            for i, e in enumerate(source.entries):
                slot = sequence[i]
                pick = chosen[i]
                if pick is not None:
                    if pick[0] is slot:
                        agree += 1
                    else:
                        conflict += 1
                elif e.acronym and slot.acronym:
                    if e.acronym.casefold() == slot.acronym.casefold():
                        agree += 1
                    else:
                        conflict += 1
            if conflict:
                self.notes.append(
                    f"{source.file} has as many entries as {file} but {conflict} of them "
                    "don't line up, so it was not aligned by position"
                )
                continue
            if best is None or agree > best[0]:
                best = (agree, file, sequence)
        if best is None:
            return None
        return best[2], best[0]

    def _apply(self, slot: Slot, e: SourceEntry) -> None:
        old = slot.entries.get(e.lang)
        if old is None:  # a new text (every one of a first import): seed_text's answer
            file = e.file
            term = Text(e.term, Provenance("seed", file, e.term_line, None, None))
            definition = Text(e.definition, Provenance("seed", file, e.definition_line, None, None))
            slot.entries[e.lang] = Entry(term, definition)
            if slot.acronym is None and e.acronym:
                slot.acronym = e.acronym
            return
        if old is not None and old.term.source.kind == "authored":
            self.notes.append(
                f"{e.where}: the {e.lang} text authored in the deck was replaced by the seed"
            )
            old = None
        term = seed_text(e.term, old.term if old else None, e.file, e.term_line, self.notes)
        definition = seed_text(
            e.definition, old.definition if old else None, e.file, e.definition_line, self.notes
        )
        if old is None or term is not old.term or definition is not old.definition:
            slot.entries[e.lang] = Entry(term=term, definition=definition)
        # (else the entry is unchanged: kept as it is, the very object the deck had)
        if slot.acronym is None and e.acronym:
            slot.acronym = e.acronym

    # -- result ---------------------------------------------------------------------------

    def result(self, deck_id: str, deck_name: str) -> tuple[Deck, AlignmentReport]:
        """Name the new concepts; the deck and the report of what the files touched."""
        taken = {s.id for s in self.slots if s.id}
        unnamed = [slot for slot in self.slots if slot.id is None]
        for slot, cid in zip(unnamed, new_concept_ids(unnamed, taken), strict=True):
            slot.id = cid
        for file, line, lang, kept, now in self.moved:
            self.notes.append(
                f"{file}: concept {kept.id!r} kept its {lang} texts from line {line}; the "
                f"entry on that line now goes into concept {now.id!r} (remove the kept texts "
                "from the deck by hand if they don't belong there)"
            )
        concepts: list[Concept] = []
        reports: list[ConceptReport] = []
        for slot in self.slots:
            ordered = slot.entries
            if len(ordered) > 1:
                ordered = {lang: ordered[lang] for lang in self.languages if lang in ordered}
            original = slot.original
            if original is None:
                status = "new"
            else:
                status = "unchanged" if slot.unchanged(ordered) else "updated"
            if status == "unchanged" and original is not None and original.deck == deck_id:
                # The deck's own concept, the same in every field: kept as that object, so
                # an unchanged deck compares with the existing one by identity.
                concept = original
            else:
                concept = Concept(slot.id or "", deck_id, slot.acronym, ordered)
            concepts.append(concept)
            if not slot.matches:
                continue
            likely: tuple[str, ...] = ()
            if slot.likely:
                named = dict.fromkeys(c.id or "" for c in slot.likely if c is not slot)
                likely = tuple(cid for cid in named if cid)
            reports.append(ConceptReport(concept.id, status, tuple(slot.matches), likely))
        deck = Deck(id=deck_id, name=deck_name, concepts=tuple(concepts))
        return deck, AlignmentReport(tuple(reports), tuple(self.notes))


class _OpenSlots(Generic[_Key]):
    """The slots an index holds under a key that may still take an entry of the file being
    aligned: the one such slot, or none when there are several (nothing is sure then).

    Whether a slot can take an entry depends, during the matching passes, only on the slot
    and the entry's language and file (a pass aligns one file): each key's list is filtered
    once per language, and a slot claimed since is dropped from it when met. So n entries
    with one key cost n steps, not n² (re-importing 8,000 identical entries took 100 s).
    """

    def __init__(
        self, index: Mapping[_Key, list[Slot]], claimed: set[int], any_file: bool = False
    ) -> None:
        self.index = index
        self.claimed = claimed
        self.any_file = any_file
        self.open: dict[tuple[str, _Key], list[Slot]] = {}  # by (entry's language, key)

    def unique(self, key: _Key, entry: SourceEntry) -> Slot | None:
        """The one slot under ``key`` that is not claimed and can take ``entry``, if one."""
        slots = self.open.get((entry.lang, key))
        if slots is None:
            any_file = self.any_file
            slots = [s for s in self.index.get(key, ()) if s.can_take(entry, any_file)]
            self.open[entry.lang, key] = slots
        found = None
        i = 0
        while i < len(slots):
            slot = slots[i]
            if id(slot) in self.claimed:  # claimed for good: dropped (the order doesn't count)
                slots[i] = slots[-1]
                slots.pop()
                continue
            if found is not None:
                return None
            found = slot
            i += 1
        return found
