"""A big deck's new and due counts on the home screen, kept between launches.

Counting a 50,000-concept deck means loading it (its 30 MB cached parse) and looking
each of its cards up in the store: about a second, so the home screen shows it
"counting…" and a worker counts it after the first paint. Yet between two launches
the counts rarely change. They are a function of the deck's cards in the direction
(the deck file's bytes, by their hash), the card states the store holds (its
:meth:`~quizzer.progress.store.Store.cards_fingerprint`), the scheduler's settings,
the deck's answers today and the study day — and, within a day, of the clock only at
known moments: a learning card's step coming due, a buried card coming back, the day's
end. So the counts are kept with all of that (:func:`tie`) and the span of time they
hold for; a launch whose tie is the same, within that span, shows them with its first
paint. Anything else (a changed deck, an answer, a new day, other settings, a damaged,
foreign or deleted file) counts again, as before, and keeps the new counts.

Closing the store compacts it: the same card states, read next time from a new snapshot
under another name. Counts kept from the final states are tied to that snapshot as well
(:meth:`KeptCounts.close_store`), so a launch after a session, whose home screen counted
the deck again when the session ended, still finds them.

The file is a cache under ``$QUIZZER_CACHE`` (``counts/``), one per store and deck
direction, never the only copy of anything: the store and the deck file are.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer import __version__
from quizzer.cards.card import Pair
from quizzer.errors import InputError
from quizzer.fsutil import atomic_write_text, read_regular_file
from quizzer.paths import cache_dir

if TYPE_CHECKING:
    from quizzer.progress import Store
    from quizzer.scheduling.queue import DueQueue
    from quizzer.services.library import DeckShelf

#: Bump when the entry's form or what the tie covers changes: old entries then never hit.
COUNTS_FORMAT = 1
#: The largest entry read (an entry is a few hundred bytes).
MAX_ENTRY_BYTES = 1 << 16


def _entry_path(store: Store, deck_id: str, pair: Pair) -> Path:
    where = os.fsencode(os.path.abspath(store.path))
    name = hashlib.blake2b(
        where + b"\0" + deck_id.encode() + b"\0" + pair.code.encode(), digest_size=16
    ).hexdigest()
    return cache_dir() / "counts" / f"{name}.json"


def tie(
    store: Store,
    deck_key: str,
    deck_id: str,
    pair: Pair,
    now: datetime,
    fingerprint: str | None = None,
) -> str:
    """What the counts of ``deck_id`` in ``pair`` at ``now`` depend on but the clock within
    the study day, hashed; ``deck_key`` names the deck file's bytes
    (:func:`~quizzer.library.cache.digest`), ``fingerprint`` the card states (default: the
    store's now)."""
    from quizzer.scheduling.studyday import day_bounds

    settings = store.settings
    start, end = day_bounds(now, store.tz_at(now), settings.day_start_hour)
    today = store.today(deck_id, now)
    parts = [
        COUNTS_FORMAT,
        __version__,
        deck_key,
        deck_id,
        pair.code,
        fingerprint or store.cards_fingerprint(),
        settings.to_dict(),
        [today.new, today.review, today.learning],
        start.isoformat(),
        end.isoformat(),
    ]
    text = json.dumps(parts, sort_keys=True, default=repr)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def cached_counts(
    store: Store, deck_key: str, deck_id: str, pair: Pair, now: datetime
) -> tuple[int, int] | None:
    """The (new, due) counts kept for this deck direction, if they hold at ``now``."""
    try:
        raw = read_regular_file(_entry_path(store, deck_id, pair), MAX_ENTRY_BYTES, "cache")
        entry = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError, InputError):
        return None  # missing, unreadable, not JSON, a FIFO planted there: counted again
    if not isinstance(entry, dict) or entry.get("tie") != tie(store, deck_key, deck_id, pair, now):
        return None
    new, due, since, until = (entry.get(k) for k in ("new", "due", "since", "until"))
    if not (type(new) is int and type(due) is int and new >= 0 and due >= 0):
        return None
    if not (isinstance(since, str) and isinstance(until, str)):
        return None
    try:
        if not datetime.fromisoformat(since) <= now < datetime.fromisoformat(until):
            return None
    except (TypeError, ValueError):  # not a time, or one without its zone
        return None
    return new, due


def keep_counts(
    store: Store, deck_key: str, deck_id: str, pair: Pair, now: datetime, queue: DueQueue
) -> dict[str, Any] | None:
    """Keep the counts of ``queue`` (the deck direction's due queue at ``now``) until the
    first moment they could change (best effort: a failed write only means counting
    again next time); the entry kept, ``None`` if none was."""
    if getattr(store, "read_only", False):
        return None
    from quizzer.scheduling.studyday import day_bounds

    _, end = day_bounds(now, store.tz_at(now), store.settings.day_start_hour)
    until = end
    if queue.next_learning_due is not None:
        until = min(until, queue.next_learning_due)
    for key in queue.buried:  # those buried until a moment (siblings: until the day's end)
        state = store.card(key)
        back = state.buried_until if state is not None else None
        if back is not None and now < back:
            until = min(until, back)
    entry: dict[str, Any] = {
        "tie": tie(store, deck_key, deck_id, pair, now),
        "new": len(queue.new),
        "due": len(queue.learning) + len(queue.review),
        "since": now.isoformat(),
        "until": until.isoformat(),
    }
    return entry if _write(store, deck_id, pair, entry) else None


def retie(
    store: Store,
    entry: dict[str, Any],
    deck_key: str,
    deck_id: str,
    pair: Pair,
    fingerprint: str,
) -> None:
    """Keep ``entry`` (kept by :func:`keep_counts`) for the same card states under another
    name: the snapshot a compaction wrote them to (:meth:`Store.disk_fingerprint`), which
    the next launch reads them from."""
    now = datetime.fromisoformat(entry["since"])
    _write(
        store,
        deck_id,
        pair,
        {**entry, "tie": tie(store, deck_key, deck_id, pair, now, fingerprint)},
    )


def _write(store: Store, deck_id: str, pair: Pair, entry: dict[str, Any]) -> bool:
    try:
        atomic_write_text(_entry_path(store, deck_id, pair), json.dumps(entry))
    except OSError:
        return False
    return True


class KeptCounts:
    """The big decks' counts of a shelf over a store: looked up, kept when counted, and
    carried over the compaction that closing the store does (the card states are the
    same, the snapshot they are read from next time is another)."""

    def __init__(self, store: Store, shelf: DeckShelf) -> None:
        self.store = store
        self.shelf = shelf
        #: What was kept this run, and the card states it was counted from.
        self._kept: dict[tuple[str, Pair], tuple[str, dict[str, Any], str]] = {}

    def _key(self, deck_id: str) -> str | None:
        """The deck file's hash if the deck is big and its file is as listed."""
        return self.shelf.key_of(deck_id) if self.shelf.big(deck_id) else None

    def get(self, deck_id: str, pair: Pair, now: datetime) -> tuple[int, int] | None:
        """The deck's counts kept for ``pair`` if they hold at ``now``."""
        key = self._key(deck_id)
        return cached_counts(self.store, key, deck_id, pair, now) if key else None

    def keep(self, deck_id: str, pair: Pair, now: datetime, queue: DueQueue) -> None:
        """Keep a big deck's counts of ``queue`` (its due queue at ``now``)."""
        key = self._key(deck_id)
        entry = keep_counts(self.store, key, deck_id, pair, now, queue) if key else None
        if key and entry is not None:
            self._kept[(deck_id, pair)] = (key, entry, self.store.cards_fingerprint())

    def close_store(self) -> None:
        """Close the store; what was kept from its final card states is tied to the snapshot
        the compaction wrote them to (else the next launch would count again)."""
        final = self.store.cards_fingerprint() if self._kept else None
        self.store.close()
        current = [(k, v) for k, v in self._kept.items() if v[2] == final]
        after = self.store.disk_fingerprint() if current else None
        if after is None or after == final:
            return
        for (deck_id, pair), (key, entry, _) in current:
            retie(self.store, entry, key, deck_id, pair, after)
