"""The snapshot: a TinyDB file (tables ``meta``, ``settings``, ``cards``) written atomically.

TinyDB's own ``JSONStorage`` rewrites the file in place, so a kill mid-write
leaves half a file. :class:`AtomicJSONStorage` is a TinyDB storage that
writes a temp file, fsyncs it, renames it over the old one and fsyncs the
directory: readers see the old snapshot or the new one, never a mix. The file
stays a plain TinyDB JSON document (UTF-8, not ``\\u`` escapes), so
``TinyDB(path, access_mode="r")`` can read it.
"""

from __future__ import annotations

import json
import mmap
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import quizzer.progress.cardindex as cardindex
import quizzer.progress.jsontext as jsontext
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes
from quizzer.progress.cardtable import LazyCards
from quizzer.progress.schema import SCHEMA_VERSION, schema_of
from quizzer.progress.values import reason_of

#: Snapshots from this size on are mapped, not read, when opened lazily.
MAP_FROM_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A snapshot as read: its document (only its head when ``lazy``: the cards are read
    from ``lazy`` as asked for, which holds the bytes), and, parsed whole, its bytes
    (``None`` for all three: no file)."""

    doc: dict[str, Any] | None
    lazy: LazyCards | None
    raw: bytes | None


class AtomicJSONStorage:
    """A TinyDB storage with atomic, durable whole-file writes and clear errors on damage.

    It has the storage interface TinyDB calls (``read``, ``write``, ``close``), so
    ``TinyDB(path, storage=AtomicJSONStorage)`` works, without deriving from TinyDB's
    ``Storage``: opening the store then doesn't import TinyDB (~1.3 ms at start-up), which
    only the review log's queries need (:meth:`~quizzer.progress.reading.ReadingStore.reviews_db`).
    """

    def __init__(self, path: str | os.PathLike[str], read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only

    def read_bytes(self) -> bytes | None:
        """The file's bytes, ``None`` if there is no file."""
        return self._read()[0]

    def _read(self) -> tuple[bytes | None, os.stat_result | None]:
        """The file's bytes and its ``stat`` as read (``None``: no file)."""
        try:
            with open(self.path, "rb") as fh:
                return fh.read(), os.fstat(fh.fileno())
        except FileNotFoundError:
            return None, None
        except OSError as exc:
            raise StoreError(
                f"can't read the progress store: {exc.strerror}", path=self.path
            ) from exc

    def read(self) -> dict[str, Any] | None:
        """The whole document, ``None`` if there is no file; :class:`StoreError` if damaged."""
        raw = self.read_bytes()
        return None if raw is None else parse(raw, self.path)

    def read_lazily(self) -> Snapshot:
        """The document, with its cards left unread when the card index fits the file
        (:mod:`quizzer.progress.cardindex`); else parsed whole, as :meth:`read`.

        A big snapshot is mapped rather than read (POSIX): opening a 100,000-card store
        then touches its head and the records asked for, not all of its 37 MB. Measured on
        the first card with a 50,000-concept deck and that store: open and first card 8 ms
        mapped against 24 ms read, about 5% of the figure, which grew 13-19% in the same
        run when this and other costs came back together. The mapping is of the file as
        opened: our writes replace the file by a rename, which leaves it whole.
        """
        mapped = self._map()
        if mapped is not None:
            view, mapped_info = mapped
            lazy = self._lazily(view, mapped_info)
            if lazy is not None:
                return lazy
            whole = view[:]  # no index fits: these very bytes, parsed whole (not read again)
            view.close()
            return Snapshot(parse(whole, self.path), None, whole)
        raw, info = self._read()
        if raw is None:
            return Snapshot(None, None, None)
        return self._lazily(raw, info) or Snapshot(parse(raw, self.path), None, raw)

    def _lazily(self, raw: cardindex.SnapshotBytes, info: os.stat_result | None) -> Snapshot | None:
        """The snapshot with its cards unread, if the card index fits ``raw`` (stat ``info``)."""
        spans = cardindex.load(self.path, raw, info)
        if spans is not None:
            head = parse(raw[: spans.cards_open] + b"{}}", self.path)
            if schema_of(head) == SCHEMA_VERSION:
                return Snapshot(head, LazyCards(raw, spans, self.path), None)
        return None

    def _map(self) -> tuple[mmap.mmap, os.stat_result] | None:
        """The file mapped read-only and its ``stat``, if it is big enough to be worth it
        and this system maps files (``None``: read it as usual)."""
        if os.name != "posix":  # a mapped file can't be replaced by a rename on Windows
            return None
        try:
            with open(self.path, "rb") as fh:
                info = os.fstat(fh.fileno())
                if info.st_size < MAP_FROM_BYTES:
                    return None
                return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ), info
        except (OSError, ValueError):  # missing, unreadable, emptied meanwhile: read it
            return None

    def write(self, data: dict[str, Any]) -> None:
        """Replace the file atomically (temp file, fsync, rename, directory fsync), then
        keep its card index."""
        if self.read_only:
            raise StoreError("the progress store is open read-only", path=self.path)
        raw = dumps(data)
        atomic_write_bytes(self.path, raw)
        cardindex.write_for(self.path, raw, data)

    def close(self) -> None:
        """Nothing stays open between reads and writes."""


def dumps(data: dict[str, Any]) -> bytes:
    """Serialise a snapshot document (compact, UTF-8)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def parse(raw: bytes, path: Path) -> dict[str, Any]:
    """Decode a snapshot document; any damage becomes a :class:`StoreError` naming ``path``."""
    hint = f"run `quizzer doctor --db {path}` to check it and restore from the journal or backup"
    try:
        data = jsontext.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, jsontext.TooDeep) as exc:
        raise StoreError(
            f"progress store is damaged ({reason_of(exc)})", hint=hint, path=path
        ) from exc
    except json.JSONDecodeError as exc:
        raise StoreError(
            f"progress store is damaged ({reason_of(exc)})", hint=hint, path=path, line=exc.lineno
        ) from exc
    if not isinstance(data, dict):
        raise StoreError("progress store is damaged (not a TinyDB document)", hint=hint, path=path)
    return data
