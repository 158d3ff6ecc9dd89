"""One event per line: ``<json>\\t<crc32 of the json, 8 hex digits>\\n``.

The checksum tells a line written whole from one a crash or a disk cut short or changed.
A bad last line (no newline, or a checksum that doesn't match at the very end) is what a
crash mid-append leaves: readers ignore it and the writer cuts it off before its next
append. A bad line with good lines after it is damage: reported with its line number and
skipped, never a traceback.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

#: An event as read from a line: a JSON object with at least a string ``id``.
Event = dict[str, Any]

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(dict[str, Any])
#: The longest line a reader accepts; an answer with a long typed text is a few KB.
MAX_LINE = 256 * 1024


def encode(event: Mapping[str, Any]) -> bytes:
    """The line of ``event``, newline included. msgspec escapes tabs and newlines inside
    strings, so the JSON never holds the separator or the end of line."""
    body = _ENCODER.encode(event)
    return b"%s\t%08x\n" % (body, zlib.crc32(body))


def encode_all(events: Iterable[Mapping[str, Any]]) -> bytes:
    """The lines of ``events``, one after another."""
    return b"".join(map(encode, events))


@dataclass(frozen=True, slots=True)
class Damage:
    """A line that can't be read: where (1-based line, byte offset) and why."""

    line: int
    offset: int
    reason: str


@dataclass(slots=True)
class Parsed:
    """What :func:`parse` found in a run of bytes.

    ``events`` are the good lines' events in file order; ``end`` is the offset just past
    the last whole line (good or damaged): a torn tail starts there.
    """

    events: list[Event] = field(default_factory=list)
    damage: list[Damage] = field(default_factory=list)
    end: int = 0


def decode(line: bytes) -> Event:
    """The event of one line (without its newline); ``ValueError`` saying what is wrong."""
    body, tab, crc = line.rpartition(b"\t")
    if not tab or len(crc) != 8:
        raise ValueError("no checksum at the end of the line")
    try:
        expected = int(crc, 16)
    except ValueError:
        raise ValueError("the checksum is not 8 hex digits") from None
    if zlib.crc32(body) != expected:
        raise ValueError("the checksum doesn't match the line (changed or cut short)")
    try:
        event = _DECODER.decode(body)
    except msgspec.DecodeError as error:
        raise ValueError(f"not a JSON object: {error}") from None
    if not isinstance(event.get("id"), str):
        raise ValueError("the event has no string id")
    return event


def parse(data: bytes, *, offset: int = 0, line: int = 1) -> Parsed:
    """Read the lines of ``data`` (bytes of a log starting at byte ``offset``, line ``line``).

    A bad last line is the torn tail, not damage; it and an unterminated last line stop
    ``end`` before them.
    """
    found = Parsed(end=offset)
    pieces = data.split(b"\n")
    tail = pieces.pop()  # after the last newline: empty, or an unterminated (torn) line
    position = offset
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        try:
            if len(piece) > MAX_LINE:
                raise ValueError(f"the line is longer than {MAX_LINE // 1024} KB")
            found.events.append(decode(piece))
        except ValueError as error:
            if index == last and not tail:
                break
            found.damage.append(Damage(line + index, position, str(error)))
        position += len(piece) + 1
        found.end = position
    return found
