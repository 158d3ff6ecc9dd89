"""Write quizzer decks as an Anki ``.apkg`` package, reproducibly.

genanki fills the collection (notes, cards, decks, note type); we drive it
ourselves instead of calling ``Package.write_to_file`` because that reads the
clock for ids and zip entry times. Here everything time-like comes from one
``timestamp``: note and card ids, note and note type ``mod``, zip entry dates.
The same input and timestamp give the same bytes; a later timestamp gives notes
with a newer ``mod``, which is what makes Anki take an edit on re-import (its
default is "update if newer"), while re-importing the same file changes nothing.

Every note type is written whole (:mod:`quizzer.anki.model`); the directions an
export asks for only decide which cards each note has. New cards are numbered so
that consecutive ones ask different directions (:func:`new_card_positions`), and
the decks get the shipped options preset (:mod:`quizzer.anki.preset`).

The collection lives in memory and is zipped straight into the package, which is
written atomically (temp file, fsync, rename): an interrupted export never
leaves half a file behind.
"""

from __future__ import annotations

import io
import itertools
import json
import sqlite3
import time
import zipfile
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import genanki
from genanki.apkg_col import APKG_COL
from genanki.apkg_schema import APKG_SCHEMA

from quizzer.anki.audio import MediaEntries, Recordings, media_entries, used_recordings, with_sounds
from quizzer.anki.directions import default_directions, studied_directions
from quizzer.anki.genanki_model import build_model
from quizzer.anki.ids import PARENT_DECK, stable_id
from quizzer.anki.model import Direction, NoteType, note_type_for
from quizzer.anki.notes import guid, note_cards, note_fields, note_tags, with_texts
from quizzer.anki.preset import install_preset
from quizzer.anki.progress import fill_progress
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.fsutil import atomic_write_bytes
from quizzer.scheduling.review import Review

if TYPE_CHECKING:
    from quizzer.scheduling.card_state import CardState
    from quizzer.scheduling.settings import SchedulerSettings

#: Called as ``on_progress(notes_done, notes_total)`` while notes are written.
ProgressCallback = Callable[[int, int], None]

_PROGRESS_EVERY = 250
_NEW_CARD = (0, 0, 0, 0, 0, 0, 0, 0, "")


@dataclass(frozen=True, slots=True)
class PackageLayout:
    """What an export put where: enough to find a quizzer card in the package's collection."""

    directions: tuple[Direction, ...]
    #: note GUID → concept uid
    guids: dict[str, str]
    #: quizzer deck id → Anki deck id
    deck_ids: dict[str, int]
    #: The export's timestamp (seconds since the epoch).
    timestamp: float
    #: Concepts left out because no requested direction has both its texts.
    skipped: tuple[str, ...] = ()
    #: concept uid → the directions its note got a card for
    cards: dict[str, tuple[Direction, ...]] | None = None


@dataclass(frozen=True, slots=True)
class ExportResult:
    """Counts of what was written, for the command's summary and for tests."""

    path: Path
    notes: int
    cards: int
    decks: tuple[str, ...]
    directions: tuple[Direction, ...]
    scheduled_cards: int = 0
    revlog_rows: int = 0
    #: Concepts left out: none of their texts are in the requested languages, so
    #: their note would have no card (and Anki's Check Database would delete it).
    skipped_concepts: int = 0
    #: Studied cards (``progress``/``reviews``) with no card in this package.
    unexported_cards: int = 0
    #: Concepts written (one note each).
    concepts: int = 0
    #: The most cards any one note got.
    max_cards_per_note: int = 0


def anki_deck_name(deck: Deck, parent: str = PARENT_DECK) -> str:
    """``"AI Glossary::Training efficiency"``: a sub-deck under the common parent."""
    name = deck.name.replace("::", ":").strip()
    return f"{parent}::{name}" if parent else name


def anki_deck_id(deck_id: str) -> int:
    """Stable Anki deck id from the quizzer deck id (survives renaming the deck)."""
    return stable_id("deck", deck_id)


def _zip_date(timestamp: float) -> tuple[int, int, int, int, int, int]:
    stamp = time.gmtime(max(timestamp, 315532800))  # zip dates start in 1980
    return (stamp.tm_year, stamp.tm_mon, stamp.tm_mday, stamp.tm_hour, stamp.tm_min, stamp.tm_sec)


def _prepare_collection(cursor: sqlite3.Cursor) -> None:
    cursor.executescript(APKG_SCHEMA)
    cursor.executescript(APKG_COL)
    # genanki leaves the scheduler version unset, which Anki reads as the v1
    # scheduler and "upgrades" on import when cards carry scheduling. Declare v2,
    # whose card columns (due days, intervals, learning timestamps) we write.
    (conf_json,) = cursor.execute("SELECT conf FROM col").fetchone()
    conf = json.loads(conf_json)
    conf["schedVer"] = 2
    cursor.execute("UPDATE col SET conf = ?", (json.dumps(conf, sort_keys=True),))


def new_card_positions(cards_per_note: Sequence[int], start: int = 1) -> list[list[int]]:
    """New-card positions (Anki's ``due`` for new cards) for one deck's notes, per note
    and card, so that the cards Anki serves first ask different directions.

    Round ``r`` introduces one card of every note; note ``k``'s card in round ``r`` is
    its ``(r + k) mod n``-th (of ``n``), so neighbouring notes start on different
    directions and each note's cards lie a whole round apart. Anki gathers new cards
    by position, so even its default "card type" sort only reorders a mixed set.
    """
    notes = len(cards_per_note)
    out: list[list[int]] = []
    for k, count in enumerate(cards_per_note):
        out.append([start + ((j - k) % count) * notes + k for j in range(count)])
    return out


def _write_note(
    cursor: sqlite3.Cursor,
    note_type: NoteType,
    fields: list[str],
    tags: list[str],
    note_guid: str,
    cards: Sequence[tuple[int, int]],
    deck_id: int,
    timestamp: float,
    id_gen: Iterator[int],
) -> None:
    """Insert a note and its new cards (``(template ordinal, position)`` each), as genanki
    would, but with the cards chosen here rather than by rendering every template."""
    sort_field = fields[note_type.text_index(note_type.languages[0], "term")]
    cursor.execute(
        "INSERT INTO notes VALUES(?,?,?,?,?,?,?,?,?,?,?)",
        (
            next(id_gen),
            note_guid,
            note_type.id,
            int(timestamp),
            -1,
            " " + " ".join(tags) + " ",
            "\x1f".join(fields),
            sort_field,
            0,
            0,
            "",
        ),
    )
    note_id = cursor.lastrowid
    cursor.executemany(
        "INSERT INTO cards VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            # id, nid, did, ord, mod, usn, type, queue (new), due (position), then
            # ivl, factor, reps, lapses, left, odue, odid, flags, data
            (next(id_gen), note_id, deck_id, ord_, int(timestamp), -1, 0, 0, due, *_NEW_CARD)
            for ord_, due in cards
        ],
    )


def build_collection(
    decks: Sequence[Deck],
    directions: Sequence[Direction] | Mapping[str, Sequence[Direction]],
    timestamp: float,
    *,
    parent: str = PARENT_DECK,
    on_progress: ProgressCallback | None = None,
    settings: SchedulerSettings | None = None,
    prefer: Mapping[str, Collection[Direction]] | None = None,
    recordings: Recordings | None = None,
    keep: Mapping[str, Collection[Direction]] | None = None,
) -> tuple[sqlite3.Connection, PackageLayout]:
    """Fill an in-memory Anki collection (schema 11) with the decks' notes and cards.

    ``directions`` are the cards wanted, for every deck or per deck id (a deck not in
    the mapping gets its :func:`~quizzer.anki.directions.default_directions`); each
    note gets those its texts allow
    (:func:`quizzer.anki.notes.note_cards`, preferring the earlier of two that ask
    the same thing, in canonical order). A concept that would get no card is left
    out rather than written as a card-less note; the layout lists those concepts.
    ``prefer`` (concept uid → directions the learner studies) wins over an earlier
    direction asking the same thing, so a studied card is never the one left out.
    ``keep`` (deck id → directions earlier exports gave cards for) keeps those
    cards' guards filled, though the package holds no card for them: importing a
    narrower export over a wider one leaves no card with an empty front.
    """

    def wanted_in(deck: Deck) -> list[Direction]:
        if isinstance(directions, Mapping):
            asked = directions.get(deck.id)
            if asked is None:
                asked = default_directions(deck.languages)
        else:
            asked = directions
        return sorted(set(asked), key=lambda d: d.sort_key)

    every_wanted: set[Direction] = set()
    conn = sqlite3.connect(":memory:")
    cursor = conn.cursor()
    _prepare_collection(cursor)
    id_gen = itertools.count(int(timestamp * 1000))
    models: dict[int, genanki.Model] = {}

    def model_for(note_type: NoteType) -> genanki.Model:
        if note_type.id not in models:
            models[note_type.id] = build_model(note_type)
        return models[note_type.id]

    if parent:
        parent_deck = genanki.Deck(stable_id("deck-parent", parent), parent)
        parent_deck.write_to_db(cursor, timestamp, id_gen)

    total = sum(len(deck) for deck in decks)
    done = position = 0
    guids: dict[str, str] = {}
    deck_ids: dict[str, int] = {}
    per_concept: dict[str, tuple[Direction, ...]] = {}
    skipped: list[str] = []
    if on_progress:
        on_progress(0, total)
    for deck in decks:
        note_type = note_type_for(deck.languages)
        anki_deck = genanki.Deck(
            anki_deck_id(deck.id), anki_deck_name(deck, parent), description=deck.description
        )
        anki_deck.add_model(model_for(note_type))
        anki_deck.write_to_db(cursor, timestamp, id_gen)  # the deck and note type JSON
        deck_ids[deck.id] = anki_deck.deck_id
        usable = [d for d in wanted_in(deck) if d.source in note_type.languages]
        every_wanted.update(usable)
        asked = set(usable)
        kept = {d for d in (keep or {}).get(deck.id, ()) if d.source in note_type.languages}
        guarded = sorted(asked | kept, key=lambda d: d.sort_key)
        chosen: list[tuple[Concept, tuple[Direction, ...], tuple[Direction, ...]]] = []
        for concept in deck:
            found = note_cards(concept, guarded, (prefer or {}).get(concept.uid, ()))
            cards = tuple(sorted((d for d in found if d in asked), key=lambda d: d.sort_key))
            if kept:
                # A kept direction this export leaves out as asking what another card
                # asks still has its card in Anki: its guard stays filled, or that card
                # goes blank.
                found += with_texts(concept, (d for d in kept if d not in found))
            found.sort(key=lambda d: d.sort_key)
            if cards:
                chosen.append((concept, tuple(found), cards))
            else:
                skipped.append(concept.uid)
        done += len(deck) - len(chosen)
        positions = new_card_positions([len(cards) for _c, _g, cards in chosen], position + 1)
        for (concept, guards, cards), dues in zip(chosen, positions, strict=True):
            note_guid = guid(concept)
            _write_note(
                cursor,
                note_type,
                with_sounds(
                    note_fields(concept, guards, note_type), concept, note_type, recordings
                ),
                note_tags(concept, [(d.source, d.target) for d in guards]),
                note_guid,
                [(note_type.ord_of(d), due) for d, due in zip(cards, dues, strict=True)],
                anki_deck.deck_id,
                timestamp,
                id_gen,
            )
            guids[note_guid] = concept.uid
            per_concept[concept.uid] = cards
            position = max(position, *dues)
            done += 1
            if on_progress and done % _PROGRESS_EVERY == 0:
                on_progress(done, total)
    if on_progress and total and done % _PROGRESS_EVERY:
        on_progress(done, total)
    install_preset(cursor, settings, timestamp)
    conn.commit()
    layout = PackageLayout(
        directions=tuple(sorted(every_wanted, key=lambda d: d.sort_key)),
        guids=guids,
        deck_ids=deck_ids,
        timestamp=timestamp,
        skipped=tuple(skipped),
        cards=per_concept,
    )
    return conn, layout


def package_bytes(conn: sqlite3.Connection, timestamp: float, media: MediaEntries = ()) -> bytes:
    """Zip the collection as a legacy ``.apkg``: ``collection.anki2`` and ``media`` entries."""
    conn.commit()
    database = conn.serialize()
    buffer = io.BytesIO()
    date = _zip_date(timestamp)
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in (("collection.anki2", database), *(media or [("media", b"{}")])):
            info = zipfile.ZipInfo(name, date_time=date)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=1)
    return buffer.getvalue()


def export_apkg(
    decks: Sequence[Deck],
    out: Path | str,
    *,
    directions: Sequence[Direction] | Mapping[str, Sequence[Direction]] | None = None,
    timestamp: float | None = None,
    parent: str = PARENT_DECK,
    progress: Mapping[str, CardState] | None = None,
    reviews: Sequence[Review] = (),
    tz: tzinfo | None = None,
    on_progress: ProgressCallback | None = None,
    settings: SchedulerSettings | None = None,
    studied: Iterable[str] = (),
    recordings: Recordings | None = None,
    keep: Mapping[str, Collection[Direction]] | None = None,
) -> ExportResult:
    """Export ``decks`` to ``out`` (an ``.apkg``); returns what was written.

    ``directions`` are the cards wanted (default:
    :func:`~quizzer.anki.directions.default_directions` of the decks' languages); the
    note type is the same whatever they are. ``settings`` fill the shipped options
    preset (default: quizzer's defaults). ``studied`` card ids (and those of
    ``progress`` and ``reviews``) win when two cards of a note ask the same thing.
    ``keep``: see :func:`build_collection`.
    ``timestamp`` (seconds since the epoch) defaults to now; pass it for
    reproducible output. ``progress`` (card id → state) and
    ``reviews`` (:class:`quizzer.scheduling.review.Review`) carry the terminal's
    schedule and history into the package (see :mod:`quizzer.anki.progress`);
    ``tz`` is the learner's time zone for study days (default: this machine's).
    ``recordings`` (:mod:`quizzer.anki.audio`) put each term's recording in its note.
    """
    if not decks:
        raise ValueError("nothing to export: no decks")
    if directions is None:
        directions = {}  # every deck its default
    if timestamp is None:
        timestamp = time.time()
    conn, layout = build_collection(
        decks,
        directions,
        timestamp,
        parent=parent,
        on_progress=on_progress,
        settings=settings,
        prefer=studied_directions([*studied, *(progress or {}), *(r.card_id for r in reviews)]),
        recordings=recordings,
        keep=keep,
    )
    try:
        scheduled = revlog = unexported = 0
        if progress or reviews:
            scheduled, revlog, unexported = fill_progress(conn, progress or {}, reviews, tz=tz)
        (notes,) = conn.execute("SELECT count(*) FROM notes").fetchone()
        (cards,) = conn.execute("SELECT count(*) FROM cards").fetchone()
        media = media_entries(used_recordings(decks, set(layout.guids.values()), recordings))
        data = package_bytes(conn, timestamp, media)
    finally:
        conn.close()
    path = Path(out)
    atomic_write_bytes(path, data)
    return ExportResult(
        path=path,
        notes=notes,
        cards=cards,
        decks=tuple(deck.id for deck in decks),
        directions=layout.directions,
        scheduled_cards=scheduled,
        revlog_rows=revlog,
        skipped_concepts=len(layout.skipped),
        unexported_cards=unexported,
        concepts=len(layout.guids),
        max_cards_per_note=max((len(c) for c in (layout.cards or {}).values()), default=0),
    )
