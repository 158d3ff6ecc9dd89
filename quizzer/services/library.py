"""The deck library for the screens: listed from the deck summaries, each deck loaded once asked.

The home screen needs every deck's name, size and languages at once, but a deck's
concepts only for its counts and its sessions: a 50,000-concept deck takes seconds
to load, its summary (cached beside the parsed deck, see
:mod:`quizzer.library.summary`) microseconds. :class:`DeckShelf` holds the
summaries and loads a deck the first time it is asked for.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.concepts.deck import Deck

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
    from quizzer.library.decks import load_library

    return [item.deck for item in load_library()]


def listing_of(deck: Deck) -> DeckListing:
    """The listing of a loaded deck."""
    return DeckListing(deck.id, deck.name, len(deck), deck.languages)


class DeckShelf(Mapping[str, Deck]):
    """The library's decks by id, in library order, each read from its file when first
    asked for (safe to ask from a worker thread and the UI thread at once)."""

    def __init__(self, summaries: list[DeckSummary]) -> None:
        self._summaries = {s.id: s for s in summaries}
        self._loaded: dict[str, Deck] = {}
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    def __getitem__(self, deck_id: str) -> Deck:
        summary = self._summaries[deck_id]  # KeyError for an unknown deck
        with self._lock:  # one lock per deck: loading a big one never holds up the others
            lock = self._locks.setdefault(deck_id, threading.Lock())
        with lock:
            deck = self._loaded.get(deck_id)
            if deck is None:
                deck = _load(summary)
                self._loaded[deck_id] = deck
                # A loaded deck lives as long as the shelf: out of the collector's full
                # scans, which otherwise rescan its (big deck: millions of) tables while
                # the queue builds its concepts' texts (issue 12: x2 on a 50k deck).
                gc.freeze()
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

    def ready(self, deck_id: str) -> bool:
        """Whether the deck is loaded or small enough to load at once."""
        return deck_id in self._loaded or self._summaries[deck_id].concepts <= SMALL_DECK


def _load(summary: DeckSummary) -> Deck:
    """The deck of ``summary``: from its validated cached parse while the file is as it was
    listed (same stat), else read and validated from the file."""
    from quizzer.library.decks import lazy_deck_from_valid_tables, read_deck
    from quizzer.library.summary import unchanged_since, validated_tables

    tables = validated_tables(summary) if unchanged_since(summary) else None
    return lazy_deck_from_valid_tables(tables) if tables is not None else read_deck(summary.path)


def open_shelf(user_dir: Path | str | None = None) -> DeckShelf:
    """The shelf of the bundled and the user's decks (their summaries read, nothing loaded)."""
    from quizzer.library.summary import library_summaries

    return DeckShelf(library_summaries(user_dir))
