"""The card states cache: what replaying a store's events gave, kept outside the store folder.

``paths.cache_dir()/stores/<store uuid>/<device>/states.json`` is written whole and
atomically (temp file, rename) when a store closes after a change. Its first line is a JSON
object, the ``meta``: per device folder, the :class:`~quizzer.progress.devicelog.Mark` its
states include, the settings events (few, needed to go on replaying), the answers of the
last days (today's counts), any losses found (for ``quizzer doctor --check``) and the
statistics' tally, and the CRC-32 of the rest of the file. Its second line is the JSON
array of card ids; then comes one line per card, in the same order: its state in numbers
(times in ms) and the key of its last event.

A cache is only ever a shortcut: opening with none (or one that doesn't fit) replays every
event, and deleting every cache file loses nothing. A card's line is decoded only when that
card is asked for (:func:`cached_rows`), and an unchanged line is written back as it was
read, so opening a store of 100,000 cards splits bytes instead of building a million
numbers: decoding every line made the home screen's first paint 0.2 s slower at 100,000
cards (benchmarks/RESULTS.md, "home screen, first paint").
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import fsrs
import msgspec

import quizzer.progress.devicelog as devicelog
import quizzer.progress.events as ev
import quizzer.progress.layout as layout
from quizzer import paths
from quizzer.cards.card import CardKey
from quizzer.fsutil import atomic_write_bytes
from quizzer.scheduling.card_state import CardState

S = TypeVar("S")
T = TypeVar("T")

#: Raised when the cache format changes: an older cache is ignored (and rewritten).
VERSION = 2
_NONE = -1
_LIMIT = 2**31  # a cache is ours: the limit only guards against a stray huge file


def cache_path(store_uuid: str, device: str) -> Path:
    """Where the cache of ``device``'s view of the store ``store_uuid`` lives. A copy of the
    store folder shares it: a copy that has fewer events than the cache saw is told as
    losses (a backup put back has lost what came after it), and then replayed whole."""
    return paths.cache_dir() / "stores" / store_uuid / device / "states.json"


def _ms(value: Any) -> int:
    return _NONE if value is None else ev.to_ms(value)


def _dt(value: int) -> Any:
    return None if value == _NONE else ev.from_ms(value)


def to_row(state: CardState, last: ev.Key) -> list[Any]:
    """``state`` in numbers, with the key of the card's last event."""
    card = state.card
    flags = state.leech | state.flagged << 1 | state.suspended << 2
    return [
        int(card.state.value),
        card.step,
        card.stability,
        card.difficulty,
        _ms(card.due),
        _ms(card.last_review),
        state.reps,
        state.lapses,
        flags,
        _ms(state.buried_until),
        _ms(state.first_review),
        list(last),
    ]


def from_row(card_id: str, row: list[Any]) -> CardState:
    """The :class:`CardState` of a row (:func:`to_row`)."""
    card = fsrs.Card(
        card_id=CardKey.parse(card_id).int_id,
        state=fsrs.State(row[0]),
        step=row[1],
        stability=row[2],
        difficulty=row[3],
        due=ev.from_ms(row[4]),
        last_review=_dt(row[5]),
    )
    flags = row[8]
    return CardState(
        card_id=card_id,
        card=card,
        reps=row[6],
        lapses=row[7],
        leech=bool(flags & 1),
        flagged=bool(flags & 2),
        suspended=bool(flags & 4),
        buried_until=_dt(row[9]),
        first_review=_dt(row[10]),
    )


class Lazy(MutableMapping[str, T], Generic[S, T]):
    """Card id → a value made from ``source``'s entry when first read (``made``). A value set
    since stands on its own: its card keeps a ``placeholder`` entry in ``source``."""

    def __init__(
        self, source: MutableMapping[str, S], make: Callable[[str, S], T], placeholder: S
    ) -> None:
        self.source, self.make, self.placeholder = source, make, placeholder
        self.made: dict[str, T] = {}

    def __getitem__(self, card_id: str) -> T:
        value = self.made.get(card_id)
        if value is None:
            value = self.made[card_id] = self.make(card_id, self.source[card_id])
        return value

    def __setitem__(self, card_id: str, value: T) -> None:
        self.made[card_id] = value
        self.source.setdefault(card_id, self.placeholder)

    def __delitem__(self, card_id: str) -> None:
        self.made.pop(card_id, None)
        del self.source[card_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self.source)

    def __len__(self) -> int:
        return len(self.source)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.source


def cached_rows(lines: dict[str, bytes]) -> Lazy[bytes, list[Any]]:
    """Card id → its row, each line of the cache file decoded when first read."""
    return Lazy(lines, lambda _, line: msgspec.json.decode(line), b"")


def cached_states(rows: MutableMapping[str, list[Any]]) -> Lazy[list[Any], CardState]:
    """Card states that start as a cache's rows and become objects when first read."""
    return Lazy(rows, from_row, [])


@dataclass(slots=True)
class Cache:
    """What a cache file holds (see the module docstring)."""

    marks: dict[str, devicelog.Mark] = field(default_factory=dict)
    rows: MutableMapping[str, list[Any]] = field(default_factory=dict)
    settings: list[dict[str, Any]] = field(default_factory=list)
    recent: list[list[Any]] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    counts: dict[str, list[Any]] = field(default_factory=dict)
    bad: list[list[str]] = field(default_factory=list)
    tally: tuple[list[Any], dict[str, Any]] | None = None

    def last_keys(self) -> Mapping[str, ev.Key]:
        """Card id → the key of its last event, read from its row when asked for."""
        return Lazy(self.rows, lambda _, row: (row[11][0], row[11][1], row[11][2]), [])


#: The parts of a cache's ``meta`` kept as they are (after ``marks``, before ``tally``).
_PARTS = ("settings", "recent", "losses", "counts", "bad")


def load(path: Path) -> Cache | None:
    """The cache at ``path``; ``None`` when there is none or it can't be used."""
    try:
        with layout.open_file(path) as fh:
            if os.fstat(fh.fileno()).st_size > _LIMIT:
                return None
            head, body = fh.read().split(b"\n", 1)
        meta = msgspec.json.decode(head)
        # Lines are decoded only when asked for, so damage is caught here, whole, or never.
        if meta.get("version") != VERSION or meta.get("crc") != zlib.crc32(body):
            return None
        ids, block = body.split(b"\n", 1)
        card_ids = msgspec.json.decode(ids, type=list[str])
        lines = block.split(b"\n")[:-1] if block else []
        if len(lines) != len(card_ids):
            return None
        marks = {name: devicelog.Mark(*mark) for name, mark in meta["marks"].items()}
        tally = (meta["tally"][0], meta["tally"][1]) if meta["tally"] else None
        rows = cached_rows(dict(zip(card_ids, lines, strict=True)))
        return Cache(marks, rows, tally=tally, **{part: meta[part] for part in _PARTS})
    except (OSError, ValueError, KeyError, TypeError, AttributeError, msgspec.DecodeError):
        return None


def save(path: Path, cache: Cache) -> None:
    """Write ``cache`` to ``path`` whole (a failure leaves the old one or none: a cache)."""
    meta = {part: getattr(cache, part) for part in _PARTS} | {"version": VERSION}
    meta["marks"] = {n: [m.segment, m.offset, m.count, m.before] for n, m in cache.marks.items()}
    meta["tally"] = list(cache.tally) if cache.tally else None
    rows, encode = cache.rows, msgspec.json.encode
    card_ids = list(rows)
    if isinstance(rows, Lazy):  # a row never decoded is written back as it was read
        made = rows.made
        lines = [encode(made[c]) if c in made else rows.source[c] for c in card_ids]
    else:
        lines = [encode(rows[c]) for c in card_ids]
    body = b"\n".join([encode(card_ids), *lines]) + b"\n"
    meta["crc"] = zlib.crc32(body)
    data = msgspec.json.encode(meta) + b"\n" + body
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
