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

The queue itself is kept beside the counts (the cards of each kind, by id): it is the same
function of the same inputs, so `quizzer study` on a big deck, launched again with the
counts holding, starts on the kept queue instead of reading the deck's every card state
(:meth:`KeptCounts.queue`); a queue a session computed is kept when the store closes with
the states it was computed from (:meth:`KeptCounts.note`).

The file is a cache under ``$QUIZZER_CACHE`` (``counts/``), one per store and deck
direction, never the only copy of anything: the store and the deck file are.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from hashlib import blake2b
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer import __version__
from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.errors import InputError
from quizzer.fsutil import atomic_write_text, read_regular_file
from quizzer.paths import cache_dir
from quizzer.scheduling.queue import DueQueue
from quizzer.scheduling.studyday import day_bounds

if TYPE_CHECKING:
    from quizzer.concepts.concept import Concept
    from quizzer.progress import Store
    from quizzer.scheduling.queue import DueQueue
    from quizzer.services.library import DeckShelf

#: Bump when the entry's form or what the tie covers changes: old entries then never hit.
COUNTS_FORMAT = 1
#: The largest entry read: the counts take a few hundred bytes, the kept queue about 50 a
#: card (the 1,690 cards due in the benchmark's 4,000-concept deck: 87 kB). The limit only
#: keeps a stray huge file from being read.
MAX_ENTRY_BYTES = 1 << 26


def _entry_path(store: Store, deck_id: str, pair: Pair) -> Path:
    where = os.fsencode(os.path.abspath(store.path))
    name = blake2b(
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
    settings = store.settings
    start, end = day_bounds(now, store.tz, settings.day_start_hour)
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
    return blake2b(text.encode(), digest_size=16).hexdigest()


def _holding_entry(
    store: Store, deck_key: str, deck_id: str, pair: Pair, now: datetime
) -> dict[str, Any] | None:
    """The entry kept for this deck direction, if its counts are numbers and hold at ``now``."""
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
    return entry


def cached_counts(
    store: Store, deck_key: str, deck_id: str, pair: Pair, now: datetime
) -> tuple[int, int] | None:
    """The (new, due) counts kept for this deck direction, if they hold at ``now``."""
    entry = _holding_entry(store, deck_key, deck_id, pair, now)
    return (entry["new"], entry["due"]) if entry is not None else None


#: The card lists of a kept queue, as :class:`~quizzer.scheduling.queue.DueQueue` names them.
_KINDS = ("learning", "review", "new", "buried")


def cached_queue(
    store: Store,
    deck_key: str,
    deck_id: str,
    pair: Pair,
    now: datetime,
    concepts: Sequence[Concept],
) -> tuple[DueQueue, list[CardKey]] | None:
    """The due queue kept with the counts of this deck direction, if they hold at ``now``,
    and its cards in deck order; ``concepts`` are the deck's (a kept card that is not the
    card of the concept at its index, or lists that don't add up to the counts, mean
    computing it again)."""
    entry = _holding_entry(store, deck_key, deck_id, pair, now)
    kept = entry.get("queue") if entry is not None else None
    if entry is None or not isinstance(kept, dict):
        return None
    try:
        found = {kind: _kept_cards(kept[kind], concepts, pair) for kind in _KINDS}
        at = kept["next_learning_due"]
        next_learning = None if at is None else datetime.fromisoformat(at)
        left = kept["new_left"], kept["reviews_left"]
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if next_learning is not None and next_learning.tzinfo is None:
        return None
    if not all(type(n) is int and n >= 0 for n in left):
        return None
    new_left, reviews_left = left
    queue = DueQueue(
        **{kind: tuple(key for _, key in cards) for kind, cards in found.items()},
        next_learning_due=next_learning,
        new_left=new_left,
        reviews_left=reviews_left,
    )
    if (len(queue.new), len(queue.learning) + len(queue.review)) != (entry["new"], entry["due"]):
        return None
    queued = sorted(card for kind in _KINDS[:3] for card in found[kind])
    return queue, [key for _, key in queued]


def _kept_cards(
    kept: list[Any], concepts: Sequence[Concept], pair: Pair
) -> list[tuple[int, CardKey]]:
    """The ``[index, card id]`` pairs of a kept list as (index, card); ``ValueError`` for a
    card id that is not the card of the concept at its index in ``pair`` (or a concept
    without that card: :func:`~quizzer.cards.card.has_card`)."""
    cards = []
    for index, card_id in kept:
        if type(index) is not int or index < 0:
            raise ValueError(index)
        concept = concepts[index]
        key = CardKey(concept.uid, pair)
        if key.id != card_id or not has_card(concept, pair):
            raise ValueError(card_id)
        cards.append((index, key))
    return cards


def _queue_entry(queue: DueQueue, index: Mapping[str, int]) -> dict[str, Any]:
    """What :func:`cached_queue` reads back of ``queue``; ``index``: each concept's index in
    the deck, by uid."""
    at = queue.next_learning_due
    return {
        **{
            kind: [[index[key.concept_uid], key.id] for key in getattr(queue, kind)]
            for kind in _KINDS
        },
        "next_learning_due": None if at is None else at.isoformat(),
        "new_left": queue.new_left,
        "reviews_left": queue.reviews_left,
    }


def keep_counts(
    store: Store,
    deck_key: str,
    deck_id: str,
    pair: Pair,
    now: datetime,
    queue: DueQueue,
    *,
    index: Mapping[str, int],
    write: bool = True,
) -> dict[str, Any] | None:
    """Keep the counts of ``queue`` (the deck direction's due queue at ``now``), and the queue
    (``index``: the deck's concepts' indexes by uid), until the first moment they could
    change (best effort: a failed write only means counting again next time); the entry
    kept, ``None`` if none was. Without ``write``, the entry only (:meth:`KeptCounts.note`)."""
    if getattr(store, "read_only", False):
        return None

    _, end = day_bounds(now, store.tz, store.settings.day_start_hour)
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
        "queue": _queue_entry(queue, index),
    }
    return entry if not write or _write(store, deck_id, pair, entry) else None


def retie(
    store: Store,
    entry: dict[str, Any],
    deck_key: str,
    deck_id: str,
    pair: Pair,
    fingerprint: str,
) -> None:
    """Keep ``entry`` (kept by :func:`keep_counts`) for the same card states under another
    name: the snapshot a compaction wrote them to (:meth:`Store.cards_fingerprint`), which
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
    """The big decks' counts (and queues) of a shelf over a store: looked up, kept when
    counted, and carried over the compaction that closing the store does (the card states
    are the same, the snapshot they are read from next time is another)."""

    def __init__(self, store: Store, shelf: DeckShelf) -> None:
        self.store = store
        self.shelf = shelf
        #: What was kept (or noted) this run, the card states it was counted from, and
        #: whether it is written yet.
        self._kept: dict[tuple[str, Pair], tuple[str, dict[str, Any], str, bool]] = {}

    def _key(self, deck_id: str) -> str | None:
        """The deck file's hash if the deck is big and its file is as listed."""
        return self.shelf.key_of(deck_id) if self.shelf.big(deck_id) else None

    def get(self, deck_id: str, pair: Pair, now: datetime) -> tuple[int, int] | None:
        """The deck's counts kept for ``pair`` if they hold at ``now``."""
        key = self._key(deck_id)
        return cached_counts(self.store, key, deck_id, pair, now) if key else None

    def queue(
        self, deck_id: str, pair: Pair, now: datetime
    ) -> tuple[DueQueue, list[CardKey]] | None:
        """The deck's due queue kept for ``pair`` if it holds at ``now``, and its cards in deck
        order."""
        key = self._key(deck_id)
        if not key:
            return None
        return cached_queue(self.store, key, deck_id, pair, now, self.shelf[deck_id].concepts)

    def keep(self, deck_id: str, pair: Pair, now: datetime, queue: DueQueue) -> None:
        """Keep a big deck's counts of ``queue`` (its due queue at ``now``)."""
        self._hold(deck_id, pair, now, queue, write=True)

    def note(self, deck_id: str, pair: Pair, now: datetime, queue: DueQueue) -> None:
        """Like :meth:`keep`, written only when the store closes with the same card states
        (a session's queue: nothing is written before its first card)."""
        self._hold(deck_id, pair, now, queue, write=False)

    def _hold(self, deck_id: str, pair: Pair, now: datetime, queue: DueQueue, write: bool) -> None:
        key = self._key(deck_id)
        if not key:
            return
        index = {concept.uid: i for i, concept in enumerate(self.shelf[deck_id].concepts)}
        entry = keep_counts(self.store, key, deck_id, pair, now, queue, index=index, write=write)
        if entry is not None:
            self._kept[(deck_id, pair)] = (key, entry, self.store.cards_fingerprint(), write)

    def close_store(self) -> None:
        """Close the store; what was kept from its final card states is tied to the snapshot
        the compaction wrote them to (else the next launch would count again)."""
        final = self.store.cards_fingerprint() if self._kept else None
        self.store.close()
        current = [(k, v) for k, v in self._kept.items() if v[2] == final]
        after = self.store.cards_fingerprint() if current else None
        for (deck_id, pair), (key, entry, _, written) in current:
            if after is not None and after != final:
                retie(self.store, entry, key, deck_id, pair, after)
            elif not written:
                _write(self.store, deck_id, pair, entry)
