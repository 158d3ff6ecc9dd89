"""Write quizzer decks as an Anki ``.apkg`` package, reproducibly.

genanki fills the collection (notes, cards, decks, note type); we drive it
ourselves instead of calling ``Package.write_to_file`` because that reads the
clock for ids and zip entry times. Here everything time-like comes from one
``timestamp``: note and card ids, note and note type ``mod``, zip entry dates.
The same input and timestamp give the same bytes; a later timestamp gives notes
with a newer ``mod``, which is what makes Anki take an edit on re-import (its
default is "update if newer"), while re-importing the same file changes nothing.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import genanki
from genanki.apkg_col import APKG_COL
from genanki.apkg_schema import APKG_SCHEMA

from quizzer.anki.ids import stable_id
from quizzer.anki.model import Direction, build_model, card_requirements, default_directions
from quizzer.anki.notes import guid, note_fields, note_tags
from quizzer.concepts.deck import Deck
from quizzer.fsutil import atomic_write_bytes
from quizzer.scheduling.review import Review

if TYPE_CHECKING:
    from quizzer.scheduling.card_state import CardState

#: Parent deck every quizzer deck is exported under.
PARENT_DECK = "AI Glossary"

#: Called as ``on_progress(notes_done, notes_total)`` while notes are written.
ProgressCallback = Callable[[int, int], None]

_PROGRESS_EVERY = 250


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


def build_collection(
    decks: Sequence[Deck],
    directions: Sequence[Direction],
    timestamp: float,
    *,
    parent: str = PARENT_DECK,
    on_progress: ProgressCallback | None = None,
) -> tuple[sqlite3.Connection, PackageLayout]:
    """Fill an in-memory Anki collection (schema 11) with the decks' notes and cards.

    A concept that would get no card (no requested direction has both its
    texts) is left out rather than written as a card-less note; the layout
    lists those concepts.
    """
    model = build_model(directions)
    requirements = card_requirements(directions)
    conn = sqlite3.connect(":memory:")
    cursor = conn.cursor()
    _prepare_collection(cursor)
    id_gen = itertools.count(int(timestamp * 1000))

    if parent:
        parent_deck = genanki.Deck(stable_id("deck-parent", parent), parent)
        parent_deck.add_model(model)
        parent_deck.write_to_db(cursor, timestamp, id_gen)

    total = sum(len(deck) for deck in decks)
    done = 0
    guids: dict[str, str] = {}
    deck_ids: dict[str, int] = {}
    skipped: list[str] = []
    if on_progress:
        on_progress(0, total)
    for deck in decks:
        anki_deck = genanki.Deck(
            anki_deck_id(deck.id), anki_deck_name(deck, parent), description=deck.description
        )
        anki_deck.add_model(model)
        # Writes the deck and note type JSON; the notes follow one by one so the
        # progress callback can tick between them.
        anki_deck.write_to_db(cursor, timestamp, id_gen)
        deck_ids[deck.id] = anki_deck.deck_id
        for concept in deck:
            fields = note_fields(concept)
            done += 1
            pairs = [
                (d.source, d.target)
                for d, needed in zip(directions, requirements, strict=True)
                if all(fields[i] for i in needed)
            ]
            if pairs:
                note_guid = guid(concept)
                note = genanki.Note(
                    model=model, fields=fields, tags=note_tags(concept, pairs), guid=note_guid
                )
                note.write_to_db(cursor, timestamp, anki_deck.deck_id, id_gen)
                guids[note_guid] = concept.uid
            else:
                skipped.append(concept.uid)
            if on_progress and (done % _PROGRESS_EVERY == 0 or done == total):
                on_progress(done, total)
    conn.commit()
    layout = PackageLayout(
        directions=tuple(directions),
        guids=guids,
        deck_ids=deck_ids,
        timestamp=timestamp,
        skipped=tuple(skipped),
    )
    return conn, layout


def package_bytes(conn: sqlite3.Connection, timestamp: float) -> bytes:
    """Zip the collection as a legacy ``.apkg`` (``collection.anki2`` + empty ``media``)."""
    conn.commit()
    database = conn.serialize()
    buffer = io.BytesIO()
    date = _zip_date(timestamp)
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in (("collection.anki2", database), ("media", b"{}")):
            info = zipfile.ZipInfo(name, date_time=date)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=1)
    return buffer.getvalue()


def export_apkg(
    decks: Sequence[Deck],
    out: Path | str,
    *,
    directions: Sequence[Direction] | None = None,
    timestamp: float | None = None,
    parent: str = PARENT_DECK,
    progress: Mapping[str, CardState] | None = None,
    reviews: Sequence[Review] = (),
    tz: tzinfo | None = None,
    on_progress: ProgressCallback | None = None,
) -> ExportResult:
    """Export ``decks`` to ``out`` (an ``.apkg``); returns what was written.

    ``directions`` defaults to every kind between every pair of different
    languages the decks hold. ``timestamp`` (seconds since the epoch) defaults to
    now; pass it for reproducible output. ``progress`` (card id → state) and
    ``reviews`` (:class:`quizzer.scheduling.review.Review`) carry the terminal's
    schedule and history into the package (see :mod:`quizzer.anki.progress`);
    ``tz`` is the learner's time zone for study days (default: this machine's).
    """
    if not decks:
        raise ValueError("nothing to export: no decks")
    if directions is None:
        directions = default_directions({lang for deck in decks for lang in deck.languages})
    if timestamp is None:
        timestamp = time.time()
    conn, layout = build_collection(
        decks, directions, timestamp, parent=parent, on_progress=on_progress
    )
    try:
        scheduled = revlog = unexported = 0
        if progress or reviews:
            from quizzer.anki.progress import fill_progress

            scheduled, revlog, unexported = fill_progress(conn, progress or {}, reviews, tz=tz)
        (notes,) = conn.execute("SELECT count(*) FROM notes").fetchone()
        (cards,) = conn.execute("SELECT count(*) FROM cards").fetchone()
        data = package_bytes(conn, timestamp)
    finally:
        conn.close()
    path = Path(out)
    atomic_write_bytes(path, data)
    return ExportResult(
        path=path,
        notes=notes,
        cards=cards,
        decks=tuple(deck.id for deck in decks),
        directions=tuple(directions),
        scheduled_cards=scheduled,
        revlog_rows=revlog,
        skipped_concepts=len(layout.skipped),
        unexported_cards=unexported,
    )
