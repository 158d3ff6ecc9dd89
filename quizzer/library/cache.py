"""A cache of parsed deck files.

Python's TOML parser is pure Python: a deck of 400 concepts in five languages
takes ~0.1 s to parse, most of the time quizzer needs before showing the first
card. The parsed tables are kept as JSON (parsed ~20× faster) under the user
cache dir, keyed by a hash of the deck file's bytes, so any edit to the file is
a miss. Validation still runs on every load; the cache only skips the parsing.
Every failure to read or write the cache is ignored: it can always be rebuilt.

Beside the tables, a deck's *summary* (id, name, counts, languages: what `quizzer decks`
and the home screen list) is kept under the same key, written only once the deck has
been validated, so listing a 50,000-concept deck reads a few hundred bytes instead of
33 MB of concepts. The deck file stays the only copy of anything: both entries are
derived from its bytes and rebuilt from them when missing, damaged or stale.

A fourth entry, ``<key>.cards.json``, lists per direction the concepts that have a card in
it (both texts, and they differ: comparing them is most of a 50,000-concept deck's queue),
written once computed from a deck that validated; an index that is not one of the deck's
concepts, or a concept queued from it without the card, means computing it again.

A third entry under that key, ``<key>.rendered.json``, records that the file's bytes are
exactly what the deck writer renders from the cached tables (the importer wrote them so,
or rendered and compared them): a re-import whose result equals that deck then knows the
file unchanged without rendering it (:mod:`quizzer.library.merge_target`). A missing or
damaged record only means rendering and comparing again.

Finding those entries needs the hash of the file's bytes (~0.4 s to read and hash a
33 MB file). As git's index does, the hash last computed for a file is kept beside its
``stat`` (path, size, mtime, ctime, inode, device): while the stat is unchanged the
hash is taken as known and the file is not read. Any change to the stat (an edit, a
``touch``, a replaced file; ctime can't be set back) means reading and hashing again,
and a stat recorded less than :data:`RACY_NS` after the file's mtime is not trusted
(the file could change again within the clock's granularity, as git's "racy clean").
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import time
from hashlib import blake2b
from pathlib import Path
from typing import Any

import msgspec

from quizzer import __version__
from quizzer.concepts.deck import DeckFormatError
from quizzer.errors import InputError
from quizzer.fsutil import atomic_write_bytes, atomic_write_text, read_regular_file
from quizzer.paths import cache_dir

#: Largest cache entry read (the parse of the largest deck file read, as JSON).
MAX_ENTRY_BYTES = 512 * 2**20

#: A file modified this close to the moment its stat was recorded is hashed again.
RACY_NS = 2_000_000_000

#: Bump when the cached form changes; old entries are then simply never hit.
CACHE_FORMAT = 2

#: Entries at least this big are decoded by msgspec: a 50,000-concept deck's 32 MB of
#: tables in ~0.16 s CPU where the json module took ~0.4 s (UTF-8 decoding included).
#: Small ones (summaries, stats) by the json module.
BIG_ENTRY_BYTES = 1 << 20


def _decode(raw: bytes, *, lazy: bool = False) -> Any:
    """The JSON value of ``raw`` (UTF-8); ``ValueError`` for anything but valid JSON.

    ``lazy`` (a big tables entry): each concept's values are left as their JSON text
    (:func:`lazy_tables`).
    """
    if len(raw) < BIG_ENTRY_BYTES:
        return json.loads(raw.decode("utf-8"))
    if lazy:
        return lazy_tables(raw)
    return msgspec.json.decode(raw)  # its DecodeError is a ValueError


def lazy_tables(raw: bytes) -> dict[str, Any]:
    """A tables entry (``raw``, big) decoded but for its concepts' language tables, each kept
    as its JSON text (a :class:`msgspec.Raw`, read with :func:`decode_field`) until asked for.

    Decoding a 50,000-concept deck's every text builds ~650,000 objects (~0.13 s) while a
    session reads the texts of the cards it shows; its concepts' ids and which languages
    they have (a concept's keys) are all it needs of the others. ``ValueError`` if ``raw``
    is not an object with the tables' fields (:func:`_load` then checks the rest).
    """
    decoder, read_text, read_acronym = _lazy_decoders()
    entry = decoder.decode(raw)  # its ValidationError is a DecodeError, a ValueError
    tables = entry.tables
    # A concept's id and acronym now: every concept's uid is asked for (its cards' ids).
    for item in tables.concepts if tables is not None else ():
        if "id" not in item:
            raise ValueError("a concept without an id")
        item["id"] = read_text.decode(item["id"])
        if "acronym" in item:
            item["acronym"] = read_acronym.decode(item["acronym"])
    return {
        "format": entry.format,
        "version": entry.version,
        "tables": None
        if tables is None
        else {
            "id": tables.id,
            "name": tables.name,
            "description": tables.description,
            "concepts": tables.concepts,
        },
    }


@functools.cache
def _lazy_decoders() -> tuple[Any, Any, Any]:
    """msgspec decoders of :func:`lazy_tables`: the entry, a concept's id and its acronym."""
    # Built with real types: this module's annotations are strings msgspec can't resolve.
    concepts = list[dict[str, msgspec.Raw]]
    tables = msgspec.defstruct(
        "Tables", [("id", str), ("name", str), ("concepts", concepts), ("description", str, "")]
    )
    entry = msgspec.defstruct(
        "Entry", [("format", Any, None), ("version", Any, None), ("tables", tables | None, None)]
    )
    json = msgspec.json
    return json.Decoder(entry), json.Decoder(str), json.Decoder(str | None)


def decode_field(value: Any) -> Any:
    """A concept's language table as :func:`get_lazily` gave it, decoded if it was left as
    JSON text."""
    msgspec = sys.modules.get("msgspec")
    if msgspec is not None and isinstance(value, msgspec.Raw):
        return msgspec.json.decode(value)
    return value


def digest(raw: bytes) -> str:
    """The cache key of a deck file's bytes (~40 ms for a 33 MB file)."""
    return blake2b(raw, digest_size=16).hexdigest()


def _entry(key: str, kind: str, directory: Path | None) -> Path:
    if kind == "stat":  # keyed by the file's path, not its bytes: a folder of their own
        return (directory or cache_dir()) / "decks" / "stat" / f"{key}.json"
    suffix = "" if kind == "tables" else f".{kind}"
    return (directory or cache_dir()) / "decks" / f"{key}{suffix}.json"


def _load(
    key: str, kind: str, directory: Path | None, *, lazy: bool = False
) -> dict[str, Any] | None:
    try:
        raw = read_regular_file(_entry(key, kind, directory), MAX_ENTRY_BYTES, "cache")
        payload = _decode(raw, lazy=lazy)
    # RecursionError: a deeply nested file; InputError: a FIFO or device planted there
    except (OSError, ValueError, RecursionError, InputError):
        return None
    if (
        not isinstance(payload, dict)
        or payload.get("format") != CACHE_FORMAT
        or payload.get("version") != __version__
    ):
        return None
    entry = payload.get(kind)
    return entry if isinstance(entry, dict) else None


def _store(key: str, kind: str, value: dict[str, Any], directory: Path | None) -> None:
    payload = {"format": CACHE_FORMAT, "version": __version__, kind: value}
    with contextlib.suppress(OSError, TypeError, ValueError, RecursionError):
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        atomic_write_text(_entry(key, kind, directory), text)


def get(
    raw: bytes, directory: Path | None = None, *, key: str | None = None
) -> dict[str, Any] | None:
    """The parsed tables of the deck file whose bytes are ``raw``, if cached and intact."""
    return _load(key or digest(raw), "tables", directory)


def get_lazily(key: str, directory: Path | None = None) -> dict[str, Any] | None:
    """:func:`get` by the :func:`digest` ``key``, a big entry's concepts' language tables left
    as their JSON text (:func:`lazy_tables`; :func:`decode_field` reads one)."""
    return _load(key, "tables", directory, lazy=True)


def put(
    raw: bytes, tables: dict[str, Any], directory: Path | None = None, *, key: str | None = None
) -> None:
    """Remember ``tables`` as the parse of ``raw`` (best effort, atomic)."""
    _store(key or digest(raw), "tables", tables, directory)


def put_tables_json(key: str, tables_json: str, directory: Path | None = None) -> None:
    """:func:`put` for a caller that has the :func:`digest` and the tables as compact JSON
    already (:mod:`quizzer.concepts.tables_json`): the same entry, without building them."""
    payload = {"format": CACHE_FORMAT, "version": __version__}
    head = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))  # as _store writes
    pieces = (f'{head[:-1]},"tables":'.encode(), tables_json.encode("utf-8"), b"}")
    with contextlib.suppress(OSError):
        atomic_write_bytes(_entry(key, "tables", directory), pieces)  # no 32 MB join


def put_rendered(key: str, deck_id: str, concepts: int, directory: Path | None = None) -> None:
    """Record that the deck file whose bytes' :func:`digest` is ``key`` is, byte for byte,
    what quizzer's deck writer renders from the tables cached under ``key`` (the importer
    wrote it so, or rendered and compared it); best effort, atomic."""
    _store(key, "rendered", {"id": deck_id, "concepts": concepts}, directory)


def is_rendered(key: str, deck_id: str, concepts: int, directory: Path | None = None) -> bool:
    """Whether :func:`put_rendered` recorded ``key`` for this deck id and concept count."""
    entry = _load(key, "rendered", directory)
    return entry is not None and entry.get("id") == deck_id and entry.get("concepts") == concepts


def get_refusal(key: str, directory: Path | None = None) -> DeckFormatError | None:
    """Why the deck file whose :func:`digest` is ``key`` was refused, if that is cached."""
    entry = _load(key, "refused", directory)
    if entry is None or not isinstance(entry.get("message"), str):
        return None
    line, field = entry.get("line"), entry.get("field")
    return DeckFormatError(
        entry["message"],
        line if isinstance(line, int) else None,
        entry.get("hint") if isinstance(entry.get("hint"), str) else None,
        field=field if isinstance(field, str) else None,
    )


def put_refusal(key: str, error: DeckFormatError, directory: Path | None = None) -> None:
    """Remember why the deck file whose :func:`digest` is ``key`` was refused (best effort):
    the same bytes give the same refusal, without parsing them again."""
    refusal = {"message": error.message, "line": error.line, "hint": error.hint}
    _store(key, "refused", refusal | {"field": error.field}, directory)


def get_summary(key: str, directory: Path | None = None) -> dict[str, Any] | None:
    """The summary of the valid deck file whose :func:`digest` is ``key``, if cached."""
    return _load(key, "summary", directory)


def put_summary(key: str, summary: dict[str, Any], directory: Path | None = None) -> None:
    """Remember the summary of a deck file that loaded and validated (best effort, atomic)."""
    _store(key, "summary", summary, directory)


def get_cards(key: str, directory: Path | None = None) -> dict[str, Any] | None:
    """Which concepts of the valid deck file whose :func:`digest` is ``key`` have a card in
    each direction asked so far (pair code → concept indexes), if cached."""
    return _load(key, "cards", directory)


def put_cards(key: str, cards: dict[str, Any], directory: Path | None = None) -> None:
    """Remember :func:`get_cards`'s entry for ``key`` (best effort, atomic)."""
    _store(key, "cards", cards, directory)


def _stamp(path: Path, info: os.stat_result) -> dict[str, Any]:
    return {
        "path": os.fsdecode(os.path.abspath(path)),
        "size": info.st_size,
        "mtime_ns": info.st_mtime_ns,
        "ctime_ns": info.st_ctime_ns,
        "ino": info.st_ino,
        "dev": info.st_dev,
    }


def _stat_key(path: Path) -> str:
    return blake2b(os.fsencode(os.path.abspath(path)), digest_size=16).hexdigest()


def known_digest(path: Path, info: os.stat_result, directory: Path | None = None) -> str | None:
    """The :func:`digest` of ``path``'s bytes recorded for exactly this ``stat``, if any."""
    entry = _load(_stat_key(path), "stat", directory)
    if entry is None or {k: entry.get(k) for k in _STAMP_FIELDS} != _stamp(path, info):
        return None
    key, recorded = entry.get("digest"), entry.get("recorded_ns")
    if not isinstance(key, str) or not isinstance(recorded, int):
        return None
    if max(info.st_mtime_ns, info.st_ctime_ns) + RACY_NS > recorded:
        return None  # racy: the file may have changed since, within the same timestamps
    return key


def remember_digest(
    path: Path, info: os.stat_result, key: str, directory: Path | None = None
) -> None:
    """Record that ``path``, as ``info`` (taken *before* reading it) describes it, hashed
    to ``key`` (best effort, atomic)."""
    entry = {**_stamp(path, info), "digest": key, "recorded_ns": time.time_ns()}
    _store(_stat_key(path), "stat", entry, directory)


_STAMP_FIELDS = ("path", "size", "mtime_ns", "ctime_ns", "ino", "dev")
