"""The card states cache: what replaying a store's events gave, kept outside the store folder.

``paths.cache_dir()/stores/<store uuid>/<device>/states.json``, written whole and atomically
when a store closes after a change. Line 1, the ``meta``: per device folder the
:class:`~quizzer.progress.devicelog.Mark` its states include, the settings events, the last
days' answers (today's counts), losses found (``quizzer doctor --check``), the statistics'
tally, the rows' width and the CRC-32 of the rest. Line 2: the card ids, sorted; then a line
per card, padded to that width: its state in numbers (ms) and the key of its last event.
Without a cache (or with one that doesn't fit) every event is replayed: it loses nothing.

A card's line is found by bisecting the ids and decoded when asked for (:class:`Rows`); an
unchanged line is written back as read. Opening a 100,000-card store decodes one list:
decoding every line cost the home screen's first paint 0.2 s, a dict of the lines 40 ms
(over 10% of it; benchmarks/RESULTS.md).
"""

from __future__ import annotations

import contextlib
import os
import zlib
from bisect import bisect_left
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
VERSION = 3
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
    """``state`` in numbers, with the key of the card's last event: the fields of
    :class:`fsrs.Card` (times in ms), then those of :class:`CardState` (flags as bits)."""
    card, flags = state.card, state.leech | state.flagged << 1 | state.suspended << 2
    head = [int(card.state.value), card.step, card.stability, card.difficulty, _ms(card.due)]
    rest = [_ms(card.last_review), state.reps, state.lapses, flags, _ms(state.buried_until)]
    return [*head, *rest, _ms(state.first_review), list(last)]


def from_row(card_id: str, row: list[Any]) -> CardState:
    """The :class:`CardState` of a row (:func:`to_row`)."""
    state, step, stability, difficulty, due, last, reps, lapses, flags, buried, first, _ = row
    key, due = CardKey.parse(card_id).int_id, ev.from_ms(due)
    card = fsrs.Card(key, fsrs.State(state), step, stability, difficulty, due, _dt(last))
    leech, flagged, suspended = bool(flags & 1), bool(flags & 2), bool(flags & 4)
    return CardState(
        card_id, card, reps, lapses, leech, flagged, suspended, _dt(buried), _dt(first)
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


class Rows(MutableMapping[str, list[Any]]):
    """Card id → its row: the file's (``ids`` sorted, each line ``width`` bytes of ``data``
    from ``start`` on), decoded when asked for, under the rows set since (``made``; ``None``:
    deleted)."""

    def __init__(self, ids: list[str], data: bytes, width: int, start: int = 0) -> None:
        self.ids, self.data, self.width, self.start = ids, data, width, start
        self.made: dict[str, list[Any] | None] = {}

    def _at(self, card_id: str) -> int:
        at = bisect_left(self.ids, card_id)
        return at if at < len(self.ids) and self.ids[at] == card_id else -1

    def line(self, card_id: str) -> bytes | None:
        """``card_id``'s row as set, else as the file has it (``None``: it has none)."""
        if card_id in self.made:
            row = self.made[card_id]
            return None if row is None else msgspec.json.encode(row)
        at, width = self._at(card_id), self.width
        begin = self.start + at * width
        return self.data[begin : begin + width].rstrip() if at >= 0 else None

    def __getitem__(self, card_id: str) -> list[Any]:
        row = self.made[card_id] if card_id in self.made else self.line(card_id)
        if row is None:
            raise KeyError(card_id)
        return row if isinstance(row, list) else msgspec.json.decode(row)

    def __contains__(self, card_id: object) -> bool:
        if card_id in self.made:
            return self.made[card_id] is not None
        return isinstance(card_id, str) and self._at(card_id) >= 0

    def __setitem__(self, card_id: str, row: list[Any]) -> None:
        self.made[card_id] = row

    def __delitem__(self, card_id: str) -> None:
        if card_id not in self:
            raise KeyError(card_id)
        self.made[card_id] = None

    def __iter__(self) -> Iterator[str]:
        yield from (c for c in self.ids if self.made.get(c, c) is not None)
        yield from (c for c, row in self.made.items() if row is not None and self._at(c) < 0)

    def __len__(self) -> int:
        extra = ((row is not None) - (self._at(c) >= 0) for c, row in self.made.items())
        return len(self.ids) + sum(extra)


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
            data = fh.read()
        # The parts are read in place (views of the file's bytes): splitting them off copied
        # the 18 MB file of a 100,000-card store twice into fresh memory, about 25 ms of CPU
        # of the home screen's first paint (6%) and 40 ms of `quizzer study`'s (9%).
        view, head_end = memoryview(data), data.index(b"\n")
        meta = msgspec.json.decode(view[:head_end])
        # Lines are decoded only when asked for, so damage is caught here, whole, or never.
        if meta.get("version") != VERSION or meta.get("crc") != zlib.crc32(view[head_end + 1 :]):
            return None
        ids_end = data.index(b"\n", head_end + 1)
        card_ids = msgspec.json.decode(view[head_end + 1 : ids_end], type=list[str])
        width = meta["width"]
        if len(data) - ids_end - 1 != len(card_ids) * width:
            return None
        marks = {name: devicelog.Mark(*mark) for name, mark in meta["marks"].items()}
        tally = (meta["tally"][0], meta["tally"][1]) if meta["tally"] else None
        rows = Rows(card_ids, data, width, ids_end + 1)
        return Cache(marks, rows, tally=tally, **{part: meta[part] for part in _PARTS})
    except (OSError, ValueError, KeyError, TypeError, AttributeError, msgspec.DecodeError):
        return None


def save(path: Path, cache: Cache) -> None:
    """Write ``cache`` to ``path`` whole (a failure leaves the old one or none: a cache)."""
    meta = {part: getattr(cache, part) for part in _PARTS} | {"version": VERSION}
    meta["marks"] = {n: [m.segment, m.offset, m.count, m.before] for n, m in cache.marks.items()}
    meta["tally"] = list(cache.tally) if cache.tally else None
    rows, encode = cache.rows, msgspec.json.encode
    card_ids = sorted(rows)
    # A row never decoded is written back as it was read.
    lines = [(rows.line(c) or b"") if isinstance(rows, Rows) else encode(rows[c]) for c in card_ids]
    meta["width"] = width = max(map(len, lines), default=0) + 1
    body = b"\n".join([encode(card_ids), *(line.ljust(width - 1) for line in lines)]) + b"\n"
    meta["crc"] = zlib.crc32(body)
    data = msgspec.json.encode(meta) + b"\n" + body
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
