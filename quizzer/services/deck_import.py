"""``quizzer import`` of decks learners already have: an Anki package, a Quizlet export or
a CSV/TSV table, told apart by content, each row or note becoming one concept.

The pure work is :mod:`quizzer.decksources`; this reads the file (with limits), the Anki
package through :mod:`quizzer.anki.package_reader`, and writes the deck through
:func:`quizzer.library.importer.write_built_deck`. Every problem is an
:class:`~quizzer.errors.InputError` naming the file (and line, or note) before anything
is written. :func:`card_resolver` is the other half of keeping an Anki note's GUID: it
lets ``quizzer merge`` of the same collection find the concepts its notes became.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quizzer.anki.ids import note_guid
from quizzer.anki.model import FIELD_CONCEPT
from quizzer.anki.package_reader import CardResolver, read_notes
from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.concept import SLUG_RE, Concept
from quizzer.concepts.deck import Deck, DeckFormatError, check_name
from quizzer.decksources.anki_notes import (
    NoteType,
    card_direction,
    note_rows,
    package_deck,
    refuse_cloze,
)
from quizzer.decksources.build import BuildReport, build_deck, guid_tag, tag_of
from quizzer.decksources.columns import Column, parse_columns
from quizzer.decksources.delimited import read_table
from quizzer.decksources.plan import ColumnPlan, plan_columns
from quizzer.decksources.table import DeckSourceError, Row
from quizzer.errors import InputError, SourceError
from quizzer.glossary.parse import decode
from quizzer.glossary.slug import slugify
from quizzer.library.decks import load_library
from quizzer.library.importer import (
    check_deck_id,
    check_lang_option,
    check_names,
    listed_by,
    read_source_file,
    write_built_deck,
)
from quizzer.library.source_kind import source_kind


@dataclass(slots=True)
class SourceImport:
    """What importing a deck source did (or, dry, would do)."""

    deck: Deck
    path: Path
    #: What was read, e.g. "Anki package (collection.anki21b, 3 notes)".
    format: str
    #: A line per column (or Anki field): what it became and why.
    columns: list[str]
    report: BuildReport
    created: bool
    changed: bool
    written: bool
    new_folder: bool
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Parts:
    """A source read: its format, a (rows, column plan) per group of rows, a deck name."""

    format: str
    groups: list[tuple[Sequence[Row], ColumnPlan]]
    deck_name: str | None
    columns: list[str]


def _option(columns: str | None, lang: str | None, width: int) -> list[Column | None] | None:
    if columns is not None:
        return parse_columns(columns)
    if lang is not None:
        return [Column(lang)] * width
    return None


def _given_by(columns: str | None) -> str:
    return "--columns" if columns is not None else "--lang"


#: What to do with a table that is no text.
_TEXT_HINT = (
    "give a table as plain text (UTF-8), e.g. Quizlet's or Anki's text export or a CSV "
    "file; a damaged file, export it again"
)


def _read_table(path: Path, separator: str | None, columns: str | None, lang: str | None) -> _Parts:
    data = read_source_file(path, "table")
    try:
        text = decode(data)
    except SourceError as exc:
        # The decoder's hints speak of glossaries; this file is read as a table.
        hint = exc.hint if exc.hint and "glossary" not in exc.hint else _TEXT_HINT
        raise DeckSourceError(exc.message, exc.line, hint) from None
    if not text.strip():
        raise DeckSourceError(
            "the file is empty", hint="give the file your app exported, with one row per card"
        )
    table = read_table(text, separator)
    if table is None:
        raise DeckSourceError(
            "no table here: neither Anki's header lines, a header row, nor a separator on "
            "every line",
            hint=f"give the separator between term and definition: --separator "
            f"{shlex.quote(listed_by(text) or '|')}; a glossary is read from a file not "
            "named .csv or .tsv",
        )
    plan = plan_columns(
        table.rows,
        table.names,
        _option(columns, lang, table.width),
        given_by=_given_by(columns),
        numbers=table.numbers,
    )
    described = [*plan.described, *table.notes]
    return _Parts(table.format, [(table.rows, plan)], table.deck, described)


def _read_anki(path: Path, columns: str | None, lang: str | None) -> _Parts:
    package = read_notes(path)
    refuse_cloze(package.note_types, package.notes)
    if not package.notes:
        raise DeckSourceError(
            "the package holds no notes",
            hint="in Anki, export the deck that holds your cards (File > Export, choose the deck)",
        )
    by_type: dict[int, list[int]] = defaultdict(list)
    for index, note in enumerate(package.notes):
        by_type[note.type_id].append(index)
    groups: list[tuple[Sequence[Row], ColumnPlan]] = []
    described: list[str] = []
    names: list[str] = []
    decks: list[str] = []
    typed_rows = {
        type_id: [
            _own(package.note_types[type_id], row, decks)
            for row in note_rows(package.note_types[type_id], [package.notes[i] for i in indexes])
        ]
        for type_id, indexes in by_type.items()
    }
    # A field's language is told from its texts in every note type that has a field so
    # named: a "Basic" note or two beside many "Basic (and reversed card)" ones say little.
    texts: dict[tuple[int, str], list[str]] = {
        (type_id, name): [row.cells[n] for row in rows if n < len(row.cells)]
        for type_id, rows in typed_rows.items()
        for n, name in enumerate(package.note_types[type_id].fields)
    }
    for type_id in by_type:
        note_type: NoteType = package.note_types[type_id]
        rows = typed_rows[type_id]
        shown = set(note_type.shown)
        option = _option(columns, lang, len(note_type.fields))
        if columns is None and option is not None:
            # --lang is every text's language: fields no card shows (Add Reverse) hold none.
            option = [
                c if name in shown else None
                for c, name in zip(option, note_type.fields, strict=True)
            ]
        plan = plan_columns(
            rows,
            note_type.fields,
            option,
            candidates=[name in shown for name in note_type.fields],
            noun="field",
            given_by=_given_by(columns),
            pooled=[
                [
                    text
                    for (other, field), found in texts.items()
                    if field == name and other != type_id
                    for text in found
                ]
                for name in note_type.fields
            ],
        )
        groups.append((rows, plan))
        described.extend(f"{note_type.name}: {line}" for line in plan.described)
        names.append(f"{len(by_type[type_id])} of note type {note_type.name!r}")
    what = f"Anki package ({package.collection}; {len(package.notes)} notes"
    what += f": {', '.join(names)})" if len(names) > 1 else f" of note type {note_type.name!r})"
    # quizzer's own notes name the deck they came from; other notes, the Anki deck they are in.
    return _Parts(
        what, groups, decks[0] if decks else _usable(package_deck(package.deck_cards)), described
    )


def _usable(name: str | None) -> str | None:
    """``name`` when a deck may be named so (plain text), else ``None``."""
    if name is None:
        return None
    try:
        check_name(name)
    except DeckFormatError:
        return None
    return name


def _deck_holding(rows: Sequence[Row], into: Path | str | None) -> Deck | None:
    """The one user deck holding concepts imported from notes of ``rows`` (found by their
    GUIDs), if any: importing the package again updates that deck, whatever the deck is
    named now in Anki or was named by then."""
    tags = {guid_tag(row.guid) for row in rows if row.guid is not None}
    if not tags:
        return None
    holding = [
        item.deck
        for item in load_library(into)
        if not item.bundled and any(tag_of(concept.id) in tags for concept in item.deck.concepts)
    ]
    return holding[0] if len(holding) == 1 else None


def _located(exc: SourceError, path: Path, kind: str) -> InputError:
    """``exc`` for the user: at its line of a table; a package has no lines, so there it
    names the note (its number in Anki's order of creation, as rows count them)."""
    if kind != "anki" or exc.line is None:
        return exc.to_input_error(path)
    message = exc.message.replace("this row", "this note")
    return InputError(f"note {exc.line}: {message}", hint=exc.hint, path=path)


def _own(note_type: NoteType, row: Row, decks: list[str]) -> Row:
    """``row`` with its concept id when it is a note quizzer exported (its first field the
    concept's uid, its GUID the one quizzer derives from it); the uid's deck is added to
    ``decks``. Such a note's answers are merged onto that uid's cards, so it keeps it."""
    if not note_type.fields or note_type.fields[0] != FIELD_CONCEPT or not row.cells:
        return row
    uid = row.cells[0]
    deck, _, concept_id = uid.partition("/")
    if not concept_id or row.guid != note_guid(uid):
        return row
    decks.append(deck)
    return dataclasses.replace(row, concept_id=concept_id)


def import_deck_source(
    path: Path | str,
    *,
    deck: str | None = None,
    columns: str | None = None,
    separator: str | None = None,
    lang: str | None = None,
    into: Path | str | None = None,
    dry_run: bool = False,
) -> SourceImport:
    """Import an Anki package, a Quizlet export or a CSV/TSV table into one user deck.

    Everything is read and checked before anything is written; raises
    :class:`InputError` for any bad input (file, line or note, what to do).
    """
    path = Path(path)
    if lang is not None:
        lang = check_lang_option(lang)
    check_names(deck, [path])
    kind = source_kind(path, separator)
    try:
        if kind == "anki":
            if separator is not None:
                raise DeckSourceError(
                    "--separator is for tables; this is an Anki package",
                    hint="leave --separator out",
                )
            parts = _read_anki(path, columns, lang)
        else:
            parts = _read_table(path, separator, columns, lang)
    except SourceError as exc:
        raise _located(exc, path, kind) from exc
    held = None
    if deck is None and kind == "anki":
        held = _deck_holding([row for rows, _plan in parts.groups for row in rows], into)
    name = deck or (held.name if held else None) or parts.deck_name or path.stem
    deck_id = held.id if held else name if SLUG_RE.match(name) else slugify(name)
    if not deck_id:
        raise InputError(
            f"can't make a deck id from {name!r}",
            hint="give --deck a name with some Latin letters or digits, e.g. --deck my-words",
        )
    check_deck_id(deck_id)

    def build(existing: Deck | None) -> tuple[Deck, BuildReport]:
        total = BuildReport()
        current = existing
        for rows, plan in parts.groups:
            current, report = build_deck(
                rows,
                plan.mapping,
                deck_id=deck_id,
                deck_name=name,
                file=path.name,
                existing=current,
                noun="field" if kind == "anki" else "column",
            )
            total.new += report.new
            total.updated += report.updated
            total.unchanged += report.unchanged
            total.concept_ids.extend(report.concept_ids)
        assert current is not None  # a source has rows
        return current, total

    try:
        written = write_built_deck(build, deck_id=deck_id, into=into, dry_run=dry_run)
    except SourceError as exc:
        raise _located(exc, path, kind) from exc
    return SourceImport(
        deck=written.deck,
        path=written.path,
        format=parts.format,
        columns=parts.columns,
        report=written.report,
        created=written.created,
        changed=written.changed,
        written=written.written,
        new_folder=written.new_folder,
    )


class LibraryResolver:
    """For ``quizzer merge``: the quizzer card an Anki card of an imported note is.

    The note's concept is the user deck's concept whose id ends with its GUID's tag; the
    card's question and answer fields are found among that concept's texts. The library
    is read the first time a note asks.
    """

    def __init__(self, user_dir: Path | str | None = None) -> None:
        self._user_dir = user_dir
        self._index: dict[str, list[Concept]] | None = None

    def _concepts(self, guid: str) -> list[Concept]:
        if self._index is None:
            index: dict[str, list[Concept]] = defaultdict(list)
            for item in load_library(self._user_dir):
                if item.bundled:
                    continue
                for concept in item.deck.concepts:
                    tag = tag_of(concept.id)
                    if tag is not None:
                        index[tag].append(concept)
            self._index = index
        return self._index.get(guid_tag(guid), [])

    def knows(self, guid: str) -> bool:
        """Whether a user deck holds a concept imported from the note with this GUID."""
        return bool(self._concepts(guid))

    def card(
        self, guid: str, note_type: NoteType, values: tuple[str, ...], ord_: int
    ) -> str | None:
        """The quizzer card id of card ``ord_`` of the note, or ``None``."""
        for concept in self._concepts(guid):
            direction = card_direction(concept, note_type, values, ord_)
            if direction is not None:
                try:
                    return CardKey(concept.uid, Pair(*direction)).id
                except ValueError:
                    return None
        return None


def card_resolver(user_dir: Path | str | None = None) -> CardResolver:
    """The resolver ``quizzer merge`` gives :func:`~quizzer.anki.package_reader.read_package`."""
    return LibraryResolver(user_dir)
