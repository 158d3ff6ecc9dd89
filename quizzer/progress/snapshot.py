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

        """
        raw, info = self._read()
        if raw is None:
            return Snapshot(None, None, None)
        return self._lazily(raw, info) or Snapshot(parse(raw, self.path), None, raw)

    def _lazily(self, raw: bytes, info: os.stat_result | None) -> Snapshot | None:
        """The snapshot with its cards unread, if the card index fits ``raw`` (stat ``info``)."""
        spans = cardindex.load(self.path, raw, info)
        if spans is not None:
            head = parse(raw[: spans.cards_open] + b"{}}", self.path)
            if schema_of(head) == SCHEMA_VERSION:
                return Snapshot(head, LazyCards(raw, spans, self.path), None)
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
