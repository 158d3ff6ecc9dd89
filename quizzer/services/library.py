"""The deck library for the screens: listed from the deck summaries, each deck loaded once asked.

The home screen needs every deck's name, size and languages at once, but a deck's
concepts only for its counts and its sessions: a 50,000-concept deck takes seconds
to load, its summary (cached beside the parsed deck, see
:mod:`quizzer.library.summary`) microseconds. :class:`DeckShelf` holds the
summaries and loads a deck the first time it is asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.deck import Deck
from quizzer.library import cache as deckcache
from quizzer.library.decks import lazy_deck_from_valid_tables, load_library, read_deck
from quizzer.library.overrides import overridden
from quizzer.library.summary import library_summaries, unchanged_since, validated_tables
from quizzer.paths import user_decks_dir

if TYPE_CHECKING:
    from quizzer.library.summary import DeckSummary

#: Decks up to this many concepts are counted at once on the home screen; bigger ones
#: are counted off the UI thread after the first paint.
SMALL_DECK = 2_000


@dataclass(frozen=True, slots=True)
class DeckListing:
    """What a deck list shows of a deck before loading it."""

    id: str
    name: str
    concepts: int
    languages: tuple[str, ...]


def library_decks() -> list[Deck]:
    """Every deck of the library (bundled and user decks), in library order."""
    return [item.deck for item in load_library()]


def listing_of(deck: Deck) -> DeckListing:
    """The listing of a loaded deck."""
    return DeckListing(deck.id, deck.name, len(deck), deck.languages)


class DeckShelf(Mapping[str, Deck]):
    """The library's decks by id, in library order, each read from its file when first
    asked for (safe to ask from a worker thread and the UI thread at once)."""

    def __init__(self, summaries: list[DeckSummary], decks_dir: Path | None = None) -> None:
        self._summaries = {s.id: s for s in summaries}
        #: The user decks folder, where the edits of bundled decks' texts are kept.
        self.decks_dir = decks_dir
        self._loaded: dict[str, Deck] = {}
        #: The cache key of each deck loaded from its validated cached parse.
        self._keys: dict[str, str] = {}
        #: The cards of a deck per direction, as :meth:`cards` found them.
        self._cards: dict[tuple[str, Pair], list[CardKey]] = {}
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    def __getitem__(self, deck_id: str) -> Deck:
        summary = self._summaries[deck_id]  # KeyError for an unknown deck
        with self._lock:  # one lock per deck: loading a big one never holds up the others
            lock = self._locks.setdefault(deck_id, threading.Lock())
        with lock:
            deck = self._loaded.get(deck_id)
            if deck is None:
                deck, cached = _load(summary)
                if summary.bundled and self.decks_dir is not None:
                    deck = overridden(deck, self.decks_dir)
                if cached:
                    self._keys[deck_id] = summary.key
                self._loaded[deck_id] = deck
            return deck

    def __contains__(self, deck_id: object) -> bool:
        # Mapping's own __contains__ would load the deck to answer.
        return deck_id in self._summaries

    def __iter__(self) -> Iterator[str]:
        return iter(self._summaries)

    def __len__(self) -> int:
        return len(self._summaries)

    def listings(self) -> list[DeckListing]:
        """Every deck's listing, from the summaries: nothing is loaded."""
        return [
            DeckListing(s.id, s.name, s.concepts, s.languages) for s in self._summaries.values()
        ]

    def cards(self, deck_id: str, pair: Pair) -> list[CardKey]:
        """The deck's cards in direction ``pair``, in deck order: the concepts with both texts,
        and they differ (:func:`~quizzer.cards.card.has_card`). Kept in the deck cache
        beside its parse: comparing the texts of a 50,000-concept deck takes a second."""
        deck = self[deck_id]
        known = self._cards.get((deck_id, pair))
        if known is not None:
            return known
        key = self._keys.get(deck_id)
        entry = (deckcache.get_cards(key) if key else None) or {}
        concepts = deck.concepts
        found: list[int] | None = entry.get(pair.code)
        if found is None or not _indexes(found, len(concepts)):
            found = [i for i, concept in enumerate(concepts) if has_card(concept, pair)]
            if key:
                deckcache.put_cards(key, {**entry, pair.code: found})
        cards = [CardKey(concepts[i].uid, pair) for i in found]
        self._cards[(deck_id, pair)] = cards
        return cards

    def has_cards(self, deck_id: str, pair: Pair, keys: Iterable[CardKey]) -> bool:
        """Whether each of ``keys`` (cards :meth:`cards` gave, e.g. those queued) really is
        one: a cache entry that lists a concept without the card is caught here."""
        deck = self[deck_id]
        wanted = {key.concept_uid for key in keys}
        found = [c for c in deck.concepts if c.uid in wanted] if wanted else []
        return len(found) == len(wanted) and all(has_card(c, pair) for c in found)

    def summary(self, deck_id: str) -> DeckSummary:
        """The summary of ``deck_id`` (``KeyError`` if unknown): its file, whether bundled."""
        return self._summaries[deck_id]

    def reload(self, deck_id: str) -> None:
        """Read ``deck_id`` again when next asked (its file or its edits changed)."""
        with self._lock:
            self._loaded.pop(deck_id, None)
        self.forget_cards(deck_id)

    def forget_cards(self, deck_id: str) -> None:
        """Compute the deck's cards again (a cached list gave a concept without the card)."""
        key = self._keys.pop(deck_id, None)
        for known in [k for k in self._cards if k[0] == deck_id]:
            del self._cards[known]
        if key:
            deckcache.put_cards(key, {})

    def big(self, deck_id: str) -> bool:
        """Whether the deck has more than :data:`SMALL_DECK` concepts (by its listing)."""
        return self._summaries[deck_id].concepts > SMALL_DECK

    def key_of(self, deck_id: str) -> str | None:
        """The hash of the deck file's bytes as listed, while the file still has them (by its
        stat, as the listing knew them); ``None`` when that can't be told."""
        summary = self._summaries[deck_id]
        return summary.key if summary.key and unchanged_since(summary) else None

    def ready(self, deck_id: str) -> bool:
        """Whether the deck is loaded or small enough to load at once."""
        return deck_id in self._loaded or self._summaries[deck_id].concepts <= SMALL_DECK


def _indexes(found: object, size: int) -> bool:
    """Whether ``found`` is a cached list of concept indexes of a deck of ``size``."""
    if not isinstance(found, list):
        return False
    last = -1
    for i in found:
        if type(i) is not int or not last < i < size:
            return False
        last = i
    return True


def _load(summary: DeckSummary) -> tuple[Deck, bool]:
    """The deck of ``summary``: from its validated cached parse while the file is as it was
    listed (same stat), else read and validated from the file; and whether it came from
    the cache."""
    tables = validated_tables(summary, lazy=True) if unchanged_since(summary) else None
    if tables is not None:
        return lazy_deck_from_valid_tables(tables), True
    return read_deck(summary.path), False


def open_shelf(user_dir: Path | str | None = None) -> DeckShelf:
    """The shelf of the bundled and the user's decks (their summaries read, nothing loaded)."""
    return DeckShelf(library_summaries(user_dir), user_decks_dir(user_dir))
