"""The card index ``P.cards.idx``: where each card's record sits in the snapshot's bytes.

Opening a 100,000-card store used to parse the whole 37 MB snapshot and build a
dict per card before the first screen; a session touches a few thousand of them.
With the index, opening reads the snapshot's bytes, parses only its head (meta and
settings) and each card's record when first asked for
(:class:`~quizzer.progress.cardtable.CardTable`).

The index is a cache, never the only copy of anything: the snapshot stays the
store of record and every card is read from it. The index is written after each
snapshot write from the bytes just written (:func:`write_for`), and on a writable
open that had to parse a snapshot without one (:func:`rebuild`). It holds the
snapshot's size and the CRC-32 of all its bytes: an index for other bytes (an edited,
damaged, restored or replaced snapshot) is ignored, as is a damaged or deleted
index, and the snapshot is parsed whole as before — so damage to the snapshot is
reported exactly as without an index. Values are still checked where they are read
(:meth:`~quizzer.progress.state.State.get`).

Hashing 37 MB costs ~70 ms of every open, so, as git's index and the deck cache do
(:mod:`quizzer.library.cache`), the snapshot's ``stat`` (inode, size, mtime, ctime) is
kept too: while it is unchanged the CRC is not computed. Every write (ours renames a
new file; an edit in place changes mtime and ctime, and ctime can't be set back) changes
it, and a stat whose ctime is not older than the index itself is not trusted (a change
within the clock's granularity after the index was written), as git's "racy clean".

Layout: a magic line, then little-endian 64-bit integers: the snapshot's size, CRC-32,
inode, mtime and ctime (ns), where its cards table opens, the number of cards, the
CRC-32 of the arrays, then the arrays themselves — each card's numeric key (sorted),
record start, record end.
"""

from __future__ import annotations

import bisect
import contextlib
import mmap
import os
import struct
import zlib
from array import array
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path
from typing import Any

from quizzer.fsutil import atomic_write_bytes

MAGIC = b"quizzer card index 2\n"
#: A snapshot's bytes as opened: read, or mapped (:meth:`~.snapshot.AtomicJSONStorage.read_lazily`);
#: both slice to ``bytes``.
SnapshotBytes = bytes | mmap.mmap
_HEADER = struct.Struct("<8q")
#: What precedes the cards table in a snapshot written by :func:`~.snapshot.dumps`.
_CARDS_KEY = b',"cards":'
#: Where a card record's key ends and its object begins (no card record nests an object).
_KEY_END = b'":{'


def index_path(path: Path) -> Path:
    """The card index of the store at ``path``."""
    return path.with_name(path.name + ".cards.idx")


def doc_key(card_id: str) -> int:
    """The numeric snapshot key of a well-formed card id (its ``CardKey.int_id``)."""
    digest = blake2b(card_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


@dataclass(frozen=True, slots=True)
class Spans:
    """Where the cards table opens in the snapshot and each record's byte span, by key."""

    cards_open: int
    keys: array[int]
    starts: array[int]
    ends: array[int]
    #: The CRC-32 of the snapshot's bytes, when read from an index that fits them (the
    #: figure cache names the snapshot by it instead of hashing its bytes again).
    crc: int | None = None

    def find(self, key: int) -> tuple[int, int] | None:
        """The ``(start, end)`` of the record under ``key``, ``None`` if there is none."""
        i = bisect.bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.starts[i], self.ends[i]
        return None

    def __len__(self) -> int:
        return len(self.keys)


def scan(raw: bytes, doc: dict[str, Any]) -> Spans | None:
    """The spans of ``doc``'s card records in ``raw``, its exact serialisation; ``None``
    when ``raw`` is not laid out as :func:`~quizzer.progress.snapshot.dumps` writes it, or a
    record's key is not its card id's numeric key (then no index is kept)."""
    cards = doc.get("cards")
    if list(doc) != ["meta", "settings", "cards"] or not isinstance(cards, dict):
        return None
    if not raw.endswith(b"}}"):
        return None
    cards_open = raw.rfind(_CARDS_KEY) + len(_CARDS_KEY) if cards else len(raw) - 3
    if raw[cards_open : cards_open + 1] != b"{":
        return None
    found: list[tuple[int, int, int]] = []
    pos = cards_open + 1
    names = iter(cards)
    last = len(raw) - 2  # the record ends before "}}"
    while True:
        at = raw.find(_KEY_END, pos)
        if at < 0:
            break
        quote = raw.rfind(b'"', pos - 1, at)
        name = raw[quote + 1 : at]
        if next(names, None) != name.decode("ascii", "replace") or not name.isdigit():
            return None
        if found:
            key, start, _ = found[-1]
            found[-1] = (key, start, quote - 1)  # before the comma
        found.append((int(name), at + 2, last))
        pos = at + 3
    if next(names, None) is not None or len(found) != len(cards):
        return None
    for (key, _, _), data in zip(found, cards.values(), strict=True):
        card_id = data.get("card_id") if isinstance(data, dict) else None
        if not isinstance(card_id, str) or doc_key(card_id) != key:
            return None
    found.sort()
    return Spans(
        cards_open,
        array("q", (f[0] for f in found)),
        array("q", (f[1] for f in found)),
        array("q", (f[2] for f in found)),
    )


def _stamp(info: os.stat_result) -> tuple[int, int, int]:
    return info.st_ino, info.st_mtime_ns, info.st_ctime_ns


def encode(raw: bytes, spans: Spans, info: os.stat_result) -> bytes:
    """The index file of ``spans`` for the snapshot ``raw`` whose ``stat`` is ``info``."""
    body = spans.keys.tobytes() + spans.starts.tobytes() + spans.ends.tobytes()
    head = _HEADER.pack(
        len(raw), zlib.crc32(raw), *_stamp(info), spans.cards_open, len(spans), zlib.crc32(body)
    )
    return MAGIC + head + body


def decode(
    data: bytes, raw: SnapshotBytes, info: os.stat_result | None = None, written_ns: int = 0
) -> Spans | None:
    """The spans an index file holds, if it is whole and is the index of ``raw``.

    ``raw`` is taken as the indexed bytes without hashing it when the snapshot's stat
    ``info`` is the one recorded and its ctime is older than ``written_ns``, the index
    file's mtime.
    """
    if not data.startswith(MAGIC):
        return None
    at = len(MAGIC)
    try:
        size, crc, ino, mtime, ctime, cards_open, count, body_crc = _HEADER.unpack_from(data, at)
    except struct.error:
        return None
    body = data[at + _HEADER.size :]
    if (
        size != len(raw)
        or count < 0
        or len(body) != 24 * count
        or zlib.crc32(body) != body_crc
        or not 0 < cards_open < len(raw)
    ):
        return None
    known = info is not None and _stamp(info) == (ino, mtime, ctime) and ctime < written_ns
    if not known and zlib.crc32(raw) != crc:
        return None
    arrays = [array("q") for _ in range(3)]
    for i, arr in enumerate(arrays):
        arr.frombytes(body[8 * count * i : 8 * count * (i + 1)])
    keys, starts, ends = arrays
    return Spans(cards_open, keys, starts, ends, crc=crc)


def load(path: Path, raw: SnapshotBytes, info: os.stat_result | None = None) -> Spans | None:
    """The index of the snapshot ``raw`` (``stat`` ``info``) of the store at ``path``,
    ``None`` if there is none that fits it (missing, damaged, or of other bytes)."""
    try:
        with open(index_path(path), "rb") as fh:
            written = os.fstat(fh.fileno()).st_mtime_ns
            data = fh.read()
    except OSError:
        return None
    return decode(data, raw, info, written)


def write_for(path: Path, raw: bytes, doc: dict[str, Any]) -> None:
    """Keep the index of the snapshot ``raw`` (``doc`` serialised), just written at ``path``.

    Best effort: an index that can't be written only means the next open parses the
    snapshot whole; a stale one is removed so that it is not read for nothing.
    """
    spans = scan(raw, doc)
    target = index_path(path)
    with contextlib.suppress(OSError):
        info = os.stat(path)
        if spans is None or info.st_size != len(raw):
            target.unlink(missing_ok=True)
        else:
            atomic_write_bytes(target, encode(raw, spans, info))
