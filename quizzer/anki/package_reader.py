"""Read the review history of quizzer's cards out of an Anki package (``.apkg``/``.colpkg``).

What Anki writes (``rslib/src/import_export/package``):

* Anki 2.1.50+ by default (23.x, 25.x, 26.x alike): a zip holding ``meta`` (a protobuf
  ``PackageMetadata`` whose field 1 is the format version, 3 = latest),
  ``collection.anki21b`` (the collection, schema 18, zstd-compressed), a legacy
  ``collection.anki2`` holding one note asking to update Anki, ``media`` (a zstd
  protobuf) and the media files;
* with "support older Anki versions" ticked: ``meta`` says 2 and the collection is
  ``collection.anki21`` (schema 11, deflated in the zip), media as JSON;
* genanki and Anki before 2.1.50: only ``collection.anki2``.

The newest collection in the zip is read (anki21b, else anki21, else anki2) with
:mod:`sqlite3` and the ``zstandard`` library, into memory: no Anki engine needed, and the
file is never changed. Notes are quizzer's when their GUID is the one quizzer derives
from the concept uid in their first field (:func:`quizzer.anki.ids.note_guid`); their
cards map to quizzer card ids through the card's template. Everything else is counted,
never read further.
"""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import zstandard

from quizzer.anki.ids import note_guid
from quizzer.anki.model import Direction, template_direction
from quizzer.anki.notes import from_field
from quizzer.cards.card import CardKey
from quizzer.errors import InputError

#: The package format versions this reader knows (``meta``: 1 legacy, 2 legacy 2.1, 3 latest).
KNOWN_VERSIONS = (1, 2, 3)
#: Collection files in the zip, newest format first.
_COLLECTIONS = ("collection.anki21b", "collection.anki21", "collection.anki2")
#: Anki's ``cards.queue`` of a suspended card.
QUEUE_SUSPENDED = -1
#: Refuse collections that decompress to more than this (a zip bomb, not a collection).
_MAX_COLLECTION_BYTES = 8 << 30
_TABLES = {"col", "notes", "cards", "revlog"}


@dataclass(frozen=True, slots=True)
class RevlogRow:
    """One answer in Anki's ``revlog``: row id (epoch ms), quizzer card, grade, time, kind."""

    id: int
    card_id: str
    ease: int
    time_ms: int
    kind: int


@dataclass(slots=True)
class AnkiHistory:
    """What a package holds of quizzer's cards: their answers and suspensions, plus counts."""

    path: Path
    #: The collection file read inside the zip, e.g. ``collection.anki21b``.
    collection: str
    #: Answers on quizzer's cards, in row id (time) order.
    rows: list[RevlogRow] = field(default_factory=list)
    #: Quizzer card ids suspended in Anki.
    suspended: set[str] = field(default_factory=set)
    #: Quizzer card ids present in the package.
    cards: set[str] = field(default_factory=set)
    #: Notes quizzer did not export (other note types, edited GUIDs).
    foreign_notes: int = 0
    #: Answers on those notes' cards, left alone.
    foreign_rows: int = 0
    #: revlog rows on quizzer's cards that are no answer (rescheduled by hand, ease 0).
    manual_rows: int = 0


def _damaged(path: Path, what: str) -> InputError:
    return InputError(
        f"damaged Anki package: {what}",
        hint="export it again from Anki (File > Export, with scheduling), then merge that file",
        path=path,
    )


def _foreign(path: Path, what: str) -> InputError:
    return InputError(
        f"not an Anki package: {what}",
        hint="merge an .apkg or .colpkg exported by Anki, or another quizzer progress store",
        path=path,
    )


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while pos < len(data):
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
    raise ValueError("truncated varint")


def meta_version(data: bytes) -> int:
    """The ``version`` (field 1) of a ``meta`` protobuf (``PackageMetadata``); 0 if unset."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos)
            if number == 1:
                return value
        elif wire == 2:
            length, pos = _varint(data, pos)
            pos += length
        else:
            raise ValueError(f"unexpected wire type {wire}")
    return 0


def _collection_bytes(path: Path) -> tuple[str, bytes]:
    """(name, SQLite bytes) of the newest collection in the package at ``path``."""
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise _foreign(path, "not a zip archive") from None
    except OSError as exc:
        raise InputError(f"can't read the file: {exc.strerror or exc}", path=path) from exc
    with archive:
        names = set(archive.namelist())
        try:
            if "meta" in names:
                try:
                    version = meta_version(archive.read("meta"))
                except ValueError:
                    raise _damaged(path, "its meta entry can't be read") from None
                if version not in KNOWN_VERSIONS:
                    raise InputError(
                        f"this package was written in a format quizzer doesn't know "
                        f"(version {version})",
                        hint="in Anki, export with 'Support older Anki versions' ticked",
                        path=path,
                    )
            name = next((n for n in _COLLECTIONS if n in names), None)
            if name is None:
                raise _foreign(path, "no Anki collection inside the zip")
            data = archive.read(name)
        except (zipfile.BadZipFile, EOFError, zipfile.LargeZipFile) as exc:
            raise _damaged(path, f"the zip can't be read ({exc})") from None
    if name.endswith("b"):
        try:
            with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as reader:
                data = reader.read(_MAX_COLLECTION_BYTES + 1)
        except zstandard.ZstdError as exc:
            raise _damaged(path, f"{name} can't be decompressed ({exc})") from None
        if len(data) > _MAX_COLLECTION_BYTES:
            raise _damaged(path, f"{name} is too large to be a collection")
    return name, data


def _unicase(a: str, b: str) -> int:
    """Anki's ``unicase`` collation (named in schema-18 tables), so queries never trip on it."""
    x, y = a.casefold(), b.casefold()
    return (x > y) - (x < y)


def _open_collection(path: Path, name: str, data: bytes) -> sqlite3.Connection:
    if not data.startswith(b"SQLite format 3\x00"):
        raise _damaged(path, f"{name} is not an SQLite database")
    if data[18:20] == b"\x02\x02":
        # WAL mode in the header: an in-memory copy can only be read in rollback mode.
        data = data[:18] + b"\x01\x01" + data[20:]
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        conn.create_collation("unicase", _unicase)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _damaged(path, f"{name} can't be read ({exc})") from None
    if not tables >= _TABLES:
        conn.close()
        raise _foreign(path, f"{name} is not an Anki collection (no {min(_TABLES - tables)} table)")
    return conn


def direction_of(template_name: str) -> Direction | None:
    """The quizzer direction of a template (by name, as Anki keeps it), ``None`` if not ours."""
    try:
        return template_direction(None, template_name)
    except ValueError:
        return None


def _templates(conn: sqlite3.Connection) -> Iterator[tuple[int, int, str]]:
    """(note type id, template ord, template name) of every note type in the collection."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    if "templates" in tables:  # schema 18: one row per template
        yield from conn.execute("SELECT ntid, ord, name FROM templates")
        return
    (models_json,) = conn.execute("SELECT models FROM col").fetchone()
    for mid, model in json.loads(models_json or "{}").items():
        for template in model.get("tmpls", []):
            yield int(mid), int(template["ord"]), str(template["name"])


def _read(path: Path, name: str, conn: sqlite3.Connection) -> AnkiHistory:
    history = AnkiHistory(path=path, collection=name)
    directions = {
        (ntid, ord_): d for ntid, ord_, tname in _templates(conn) if (d := direction_of(tname))
    }
    uid_of: dict[int, tuple[int, str]] = {}
    for nid, guid, mid, flds in conn.execute("SELECT id, guid, mid, flds FROM notes"):
        uid = from_field(str(flds).split("\x1f", 1)[0])
        if guid == note_guid(uid):
            uid_of[nid] = (mid, uid)
        else:
            history.foreign_notes += 1
    card_of: dict[int, str] = {}
    for cid, nid, ord_, queue in conn.execute("SELECT id, nid, ord, queue FROM cards"):
        note = uid_of.get(nid)
        direction = directions.get((note[0], ord_)) if note else None
        if note is None or direction is None:
            continue
        card_id = CardKey(note[1], direction.pair).id
        try:
            CardKey.parse(card_id)
        except ValueError:
            continue  # a quizzer GUID on a note whose first field was edited
        card_of[cid] = card_id
        history.cards.add(card_id)
        if queue == QUEUE_SUSPENDED:
            history.suspended.add(card_id)
    query = "SELECT id, cid, ease, time, type FROM revlog ORDER BY id"
    for rid, cid, ease, time_ms, kind in conn.execute(query):
        known = card_of.get(cid)
        if known is None:
            # Another note's card, or a deleted card (its rows stay in the revlog).
            history.foreign_rows += 1
        elif ease not in (1, 2, 3, 4):
            history.manual_rows += 1  # "set due date", "forget": not an answer
        else:
            history.rows.append(RevlogRow(rid, known, ease, max(0, time_ms), kind))
    return history


def read_package(path: Path | str) -> AnkiHistory:
    """The answers and suspensions of quizzer's cards in the package at ``path``.

    Raises :class:`~quizzer.errors.InputError` (naming the file and what is wrong) for a
    file that is not an Anki package, or a damaged one. The file is only read.
    """
    path = Path(path)
    name, data = _collection_bytes(path)
    conn = _open_collection(path, name, data)
    try:
        return _read(path, name, conn)
    except (sqlite3.DatabaseError, KeyError, TypeError, ValueError) as exc:
        raise _damaged(path, f"{name} has unexpected content ({exc})") from None
    finally:
        conn.close()
