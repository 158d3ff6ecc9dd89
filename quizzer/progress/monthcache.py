"""A compact copy of a sealed month file's answers, to read the whole log fast.

Reading a million answers from the month files' JSON is mostly parsing text: numbers,
times and keys. ``P.log/2026-03.answers.cache`` holds the same answers as msgpack
(binary floats and timestamps, :func:`quizzer.progress.logdecoder.encode_answers`),
written the first time the month file is read whole and decoded cleanly.

It is a cache, never the only copy of anything: the month file stays the record, is
still read and its seal verified on every read (so damage to it is found and named as
without a cache), and the cache is used only when it was made from exactly those bytes:
it starts with the month file's size and its seal (month, count, generation and the
CRC-32 of every byte before it), then the CRC-32 of its own body. A cache for other
bytes (the month rewritten by a compaction, edited, restored), a damaged or deleted
one, is ignored (and written again); each value read from it is checked as the month
file's are (:func:`~quizzer.progress.logdecoder.decode_answers`). Only month files
have one (not their mirrors); it is written without fsync (a cache cut short by a
crash is damaged, hence ignored), a big one by a thread of its own while the reader goes
on decoding the next month (its checksum and its write don't hold the interpreter's
lock); reading the whole log waits for those threads before it returns (:func:`settle`).
"""

from __future__ import annotations

import contextlib
import os
import struct
import tempfile
import threading
import zlib
from pathlib import Path

import quizzer.progress.logdecoder as logdecoder
from quizzer.scheduling.review import Review

MAGIC = b"quizzer answers cache 1\n"
#: The month file's size and how long its seal's bytes are.
_KEY = struct.Struct("<qq")
_CRC = struct.Struct("<I")
_MONTH_SUFFIX = ".json"
#: A cache body at least this big is written by a thread (:func:`save`).
BACKGROUND_MIN = 1 << 20
#: The threads writing caches, until :func:`settle` has waited for them.
_writing: list[threading.Thread] = []


def cache_path(file: Path) -> Path | None:
    """Where the cache of month file ``file`` is (``None``: a mirror has none)."""
    if not file.name.endswith(_MONTH_SUFFIX):
        return None
    return file.with_name(file.name.removesuffix(_MONTH_SUFFIX) + ".answers.cache")


def _key(raw: bytes, seal_at: int) -> bytes:
    return _KEY.pack(len(raw), len(raw) - seal_at) + raw[seal_at:]


def load(file: Path, raw: bytes, seal_at: int) -> list[Review] | None:
    """The answers cached for the month file ``file`` whose bytes are ``raw`` (its seal at
    ``seal_at``), ``None`` when there is no cache made from these bytes, or it is damaged."""
    where = cache_path(file)
    if where is None:
        return None
    try:
        data = where.read_bytes()
    except OSError:
        return None
    head = MAGIC + _key(raw, seal_at)
    if not data.startswith(head) or len(data) < len(head) + _CRC.size:
        return None
    (crc,) = _CRC.unpack_from(data, len(head))
    body = memoryview(data)[len(head) + _CRC.size :]
    if zlib.crc32(body) != crc:
        return None
    return logdecoder.decode_answers(body)


def save(file: Path, raw: bytes, seal_at: int, reviews: list[Review]) -> None:
    """Keep ``reviews``, read from the month file ``file`` (bytes ``raw``), as its cache.

    Best effort: a folder that can't be written (a read-only store on a read-only disk)
    simply has no cache. A big cache is checksummed and written by a thread of its own
    (neither needs the interpreter's lock), while the reader goes on to the next month:
    :func:`settle` waits for it.
    """
    where = cache_path(file)
    if where is None:
        return
    body = logdecoder.encode_answers(reviews)
    key = _key(raw, seal_at)
    if len(body) < BACKGROUND_MIN:
        _write(where, key, body)
        return
    writer = threading.Thread(target=_write, args=(where, key, body), name=f"cache {where.name}")
    writer.start()
    _writing.append(writer)


def settle() -> None:
    """Wait until the caches :func:`save` gave its threads are written (or given up)."""
    while _writing:
        _writing.pop().join()


def _write(where: Path, key: bytes, body: bytes) -> None:
    head = b"".join((MAGIC, key, _CRC.pack(zlib.crc32(body))))
    with contextlib.suppress(OSError):
        # A temp name the next writable open removes if a kill leaves it (``.*.tmp``).
        fd, tmp = tempfile.mkstemp(prefix=f".{where.name}.", suffix=".tmp", dir=where.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(head)
                fh.write(body)  # (not joined to the head: a copy of ~100 MB per 400,000)
            os.replace(tmp, where)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
