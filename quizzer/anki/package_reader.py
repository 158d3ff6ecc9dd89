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

The newest collection in the zip is copied (anki21b decompressed with the ``zstandard``
library) to a temporary file and read with :mod:`sqlite3`, read-only: no Anki engine
needed, and the file is never changed. The package is input from anywhere, so every step
is bounded: a regular file only, the zip directory's size, each entry's declared and
actual size (streamed, never read whole), SQLite's limits and a time budget on queries,
and each revlog value's range. Notes are quizzer's when their GUID is the one quizzer derives
from the concept uid in their first field (:func:`quizzer.anki.ids.note_guid`); their
cards map to quizzer card ids through the card's template. Notes of other note types are
counted, unless the caller knows them: ``read_package(path, resolve)`` asks ``resolve`` for
the quizzer card of each card of such a note (a note imported as a concept by
``quizzer import``), and reads that card's answers too. :func:`read_notes` gives every note
and note type, for ``quizzer import``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import struct
import tempfile
import time
import urllib.parse
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, Literal, Protocol

import zstandard

from quizzer.anki.ids import PARENT_DECK, note_guid
from quizzer.anki.model import Direction, template_direction
from quizzer.anki.note_types import note_types, proto_fields
from quizzer.anki.notes import from_field
from quizzer.cards.card import CardKey
from quizzer.decksources.anki_notes import Note, NoteType
from quizzer.decksources.table import MAX_ROWS
from quizzer.errors import InputError

#: The package format versions this reader knows (``meta``: 1 legacy, 2 legacy 2.1, 3 latest).
KNOWN_VERSIONS = (1, 2, 3)
#: Collection files in the zip, newest format first.
_COLLECTIONS = ("collection.anki21b", "collection.anki21", "collection.anki2")
#: Anki's ``cards.queue`` of a suspended card.
QUEUE_SUSPENDED = -1
#: Refuse collections that decompress to more than this (a zip bomb, not a collection).
#: The copy goes to a temporary file, never to memory; a 1M-answer collection is ~150 MB.
MAX_COLLECTION_BYTES = 1 << 30
#: Refuse a ``meta`` entry over this (Anki's is a few bytes).
_MAX_META_BYTES = 1 << 20
#: Refuse zips with more entries (the collection, media files) or a larger directory.
MAX_ENTRIES = 100_000
_MAX_DIRECTORY_BYTES = 16 << 20
#: How far from the end the end-of-directory record may sit (its comment is at most 64 KiB).
_EOCD_SEARCH = 22 + 0xFFFF
#: A zstd frame asking for a larger window is refused (Anki's default level uses a few MB).
_MAX_ZSTD_WINDOW = 32 << 20
_CHUNK = 1 << 20
_SQLITE_MAGIC = b"SQLite format 3\x00"
_ZIP_MAGIC = b"PK\x03\x04"
#: Seconds the collection's queries may take in all before the package is refused.
QUERY_SECONDS = 8.0
#: Most answers on quizzer's cards one package may bring (they are held in memory).
MAX_ANSWERS = 1_000_000
#: Intervals past these (Anki caps intervals at 100 years; learning steps are minutes to
#: days) are no interval Anki gave: the merge then computes its own.
_MAX_IVL_DAYS = 36_500
_MAX_IVL_SECONDS = 366 * 86_400
#: Revlog row ids (epoch ms) outside 1970 to the year 9000 are no answer's time.
_LAST_ROW_ID = (
    int((datetime(9000, 1, 1, tzinfo=UTC) - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds())
    * 1000
)
_TABLES = {"col", "notes", "cards", "revlog"}


@dataclass(frozen=True, slots=True)
class RevlogRow:
    """One answer in Anki's ``revlog``: row id (epoch ms), quizzer card, grade, time, kind,
    and the interval Anki gave (``ivl``: days when positive, seconds when negative, as
    Anki keeps it; 0 when it gave none or the value was out of range)."""

    id: int
    card_id: str
    ease: int
    time_ms: int
    kind: int
    ivl: int = 0


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
    #: Notes quizzer did not export (other note types, edited GUIDs) and no resolver knew.
    foreign_notes: int = 0
    #: Notes quizzer did not export whose cards the resolver found (imported as concepts).
    imported_notes: int = 0
    #: Answers on those notes' cards, left alone.
    foreign_rows: int = 0
    #: revlog rows on quizzer's cards that are no answer (rescheduled by hand, ease 0).
    manual_rows: int = 0


Command = Literal["import", "merge"]


class _Refused(Exception):
    """A package refused while it is read: ``kind`` is ``"damaged"``, ``"foreign"`` (no
    Anki package) or ``"slow"``; :func:`_opened` makes it an :class:`InputError` with the
    hint for the command reading it (``quizzer import`` or ``quizzer merge``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


#: What to do about a refused package, per kind and command.
_HINTS: dict[tuple[str, Command], str] = {
    ("damaged", "import"): "export the deck again from Anki (File > Export, Anki Deck "
    "Package) and import the new file",
    ("damaged", "merge"): "export it again from Anki (File > Export, with 'Include "
    "scheduling information' ticked) and merge the new file",
    ("foreign", "import"): "give an .apkg or .colpkg file exported by Anki (File > Export); "
    "quizzer import also reads glossaries, Quizlet exports and CSV files",
    ("foreign", "merge"): "give an .apkg or .colpkg file exported by Anki (File > Export), "
    "or another device's quizzer progress store",
    ("slow", "import"): "in Anki, export one deck at a time (File > Export), then import that file",
    ("slow", "merge"): f"in Anki, export only the deck '{PARENT_DECK}' (File > Export, with "
    "scheduling), then merge that file",
}


def _damaged(what: str) -> _Refused:
    return _Refused("damaged", f"damaged Anki package: {what}")


def _foreign(what: str) -> _Refused:
    return _Refused("foreign", f"not an Anki package: {what}")


def _too_slow(name: str) -> _Refused:
    return _Refused(
        "slow",
        f"reading {name} took over {QUERY_SECONDS:.0f} s: a query that never ends "
        "(a damaged or hostile package), or a very large collection",
    )


def meta_version(data: bytes) -> int:
    """The ``version`` (field 1) of a ``meta`` protobuf (``PackageMetadata``); 0 if unset.
    Raises ``ValueError`` for bytes that are no protobuf message."""
    for number, value in proto_fields(data):
        if number == 1 and isinstance(value, int):
            return value
    return 0


def _open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading if it is a regular file (symlinks followed), else refused.

    The file is opened non-blocking, so a FIFO can't hang the open, and its type is
    checked on the open descriptor: ``/dev/zero``, a FIFO or a socket is never read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(
            f"can't read the file: {exc.strerror or exc}",
            hint="check the path, and that you may read the file",
            path=path,
        ) from exc
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _foreign("not a regular file (a device, a pipe or a socket)")
    return os.fdopen(fd, "rb")


def _check_directory(fh: BinaryIO) -> None:
    """Refuse a zip whose central directory claims more entries or bytes than a package has.

    :class:`zipfile.ZipFile` builds an object per entry of the central directory, so its
    declared size is checked first, from the end-of-directory record (zip64 too).
    """
    size = fh.seek(0, os.SEEK_END)
    tail_size = min(size, _EOCD_SEARCH)
    fh.seek(size - tail_size)
    tail = fh.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 22:
        return  # not a zip: ZipFile says so
    entries, directory = struct.unpack("<HI", tail[at + 10 : at + 16])
    locator = at - 20
    if (entries == 0xFFFF or directory == 0xFFFFFFFF) and tail[locator : locator + 4] == (
        b"PK\x06\x07"
    ):
        (offset,) = struct.unpack("<Q", tail[locator + 8 : locator + 16])
        if offset < size:
            fh.seek(offset)
            record = fh.read(56)
            if record[:4] == b"PK\x06\x06" and len(record) == 56:
                entries, directory = struct.unpack("<QQ", record[32:48])
    fh.seek(0)
    if entries > MAX_ENTRIES or directory > _MAX_DIRECTORY_BYTES:
        raise _damaged(f"its zip directory claims {entries} entries, more than a package holds")


def _entry(archive: zipfile.ZipFile, name: str, limit: int) -> zipfile.ZipInfo:
    """The entry ``name``, checked: not encrypted, a method Anki uses, declared size in bounds."""
    info = archive.getinfo(name)
    if info.flag_bits & 0x1:
        raise _damaged(f"{name} is encrypted")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise _damaged(f"{name} is compressed in a way Anki never writes")
    if info.file_size > limit:
        raise _damaged(
            f"{name} is too large: it claims {info.file_size:,} bytes unpacked, more than a "
            "package holds "
            f"({limit >> 20:,} MB at most)"
        )
    return info


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def _copy_capped(name: str, source: _Readable, out: BinaryIO, limit: int) -> int:
    """Copy ``source`` into ``out`` in chunks, refusing once more than ``limit`` bytes came."""
    total = 0
    while chunk := source.read(_CHUNK):
        if total == 0 and len(chunk) >= len(_SQLITE_MAGIC) and not chunk.startswith(_SQLITE_MAGIC):
            # Known at the first chunk: no need to unpack a bomb of zeros to say so.
            raise _damaged(f"{name} is not an SQLite database")
        total += len(chunk)
        if total > limit:
            raise _damaged(f"{name} is larger than {limit >> 20} MB uncompressed")
        out.write(chunk)
    return total


def _extract_collection(path: Path, folder: Path) -> tuple[str, Path]:
    """(name, path of a SQLite copy in ``folder``) of the newest collection in the package.

    Everything is streamed with caps on the bytes actually produced, whatever the zip or
    the zstd frame declare: a zip bomb is refused after at most the cap, in bounded memory.
    """
    with _open_regular(path) as fh:
        _check_directory(fh)
        try:
            archive = zipfile.ZipFile(fh)
        except zipfile.BadZipFile:
            fh.seek(0)
            start = fh.read(len(_ZIP_MAGIC))
            if not start:
                raise _foreign("the file is empty") from None
            if start == _ZIP_MAGIC:
                raise _damaged(
                    "the zip is cut short or damaged: its directory, at the end, is missing "
                    "(an unfinished download or copy?)"
                ) from None
            raise _foreign("it is no zip archive (every .apkg and .colpkg is one)") from None
        except (OSError, EOFError, ValueError):
            raise _damaged("the zip's directory can't be read") from None
        with archive:
            return _extract_from(path, archive, folder)


def _extract_from(path: Path, archive: zipfile.ZipFile, folder: Path) -> tuple[str, Path]:
    names = set(archive.namelist())
    target = folder / "collection.sqlite"
    name = "meta"  # the entry being read, for the messages below
    try:
        if "meta" in names:
            _entry(archive, "meta", _MAX_META_BYTES)
            with archive.open("meta") as meta:
                data = meta.read(_MAX_META_BYTES + 1)
            try:
                version = meta_version(data)
            except ValueError:
                raise _damaged("its meta entry can't be read") from None
            if version not in KNOWN_VERSIONS:
                raise InputError(
                    f"this package was written in a format quizzer doesn't know "
                    f"(version {version})",
                    hint="in Anki, export with 'Support older Anki versions' ticked",
                    path=path,
                )
        found = next((n for n in _COLLECTIONS if n in names), None)
        if found is None:
            raise _foreign("no Anki collection inside the zip")
        name = found
        _entry(archive, name, MAX_COLLECTION_BYTES)
        with archive.open(name) as entry, target.open("wb") as out:
            if name.endswith("b"):
                decompressor = zstandard.ZstdDecompressor(max_window_size=_MAX_ZSTD_WINDOW)
                with decompressor.stream_reader(entry) as reader:
                    _copy_capped(name, reader, out, MAX_COLLECTION_BYTES)
            else:
                _copy_capped(name, entry, out, MAX_COLLECTION_BYTES)
    except zstandard.ZstdError:
        raise _damaged(f"{name} can't be decompressed (its data is damaged)") from None
    except (zipfile.BadZipFile, EOFError, zipfile.LargeZipFile, zlib.error, ValueError):
        raise _damaged(f"{name} can't be unpacked from the zip (its data is damaged)") from None
    except (RuntimeError, NotImplementedError):
        # zipfile's words for an encrypted entry or an unknown method.
        raise _damaged(f"{name} is encrypted or compressed in a way Anki never writes") from None
    except OSError as exc:
        # Reading the package, or writing its collection to the temporary folder (disk full).
        raise InputError(
            f"can't unpack the package: {exc.strerror or exc}",
            hint="check the file can be read and the temporary folder has room "
            f"({tempfile.gettempdir()}; TMPDIR sets another)",
            path=path,
        ) from None
    return name, target


def _unicase(a: str, b: str) -> int:
    """Anki's ``unicase`` collation (named in schema-18 tables), so queries never trip on it."""
    x, y = a.casefold(), b.casefold()
    return (x > y) - (x < y)


#: Limits on what the collection's SQL may ask of SQLite (its schema is the package's).
_SQLITE_LIMITS = (
    (sqlite3.SQLITE_LIMIT_LENGTH, 64 << 20),
    (sqlite3.SQLITE_LIMIT_SQL_LENGTH, 1 << 20),
    (sqlite3.SQLITE_LIMIT_COLUMN, 200),
    (sqlite3.SQLITE_LIMIT_EXPR_DEPTH, 100),
    (sqlite3.SQLITE_LIMIT_COMPOUND_SELECT, 10),
    (sqlite3.SQLITE_LIMIT_FUNCTION_ARG, 16),
    (sqlite3.SQLITE_LIMIT_ATTACHED, 0),
    (sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH, 1),
)


def _lenient_text(data: bytes) -> str:
    """An SQLite text value as a string, bytes that aren't UTF-8 replaced (U+FFFD)."""
    return data.decode("utf-8", "replace")


def _open_collection(name: str, file: Path) -> sqlite3.Connection:
    """The collection copy at ``file`` opened read-only, with limits and a time budget."""
    with file.open("r+b") as fh:
        header = fh.read(20)
        if not header.startswith(_SQLITE_MAGIC):
            raise _damaged(f"{name} is not an SQLite database")
        if header[18:20] == b"\x02\x02":
            # WAL mode in the header: the copy is read alone, in rollback mode.
            fh.seek(18)
            fh.write(b"\x01\x01")
    uri = f"file:{urllib.parse.quote(str(file))}?mode=ro&immutable=1"
    conn = sqlite3.connect(uri, uri=True)
    # Text that isn't UTF-8 is damage to show, not a UnicodeDecodeError from any query.
    conn.text_factory = _lenient_text
    for limit, value in _SQLITE_LIMITS:
        conn.setlimit(limit, value)
    deadline = time.monotonic() + QUERY_SECONDS
    # A recursive view or a huge join would run forever: stop any query past the budget.
    conn.set_progress_handler(lambda: time.monotonic() > deadline, 1_000)
    try:
        conn.execute("PRAGMA trusted_schema = OFF")
        conn.execute("PRAGMA cache_size = -16000")
        conn.create_collation("unicase", _unicase)
        kinds = dict(conn.execute("SELECT name, type FROM sqlite_master"))
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "interrupted" in str(exc):
            raise _too_slow(name) from None
        raise _damaged(f"{name} can't be read as a database (it is damaged)") from None
    except UnicodeDecodeError:  # SQLite's own message about a damaged schema isn't UTF-8
        conn.close()
        raise _damaged(f"{name} can't be read (its schema is damaged)") from None
    missing = sorted(t for t in _TABLES if kinds.get(t) != "table")
    if missing:
        conn.close()
        raise _foreign(f"{name} is not an Anki collection (no {missing[0]} table)")
    return conn


def direction_of(template_name: str) -> Direction | None:
    """The quizzer direction of a template (by name, as Anki keeps it), ``None`` if not ours."""
    try:
        return template_direction(None, template_name)
    except ValueError:
        return None


def _templates(conn: sqlite3.Connection) -> Iterator[tuple[int, int, str]]:
    """(note type id, template ord, template name) of every note type in the collection."""
    tables = dict(conn.execute("SELECT name, type FROM sqlite_master"))
    if tables.get("templates") == "table":  # schema 18: one row per template
        yield from conn.execute("SELECT ntid, ord, name FROM templates")
        return
    (models_json,) = conn.execute("SELECT models FROM col").fetchone()
    for mid, model in json.loads(models_json or "{}").items():
        for template in model.get("tmpls", []):
            yield int(mid), int(template["ord"]), str(template["name"])


def _is_int(value: object) -> bool:
    """Whether a column value is an integer (SQLite stores whatever a row was given)."""
    return type(value) is int


class CardResolver(Protocol):
    """What ``read_package`` asks about notes quizzer did not export (see the module
    docstring): whether a GUID is one it knows (only those notes' fields are kept), and
    the quizzer card id of a card of such a note (``None``: none)."""

    def knows(self, guid: str) -> bool:
        """Whether the note with this GUID may be one of quizzer's concepts."""
        ...

    def card(
        self, guid: str, note_type: NoteType, values: tuple[str, ...], ord_: int
    ) -> str | None:
        """The quizzer card id of card ``ord_`` of the note (fields ``values``), or ``None``."""
        ...


def _resolved_card(
    resolve: CardResolver | None,
    types: dict[int, NoteType] | None,
    note: tuple[str, int, tuple[str, ...]] | None,
    ord_: int,
) -> str | None:
    if resolve is None or types is None or note is None:
        return None
    guid, mid, values = note
    note_type = types.get(mid)
    return resolve.card(guid, note_type, values, ord_) if note_type is not None else None


def _read(
    path: Path, name: str, conn: sqlite3.Connection, resolve: CardResolver | None = None
) -> AnkiHistory:
    history = AnkiHistory(path=path, collection=name)
    with _note_types_read(name):
        directions = {
            (ntid, ord_): d for ntid, ord_, tname in _templates(conn) if (d := direction_of(tname))
        }
    uid_of: dict[int, tuple[int, str]] = {}
    others: dict[int, tuple[str, int, tuple[str, ...]]] = {}
    for nid, guid, mid, flds in conn.execute("SELECT id, guid, mid, flds FROM notes"):
        uid = from_field(str(flds).split("\x1f", 1)[0])
        if guid == note_guid(uid):
            uid_of[nid] = (mid, uid)
        elif resolve is not None and _is_int(mid) and resolve.knows(str(guid)):
            others[nid] = (str(guid), mid, tuple(str(flds).split("\x1f")))
        else:
            history.foreign_notes += 1
    with _note_types_read(name):
        types = note_types(conn) if others else None
    resolved_notes: set[int] = set()
    unknown = history.foreign_notes
    card_of: dict[int, str] = {}
    for cid, nid, ord_, queue in conn.execute("SELECT id, nid, ord, queue FROM cards"):
        note = uid_of.get(nid)
        direction = directions.get((note[0], ord_)) if note else None
        if note is None or direction is None:
            found = _resolved_card(resolve, types, others.get(nid), ord_)
            if found is None:
                continue
            card_id = found
            resolved_notes.add(nid)
        else:
            card_id = CardKey(note[1], direction.pair).id
        try:
            CardKey.parse(card_id)
        except ValueError:
            continue  # a quizzer GUID on a note whose first field was edited
        card_of[cid] = card_id
        history.cards.add(card_id)
        if queue == QUEUE_SUSPENDED:
            history.suspended.add(card_id)
    history.imported_notes = len(resolved_notes)
    history.foreign_notes = unknown + len(others) - len(resolved_notes)
    query = "SELECT id, cid, ease, time, type, ivl FROM revlog ORDER BY id"
    for rid, cid, ease, time_ms, kind, ivl in conn.execute(query):
        if not (_is_int(rid) and 0 < rid < _LAST_ROW_ID):
            # Anki's row ids are the answers' times: anything else is damage, and merging
            # the rest would take a package apart that no Anki wrote.
            raise _damaged(f"its revlog has an entry dated outside 1970-9000 ({rid!r:.30})")
        known = card_of.get(cid)
        if known is None:
            # Another note's card, or a deleted card (its rows stay in the revlog).
            history.foreign_rows += 1
        elif not _is_int(ease):
            raise _damaged(f"its revlog has an answer whose grade is no number ({ease!r:.30})")
        elif ease not in (1, 2, 3, 4):
            history.manual_rows += 1  # "set due date", "forget": not an answer
        else:
            time_ms = time_ms if _is_int(time_ms) else 0
            kind = kind if _is_int(kind) else 0
            if len(history.rows) >= MAX_ANSWERS:
                raise _damaged(f"it holds more than {MAX_ANSWERS} answers on quizzer's cards")
            ivl = ivl if _is_int(ivl) and -_MAX_IVL_SECONDS <= ivl <= _MAX_IVL_DAYS else 0
            history.rows.append(RevlogRow(rid, known, ease, max(0, time_ms), kind, ivl))
    return history


@contextmanager
def _note_types_read(name: str) -> Iterator[None]:
    """Reading note types: one Anki never writes (a template or field without its number or
    name, models that aren't JSON) is damage named in words, not a Python error's text."""
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError):
        raise _damaged(
            f"the note types in {name} can't be read (a note type lacks a field or a card "
            "template as Anki writes them)"
        ) from None


@contextmanager
def _opened(path: Path, command: Command) -> Iterator[tuple[str, sqlite3.Connection]]:
    """The package's newest collection, unpacked to a temporary copy and opened read-only;
    what goes wrong reading it becomes an :class:`InputError` naming the file, with what
    to do for ``command`` (the one reading it)."""
    try:
        temporary = tempfile.TemporaryDirectory(prefix=f"quizzer-{command}-")
    except OSError as exc:
        raise InputError(
            f"can't make a temporary folder to unpack the package in: {exc.strerror or exc}",
            hint="set TMPDIR to a folder you can write to",
            path=path,
        ) from None
    try:
        with temporary as folder:
            name, copy = _extract_collection(path, Path(folder))
            conn = _open_collection(name, copy)
            try:
                yield name, conn
            except sqlite3.OperationalError as exc:
                if "interrupted" in str(exc):
                    raise _too_slow(name) from None
                raise _damaged(f"{name} lacks a table or column Anki writes") from None
            except (sqlite3.DatabaseError, KeyError, TypeError, ValueError, AttributeError):
                raise _damaged(f"{name} holds values Anki never writes") from None
            except RecursionError:
                raise _damaged(f"{name} has note types nested too deeply to read") from None
            finally:
                conn.close()
    except _Refused as exc:
        raise InputError(exc.message, hint=_HINTS[exc.kind, command], path=path) from None


def read_package(path: Path | str, resolve: CardResolver | None = None) -> AnkiHistory:
    """The answers and suspensions of quizzer's cards in the package at ``path`` (and of
    the cards ``resolve`` maps to quizzer's, see the module docstring).

    Raises :class:`~quizzer.errors.InputError` (naming the file and what is wrong) for a
    file that is not an Anki package, or a damaged one. The file is only read.
    """
    path = Path(path)
    with _opened(path, "merge") as (name, conn):
        return _read(path, name, conn, resolve)


#: Most notes ``quizzer import`` takes from one package (each becomes a concept).
MAX_NOTES = MAX_ROWS


@dataclass(frozen=True, slots=True)
class PackageNotes:
    """Every note of a package, the note types they use, and how many of the package's
    cards each deck holds (by its full name, ``Spanish::Animals``)."""

    collection: str
    note_types: dict[int, NoteType]
    notes: tuple[Note, ...]
    deck_cards: dict[str, int] = field(default_factory=dict)


def _deck_names(conn: sqlite3.Connection) -> dict[int, str]:
    """Each deck's full name by id: schema 18's ``decks`` table (levels separated by
    ``\x1f``), else the JSON in ``col.decks`` (levels separated by ``::``)."""
    tables = dict(conn.execute("SELECT name, type FROM sqlite_master"))
    if tables.get("decks") == "table":
        rows = conn.execute("SELECT id, name FROM decks")
        return {int(did): str(name).replace("\x1f", "::") for did, name in rows}
    (decks_json,) = conn.execute("SELECT decks FROM col").fetchone()
    decks: dict[str, dict[str, object]] = json.loads(decks_json or "{}")
    return {int(did): str(deck.get("name", "")) for did, deck in decks.items()}


def _deck_cards(conn: sqlite3.Connection) -> dict[str, int]:
    """How many cards each deck holds (a card in a filtered deck counts in its own)."""
    names = _deck_names(conn)
    counts: dict[str, int] = {}
    query = "SELECT did, odid, count() FROM cards GROUP BY did, odid"
    for did, odid, count in conn.execute(query):
        name = names.get(int(odid or did), "")
        if name:
            counts[name] = counts.get(name, 0) + int(count)
    return counts


def read_notes(path: Path | str) -> PackageNotes:
    """The notes of the package at ``path`` (in creation order) and their note types.

    Raises :class:`~quizzer.errors.InputError` like :func:`read_package`, and for a
    package with more than :data:`MAX_NOTES` notes.
    """
    path = Path(path)
    with _opened(path, "import") as (name, conn):
        with _note_types_read(name):
            types = note_types(conn)
        notes: list[Note] = []
        query = "SELECT guid, mid, flds FROM notes ORDER BY id"
        for number, (guid, mid, flds) in enumerate(conn.execute(query), start=1):
            if number > MAX_NOTES:
                raise InputError(
                    f"the package holds more than {MAX_NOTES:,} notes",
                    hint="in Anki, export one deck at a time",
                    path=path,
                )
            if not _is_int(mid) or mid not in types:
                raise _damaged(f"note {number} has no note type")
            notes.append(Note(str(guid), mid, tuple(str(flds).split("\x1f")), number))
        return PackageNotes(
            name,
            {mid: types[mid] for mid in {n.type_id for n in notes}},
            tuple(notes),
            _deck_cards(conn),
        )
