"""The append-only journal: one checksummed JSON line per event, fsynced before it counts.

A line is ``<crc32 as 8 hex digits> <json>\\n``. JSON never contains a raw
newline, so a line is one event; the checksum catches a line half-written
when the process or machine died. Only the *last* line may be damaged that way
(it was never acknowledged); a damaged line followed by good ones means the
file itself is damaged, which :class:`JournalDamage` reports with its line.
Every line whose checksum verifies is an event, even a last one that lost its
newline (the bytes of the event are all there): it is read, and the writer
ends it before appending.

The first line is the header naming the journal's generation (see
:func:`header`). Only a header that verifies says the journal is of an older
generation (already absorbed); a journal without one is damage, unless it is a
version-2 journal (no header, kept as ``P.journal.v2.bak`` too).
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import quizzer.progress.jsontext as jsontext
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress.journal_events import Event, HeaderEvent, as_event
from quizzer.progress.lock import try_exclusive


def _sync(fd: int) -> None:
    """Flush what was written to ``fd`` to the disk: its data and size (``fdatasync``), or
    everything (``fsync``) where there is no ``fdatasync`` (macOS, Windows)."""
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:
        os.fsync(fd)


class JournalDamage(Exception):
    """A damaged line in the middle of the journal (1-based ``line``, byte ``offset``)."""

    def __init__(self, path: Path, line: int, offset: int) -> None:
        super().__init__(f"{path}: journal line {line} (byte {offset}) is damaged")
        self.path = path
        self.line = line
        self.offset = offset


def compact_json(value: Any) -> str:
    """``value`` as compact JSON text (no spaces, non-ASCII kept as it is)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode(event: Mapping[str, object]) -> bytes:
    """One journal line for ``event``."""
    body = compact_json(event).encode("utf-8")
    return b"%08x " % zlib.crc32(body) + body + b"\n"


def decode(line: bytes) -> dict[str, Any] | None:
    """The event of one line (with or without its newline), or ``None`` if damaged."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if len(line) < 10 or line[8:9] != b" ":
        return None
    body = line[9:]
    try:
        if int(line[:8], 16) != zlib.crc32(body):
            return None
        event = jsontext.loads(body)
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Events read from ``start``; ``end`` is the offset after the last good line.

    ``torn`` holds the bytes of a damaged or unterminated last line (a write cut
    short), empty when the file ended cleanly.
    """

    events: list[Event]
    end: int
    torn: bytes


def scan(path: Path, start: int = 0) -> Iterator[tuple[int, Event]]:
    """Stream ``(offset after the line, event)`` from byte ``start``, one line at a time.

    Stops quietly at a damaged or unterminated *last* line (a write cut short);
    raises :class:`JournalDamage` for a damaged line with good data after it.
    """
    if not path.exists():
        return
    with open(path, "rb") as fh:
        fh.seek(start)
        pos = start
        for line in fh:
            event = decode(line)
            if not line.endswith(b"\n"):
                # Unterminated: the last line. Cut short (or still being written by the store's
                # writer while a read-only reader looks) unless its checksum verifies: then
                # only its newline is missing, and the event counts.
                if event is not None:
                    yield pos + len(line), as_event(event)
                return
            if event is None:
                if fh.read().strip(b"\x00\n"):
                    raise JournalDamage(path, _line_of(path, pos), pos)
                return
            pos += len(line)
            yield pos, as_event(event)


def read(path: Path, start: int = 0) -> ReadResult:
    """Read events from byte ``start``; raise :class:`JournalDamage` for damage before the end."""
    events: list[Event] = []
    end = start
    for end, event in scan(path, start):  # noqa: B007 - end is used after the loop
        events.append(event)
    torn = b""
    if path.exists():
        with open(path, "rb") as fh:
            fh.seek(end)
            torn = fh.read()
    return ReadResult(events, end, torn)


def _line_of(path: Path, offset: int) -> int:
    if offset == 0:
        return 1
    with open(path, "rb") as fh:
        return fh.read(offset).count(b"\n") + 1


def header_event(gen: int) -> HeaderEvent:
    """The first line of a journal of generation ``gen`` (see :func:`generation`)."""
    return {"op": "header", "gen": gen}


def header(path: Path) -> int | None:
    """The generation the journal's first line names, ``None`` without a header that verifies.

    ``None`` for a missing or empty file too. Each compaction starts a new journal
    with the next generation; the snapshot records the generation it has absorbed,
    so a journal that a crash left behind after its snapshot was written is
    recognised (by this positive sign only) and skipped.
    """
    try:
        with open(path, "rb") as fh:
            first = fh.readline(4096)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    event = decode(first)
    if event is None or event.get("op") != "header":
        return None
    gen = event.get("gen")
    if not isinstance(gen, int) or isinstance(gen, bool) or gen < 0:
        return None
    return gen


def generation(path: Path) -> int:
    """The generation a journal file says in its first line; 0 if none (or no file)."""
    gen = header(path)
    return 0 if gen is None else gen


def start_new(path: Path, gen: int) -> int:
    """Replace ``path`` atomically by a journal holding only its header; the header's length."""
    data = encode(header_event(gen))
    atomic_write_bytes(path, data)
    return len(data)


def iter_lines(path: Path) -> Iterator[tuple[int, bytes, Event | None]]:
    """Every line with its byte offset and event (``None`` when damaged), for repair."""
    with open(path, "rb") as fh:
        offset = 0
        for line in fh:
            event = decode(line)
            yield offset, line, as_event(event) if event is not None else None
            offset += len(line)


class JournalWriter:
    """Appends events durably: :meth:`append` returns only after the bytes are on disk."""

    def __init__(self, path: Path, end: int) -> None:
        self.path = path
        existed = path.exists()
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
        # Held while this writer lives: a second writer that got past a removed lock file
        # finds the journal itself locked before it truncates anything.
        if not try_exclusive(self._fd):
            os.close(self._fd)
            self._fd = -1
            raise StoreError(
                "the journal is in use by another quizzer process",
                hint="close the other quizzer first",
                path=path,
            )
        size = os.fstat(self._fd).st_size
        if size > end:
            # Drop a torn last line so the next event starts on a line of its own.
            os.ftruncate(self._fd, end)
            _sync(self._fd)
        if end > 0 and os.pread(self._fd, 1, end - 1) != b"\n":
            # A last event that verified without its newline: end it so the next starts clean.
            os.pwrite(self._fd, b"\n", end)
            _sync(self._fd)
            end += 1
        self.end = end
        os.lseek(self._fd, end, os.SEEK_SET)
        if not existed:
            fsync_dir(path.parent)

    def append(self, event: Mapping[str, object]) -> int:
        """Write one event and fsync it; returns the offset after it."""
        self.append_nosync(event)
        _sync(self._fd)
        return self.end

    def append_nosync(self, event: Mapping[str, object]) -> None:
        """Write one event without fsync (bulk imports: call :meth:`sync` after the batch)."""
        data = encode(event)
        view = memoryview(data)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        except OSError:
            # Disk full or similar: take the partial line back so the next one starts clean.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self.end)
                os.lseek(self._fd, self.end, os.SEEK_SET)
            raise
        self.end += len(data)

    def sync(self) -> None:
        """Flush everything appended so far to disk."""
        _sync(self._fd)

    def close(self) -> None:
        """Close the file (every append is already durable)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
