"""The card states of a store by card id, read from the snapshot's bytes as they are asked for.

:class:`CardTable` is a mapping of card id → stored card state (a :class:`CardData`
dict). Opened over a snapshot with its card index (:mod:`quizzer.progress.cardindex`),
it parses one card's record when that card is first asked for; anything that needs
every card (iterating, counting, writing the next snapshot) first parses the whole
cards table, with the same layout checks as a snapshot read whole, then replays the
changes made meanwhile in their order. Without an index it is a plain dict.
"""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    MutableMapping,
    ValuesView,
)
from hashlib import blake2b
from pathlib import Path
from typing import Any, cast

import quizzer.progress.jsontext as jsontext
from quizzer.errors import StoreError
from quizzer.progress.cardindex import SnapshotBytes, Spans, doc_key
from quizzer.progress.journal_events import CardData


class LazyCards:
    """A snapshot's bytes and its card index: single records, or the whole table, on demand."""

    def __init__(self, raw: SnapshotBytes, spans: Spans, source: Path | None) -> None:
        self.raw = raw
        self.spans = spans
        self.source = source

    def _damaged(self, what: str) -> StoreError:
        where = self.source or "the progress store"
        return StoreError(
            f"progress store is damaged ({what})",
            hint=f"run `quizzer doctor --db {where}` to restore it from the backup",
            path=self.source,
        )

    def record(self, card_id: str) -> CardData | None:
        """The stored state of ``card_id`` (unchecked, as :meth:`State.get` checks it)."""
        return self.records([card_id])[card_id]

    def records(self, card_ids: Iterable[str]) -> dict[str, CardData | None]:
        """The stored states of ``card_ids`` (``None``: never studied), parsed as one."""
        found = {card_id: self.spans.find(doc_key(card_id)) for card_id in card_ids}
        spans = [span for span in found.values() if span is not None]
        raw = self.raw
        try:
            records = iter(jsontext.loads(b"[" + b",".join(raw[a:b] for a, b in spans) + b"]"))
        except ValueError as exc:
            raise self._damaged(f"a card record is unreadable: {exc}") from exc
        out: dict[str, CardData | None] = {}
        for card_id, span in found.items():
            if span is None:
                out[card_id] = None
                continue
            data = next(records)
            if not isinstance(data, dict) or not isinstance(data.get("card_id"), str):
                raise self._damaged(f'card record "{doc_key(card_id)}" has no card id')
            # Another card id with the same numeric key: not this card (the snapshot keys by it).
            out[card_id] = cast(CardData, data) if data["card_id"] == card_id else None
        return out

    def whole(self, check: Callable[[Any], str | None]) -> dict[str, CardData]:
        """Every card record by card id, the table's layout checked by ``check`` (what is
        wrong with it, ``None``: nothing)."""
        start = self.spans.cards_open
        try:
            cards = jsontext.loads(self.raw[start : len(self.raw) - 1])
        except ValueError as exc:
            raise self._damaged(f"the cards table is unreadable: {exc}") from exc
        problem = check(cards) if isinstance(cards, dict) else "the cards table is not a table"
        if problem:
            raise self._damaged(problem)
        return {d["card_id"]: d for d in cards.values()}


class CardTable(MutableMapping[str, CardData]):
    """Card id → stored card state; lazily read from ``lazy`` when one is given."""

    def __init__(
        self,
        data: dict[str, CardData] | None = None,
        lazy: LazyCards | None = None,
        check: Callable[[Any], str | None] | None = None,
    ) -> None:
        self._data: dict[str, CardData] = data if data is not None else {}
        self._lazy = lazy
        self._check = check or (lambda doc: None)
        #: Records read (or set, ``None``: removed) since opening, while still lazy.
        self._seen: dict[str, CardData | None] = {}
        #: Every change while lazy, in order: replayed on the whole table when it is read.
        self._changes: list[tuple[str, CardData | None]] = []
        #: Every change since the snapshot (``None``: not read from one), and the snapshot's
        #: hash once it is read whole: what :meth:`fingerprint` hashes.
        self._since: list[tuple[str, CardData | None]] | None = [] if lazy else None
        self._origin: str | None = None
        self._lock = threading.Lock()

    @property
    def lazy(self) -> bool:
        """Whether the whole table is still unread."""
        return self._lazy is not None

    def _whole(self) -> dict[str, CardData]:
        with self._lock:
            lazy = self._lazy
            if lazy is None:
                return self._data
            data = lazy.whole(self._check)
            self._origin = _origin_of(lazy)
            for card_id, seen in self._seen.items():
                if seen is not None and card_id in data:
                    data[card_id] = seen  # keep the very objects already handed out
            for card_id, change in self._changes:
                if change is None:
                    data.pop(card_id, None)
                else:
                    data[card_id] = change
            self._data, self._lazy = data, None
            self._seen, self._changes = {}, []
            return data

    def __getitem__(self, card_id: str) -> CardData:
        lazy = self._lazy
        if lazy is None:
            return self._data[card_id]
        with self._lock:
            if self._lazy is None:
                return self._data[card_id]
            if card_id in self._seen:
                found = self._seen[card_id]
            else:
                found = lazy.record(card_id)
                self._seen[card_id] = found
        if found is None:
            raise KeyError(card_id)
        return found

    def prefetch(self, card_ids: Iterable[str]) -> None:
        """Read the records of ``card_ids`` at once (a deck's cards, before its queue)."""
        lazy = self._lazy
        if lazy is None:
            return
        with self._lock:
            if self._lazy is None:
                return
            wanted = [card_id for card_id in dict.fromkeys(card_ids) if card_id not in self._seen]
            self._seen.update(lazy.records(wanted))

    def __setitem__(self, card_id: str, data: CardData) -> None:
        with self._lock:
            if self._since is not None:
                self._since.append((card_id, data))
            if self._lazy is None:
                self._data[card_id] = data
                return
            self._seen[card_id] = data
            self._changes.append((card_id, data))

    def __delitem__(self, card_id: str) -> None:
        self[card_id]  # KeyError when absent, as a dict
        with self._lock:
            if self._since is not None:
                self._since.append((card_id, None))
            if self._lazy is None:
                del self._data[card_id]
                return
            self._seen[card_id] = None
            self._changes.append((card_id, None))

    def __contains__(self, card_id: object) -> bool:
        if not isinstance(card_id, str):
            return False
        try:
            self[card_id]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def get(self, card_id: str, default: Any = None) -> Any:  # noqa: D102 - as a dict's
        if self._lazy is None:
            return self._data.get(card_id, default)
        try:
            return self[card_id]
        except KeyError:
            return default

    # Whole-table views straight from the dict (not one __getitem__ per card).
    def keys(self) -> KeysView[str]:  # noqa: D102
        return self._whole().keys()

    def values(self) -> ValuesView[CardData]:  # noqa: D102
        return self._whole().values()

    def items(self) -> ItemsView[str, CardData]:  # noqa: D102
        return self._whole().items()

    def fingerprint(self) -> tuple[str, list[tuple[str, str]]]:
        """What the table holds, without reading a lazy table whole: ``(origin, steps)``.

        A table from a snapshot: ``origin`` names the snapshot's bytes (by the CRC-32 its
        card index holds, checked against them when the index was read, else by a hash),
        and ``steps`` has one ``(card_id, hash)`` per change since, in order, each hash
        chained over the origin and every change up to it (so a table whose first ``k``
        steps equal another's changed the same way to there: its later steps name the
        cards it changed since). Any other table: a hash of its records, no steps. Equal
        last hashes (the origin without steps): equal tables, lazy or read whole.
        """
        with self._lock:
            if self._since is None:
                return _snapshot_hash(pickle.dumps(self._data, protocol=5)).hex(), []
            origin = self._origin if self._lazy is None else _origin_of(self._lazy)
            assert origin is not None  # read whole from a snapshot: named then
            since = list(self._since)
        steps: list[tuple[str, str]] = []
        last = origin.encode()
        for card_id, data in since:
            # Canonical JSON: a change replayed from the journal hashes as the one made live.
            change = json.dumps([card_id, data], sort_keys=True, default=repr).encode()
            last = _snapshot_hash(last + change)
            steps.append((card_id, last.hex()))
            last = last.hex().encode()
        return origin, steps

    def __repr__(self) -> str:
        return f"CardTable({'lazy' if self.lazy else len(self._data)})"


def _snapshot_hash(raw: SnapshotBytes) -> bytes:
    return blake2b(raw, digest_size=16).digest()


def _origin_of(lazy: LazyCards) -> str:
    """The name of a snapshot's bytes: their size and CRC-32 from the card index that fits
    them (what the index itself trusts them by), else a hash of the bytes."""
    crc = lazy.spans.crc
    if crc is not None:
        return f"crc32:{len(lazy.raw)}:{crc:08x}"
    return _snapshot_hash(lazy.raw).hex()
