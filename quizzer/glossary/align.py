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
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from quizzer.concepts.concept import SLUG_RE, Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import LANGUAGES
from quizzer.errors import SourceError
from quizzer.glossary.slug import slugify

#: Below this confidence a match is reported as unsure, with a mapping-file hint.
UNSURE_BELOW = 0.8

#: An acronym: starts with a capital, ends with a capital or digit, Latin letters, digits
#: and hyphens between ("PEFT", "LoRA", "ZeRO", "MoE", "GPT-4").
_ACRONYM_TOKEN = re.compile(r"^[A-Z](?:[A-Za-z0-9\-]*[A-Z0-9])?$")


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
    #: The term's acronym (see :func:`acronym_of`), computed on creation.
    acronym: str | None = field(default=None, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "acronym", acronym_of(self.term))

    @property
    def where(self) -> str:
        """The entry's file and term line, as ``file:line`` for messages."""
        return f"{self.file}:{self.term_line}"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One glossary file's entries (file is the bare name recorded in provenance)."""

    file: str
    title: str
    entries: tuple[SourceEntry, ...]


def _is_acronym(token: str) -> bool:
    token = token.strip()
    if not token or " " in token or len(token) > 16 or not _ACRONYM_TOKEN.match(token):
        return False
    upper = sum(1 for ch in token if "A" <= ch <= "Z")
    lower = sum(1 for ch in token if "a" <= ch <= "z")
    # Mostly capitals, lower-case only inside: "LoRA", "MoE" — not a CamelCase name
    # ("SmoothQuant", "DeepSpeed") nor a code-like name ("LLM.int8()").
    return upper >= 2 and lower <= upper


def acronym_of(term: str) -> str | None:
    """The acronym a term carries: ``"… (PEFT)"``, ``"(ZeRO/…)"``, or a term like ``GPTQ``.

    An acronym is one Latin token of mostly capitals, lower-case letters only inside
    (``LoRA``, ``MoE``, ``PEFT``); words such as ``Flash Attention``, CamelCase names
    (``SmoothQuant``) and code-like names (``LLM.int8()``) are not.
    """
    head, sep, rest = term.partition(" (")
    if sep:
        inside = rest.rsplit(")", 1)[0]
        for part in re.split(r"[/,;]", inside):
            if _is_acronym(part):
                return part.strip()
        if _is_acronym(head):
            return head.strip()
        return None
    return term.strip() if _is_acronym(term) else None


def parse_mapping(text: str, name: str = "mapping file") -> dict[tuple[str, int], str]:
    """Parse a mapping file: which concept id an entry (file name, line) belongs to.

    Format (TOML)::

        # file name = { line of the term (or definition) = "concept-id" }
        ["002_8ab2fe190dc945a0.txt"]
        27 = "moe"

    A concept id not in the deck yet names a new concept.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        raise AlignError(
            f"{name} is not valid TOML: {exc}",
            line=int(found.group(1)) if found else None,
            hint='write one table per glossary file: ["file.txt"] then lines like 27 = "moe"',
        ) from exc
    out: dict[tuple[str, int], str] = {}
    for file, table in data.items():
        if not isinstance(table, Mapping):
            raise AlignError(
                f"{name}: {file!r} must be a table of line = concept-id",
                hint=f'write ["{file}"] on its own line, then lines like 27 = "moe"',
            )
        for key, cid in table.items():
            if not key.isdigit() or int(key) < 1:
                raise AlignError(f"{name}: [{file}] key {key!r} is not a line number")
            if not isinstance(cid, str) or not SLUG_RE.match(cid):
                raise AlignError(
                    f"{name}: [{file}] {key} = {cid!r} is not a concept id",
                    hint="concept ids are slugs like 'lora' (a-z, 0-9, hyphens)",
                )
            out[(file, int(key))] = cid
    return out


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
        return min((m.confidence for m in self.matches), default=1.0)

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
        return sum(1 for c in self.concepts if c.status == status)

    @property
    def unsure(self) -> tuple[ConceptReport, ...]:
        """The concepts with at least one unsure match."""
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


@dataclass
class _Slot:
    """A concept being assembled."""

    id: str | None
    acronym: str | None
    entries: dict[str, Entry]
    original: Concept | None = None
    matches: list[Match] = field(default_factory=list)
    likely: list[_Slot] = field(default_factory=list)

    def lang_file(self, lang: str) -> str | None:
        entry = self.entries.get(lang)
        return entry.term.source.file if entry else None

    def can_take(self, entry: SourceEntry, any_file: bool = False) -> bool:
        """A slot takes one text per language per import: free, or already this file's
        (an edit) — or any file's when ``any_file`` (the texts are identical)."""
        if any(m.entry.lang == entry.lang for m in self.matches):
            return False
        held = self.entries.get(entry.lang)
        return held is None or any_file or held.term.source.file == entry.file


def _seed_text(new: str, old: Text | None, file: str, line: int, notes: list[str]) -> Text:
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
    return Text(new, Provenance("seed", file=file, line=line))


class _Aligner:
    def __init__(self, existing: Deck | None, mapping: Mapping[tuple[str, int], str]) -> None:
        self.slots: list[_Slot] = []
        self.by_id: dict[str, _Slot] = {}
        self.mapping = mapping
        self.notes: list[str] = []
        # Concept id → (file, term line) keys a first pass put there; see _provisional.
        self.planned: dict[str, list[tuple[str, int]]] = {}
        self.slot_by_key: dict[tuple[str, int], _Slot] = {}
        # File name → slot per entry position, for position alignment.
        self.sequences: dict[str, list[_Slot]] = {}
        if existing is not None:
            for concept in existing.concepts:
                slot = _Slot(concept.id, concept.acronym, dict(concept.entries), concept)
                self.slots.append(slot)
                self.by_id[concept.id] = slot
            lines: dict[str, list[tuple[int, _Slot]]] = {}
            for slot in self.slots:
                for entry in slot.entries.values():
                    src = entry.term.source
                    if src.file and src.line:
                        lines.setdefault(src.file, []).append((src.line, slot))
            for file, pairs in lines.items():
                self.sequences[file] = [s for _line, s in sorted(pairs, key=lambda p: p[0])]

    def _provisional(self, cid: str, file: str) -> _Slot | None:
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
        entries = source.entries
        n = len(entries)
        chosen: list[tuple[_Slot, str, float] | None] = [None] * n
        claimed: set[int] = set()

        def claim(i: int, slot: _Slot, method: str, confidence: float) -> None:
            chosen[i] = (slot, method, confidence)
            claimed.add(id(slot))

        # 1. the mapping file
        for i, e in enumerate(entries):
            cid = self.mapping.get((e.file, e.term_line)) or self.mapping.get(
                (e.file, e.definition_line)
            )
            if cid is None:
                continue
            slot = self.by_id.get(cid) or self._provisional(cid, e.file)
            if slot is None:
                slot = _Slot(cid, None, {})
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
        by_text: dict[tuple[str, str], list[_Slot]] = {}
        by_line: dict[tuple[str, str, int], list[_Slot]] = {}
        by_acronym: dict[str, list[_Slot]] = {}
        for slot in self.slots:
            for lang, held in slot.entries.items():
                texts = {held.term.text, held.term.source.original}
                for text in texts:
                    if text:
                        by_text.setdefault((lang, text), []).append(slot)
                src = held.term.source
                if src.file and src.line:
                    by_line.setdefault((lang, src.file, src.line), []).append(slot)
            if slot.acronym:
                by_acronym.setdefault(slot.acronym.casefold(), []).append(slot)

        def unique(candidates: list[_Slot], e: SourceEntry, any_file: bool = False) -> _Slot | None:
            hits = [s for s in candidates if id(s) not in claimed and s.can_take(e, any_file)]
            return hits[0] if len(hits) == 1 else None

        for i, e in enumerate(entries):
            if chosen[i] is None:
                hit = unique(by_text.get((e.lang, e.term), []), e, any_file=True)
                if hit is not None:
                    claim(i, hit, "text", 1.0)
        for i, e in enumerate(entries):
            if chosen[i] is None:
                hit = unique(by_line.get((e.lang, e.file, e.term_line), []), e)
                if hit is not None:
                    claim(i, hit, "provenance", 1.0)
        for i, e in enumerate(entries):
            if chosen[i] is None and e.acronym:
                hit = unique(by_acronym.get(e.acronym.casefold(), []), e)
                if hit is not None:
                    claim(i, hit, "acronym", 0.95)

        # 5. position, against a parallel file seen before
        ref = self._parallel_reference(source, chosen)
        likely: dict[int, list[_Slot]] = {}
        if ref is not None:
            sequence, anchors = ref
            for i, e in enumerate(entries):
                slot = sequence[i]
                if chosen[i] is None and id(slot) not in claimed and slot.can_take(e):
                    claim(i, slot, "position", 0.9 if anchors else 0.6)
                elif chosen[i] is not None and chosen[i][1] == "acronym" and chosen[i][0] is slot:
                    chosen[i] = (slot, "acronym+position", 1.0)
        else:
            likely = self._segment_align(source, chosen, claimed, claim)

        # 6. new concepts
        open_langs = {
            lang
            for s in self.slots
            if id(s) not in claimed
            for lang in LANGUAGES
            if lang not in s.entries
        }
        for i, e in enumerate(entries):
            if chosen[i] is None:
                slot = _Slot(None, None, {})
                self.slots.append(slot)
                # Sure when no earlier concept could have taken it (e.g. the first file).
                sure = first or e.lang not in open_langs
                chosen[i] = (slot, "new", 1.0 if sure else 0.5)

        if ref is None:
            for i, candidates in likely.items():
                slot, method, _confidence = chosen[i]  # type: ignore[misc]
                if method == "new":
                    chosen[i] = (slot, "new", 0.5)
                    slot.likely.extend(candidates)

        sequence_out: list[_Slot] = []
        for i, e in enumerate(entries):
            slot, method, confidence = chosen[i]  # type: ignore[misc]
            self._apply(slot, e)
            slot.matches.append(Match(e, method, confidence))
            self.slot_by_key[(e.file, e.term_line)] = slot
            sequence_out.append(slot)
        self.sequences[source.file] = sequence_out
        # Texts an earlier import took from this file that it no longer holds are kept
        # (progress hangs off them) but reported, so the user can remove them by hand.
        for slot in self.slots:
            for lang, held in slot.entries.items():
                src = held.term.source
                if src.file == source.file and not any(
                    m.entry.file == source.file and m.entry.lang == lang for m in slot.matches
                ):
                    self.notes.append(
                        f"{source.file}: concept {slot.id!r} kept its {lang} texts from line "
                        f"{src.line}, which the file no longer has"
                    )

    def _segment_align(
        self,
        source: SourceFile,
        chosen: list[tuple[_Slot, str, float] | None],
        claimed: set[int],
        claim: Callable[[int, _Slot, str, float], None],
    ) -> dict[int, list[_Slot]]:
        """Position alignment against a parallel file with entries added or missing.

        The entries already matched for sure (text, acronym, mapping) that sit in the
        same order in an earlier file cut both files into segments. A segment with as
        many open entries here as there are open concepts there is aligned by position
        (0.85); in a segment whose sizes differ nothing is certain, so its entries stay
        new concepts and are returned with the concepts they most likely belong to
        (counting from the segment's start and from its end), for the report.
        """
        best: tuple[int, list[tuple[int, int]], list[_Slot]] | None = None
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
        likely: dict[int, list[_Slot]] = {}
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

    def file_of(self, sequence: list[_Slot]) -> str:
        return next((f for f, seq in self.sequences.items() if seq is sequence), "?")

    def _parallel_reference(
        self, source: SourceFile, chosen: Sequence[tuple[_Slot, str, float] | None]
    ) -> tuple[list[_Slot], int] | None:
        """The best earlier file with as many entries whose known matches all line up."""
        n = len(source.entries)
        best: tuple[int, str, list[_Slot]] | None = None
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

    def _apply(self, slot: _Slot, e: SourceEntry) -> None:
        old = slot.entries.get(e.lang)
        if old is not None and old.term.source.kind == "authored":
            self.notes.append(
                f"{e.where}: the {e.lang} text authored in the deck was replaced by the seed"
            )
            old = None
        term = _seed_text(e.term, old.term if old else None, e.file, e.term_line, self.notes)
        definition = _seed_text(
            e.definition, old.definition if old else None, e.file, e.definition_line, self.notes
        )
        slot.entries[e.lang] = Entry(term=term, definition=definition)
        if slot.acronym is None and e.acronym:
            slot.acronym = e.acronym

    # -- result ---------------------------------------------------------------------------

    def _new_id(self, slot: _Slot, taken: set[str]) -> str:
        base = ""
        if slot.acronym:
            base = slugify(slot.acronym)
        if not base:
            for lang in ("en", "fr", *LANGUAGES):
                entry = slot.entries.get(lang)
                if entry is None:
                    continue
                head = entry.term.text.partition(" (")[0]
                if lang in ("en", "fr") or _mostly_latin(head):
                    base = slugify(head)
                    if base:
                        break
        if not base:
            # A Latin name in parentheses ("Адаптация (Low-Rank Adaptation)") reads
            # better than a transliteration of the head.
            for lang in LANGUAGES:
                entry = slot.entries.get(lang)
                if entry is None:
                    continue
                for part in _parenthesised(entry.term.text):
                    if _mostly_latin(part):
                        base = slugify(part)
                        if base:
                            break
                if base:
                    break
        if not base:
            for lang in ("ru", "bn", "ar", *LANGUAGES):
                entry = slot.entries.get(lang)
                if entry is not None:
                    base = slugify(entry.term.text.partition(" (")[0])
                    if base:
                        break
        base = base or "concept"
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        return candidate

    def result(self, deck_id: str, deck_name: str) -> tuple[Deck, AlignmentReport]:
        taken = {s.id for s in self.slots if s.id}
        for slot in self.slots:
            if slot.id is None:
                slot.id = self._new_id(slot, taken)
                taken.add(slot.id)
        concepts: list[Concept] = []
        reports: list[ConceptReport] = []
        for slot in self.slots:
            ordered = slot.entries
            if len(ordered) > 1:
                ordered = {lang: ordered[lang] for lang in LANGUAGES if lang in ordered}
            concept = Concept(id=slot.id or "", deck=deck_id, acronym=slot.acronym, entries=ordered)
            concepts.append(concept)
            if not slot.matches:
                continue
            if slot.original is None:
                status = "new"
            elif _same(slot.original, concept):
                status = "unchanged"
            else:
                status = "updated"
            likely = tuple(dict.fromkeys(c.id or "" for c in slot.likely if c is not slot))
            likely = tuple(cid for cid in likely if cid)
            reports.append(ConceptReport(concept.id, status, tuple(slot.matches), likely))
        deck = Deck(id=deck_id, name=deck_name, concepts=tuple(concepts))
        return deck, AlignmentReport(tuple(reports), tuple(self.notes))


def _same(a: Concept, b: Concept) -> bool:
    return (
        a.id == b.id
        and a.acronym == b.acronym
        and list(a.entries.items()) == list(b.entries.items())
    )


def _parenthesised(term: str) -> list[str]:
    """The parts inside a term's parentheses: ``"A (B/C)"`` → ``["B", "C"]``."""
    _head, sep, rest = term.partition(" (")
    if not sep:
        return []
    return [part.strip() for part in re.split(r"[/,;]", rest.rsplit(")", 1)[0]) if part.strip()]


def _mostly_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    latin = [ch for ch in letters if ch.isascii()]
    return bool(letters) and len(latin) * 2 > len(letters)


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
    the mapping contradicts itself or two files share a name.
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
    known = {
        (e.file, line)
        for f in files
        for e in f.entries
        for line in (e.term_line, e.definition_line)
    }
    for file, line in mapping:
        if file in names and (file, line) not in known:
            raise AlignError(
                f"the mapping names line {line} of {file}, which holds no entry",
                file=file,
                line=line,
                hint="use the line number of the entry's term",
            )
    aligner = _Aligner(existing, mapping)
    known_ids = {c.id for c in existing.concepts} if existing else set()
    if any(cid not in known_ids for cid in mapping.values()):
        _deck, first_pass = align(files, deck_id=deck_id, deck_name=deck_name, existing=existing)
        for concept in first_pass.concepts:
            aligner.planned[concept.concept_id] = [
                (m.entry.file, m.entry.term_line) for m in concept.matches
            ]
    for position, source in enumerate(files):
        aligner.align_file(source, first=position == 0 and existing is None)
    return aligner.result(deck_id, deck_name)
