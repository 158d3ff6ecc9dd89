"""Deck summaries: what a deck list shows (id, name, counts, languages) without its concepts.

`quizzer decks` and the home screen list every deck; for a 50,000-concept deck
reading the concepts takes seconds, while its summary is a few hundred bytes in
the deck cache (:mod:`quizzer.library.cache`). A summary is cached only after its
deck file loaded and validated, under the hash of the file's bytes: an edited file
is a miss, and a miss loads the deck (and so reports its mistakes) as before.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import language_name, native_name, remember_names
from quizzer.errors import InputError
from quizzer.library import cache as deckcache
from quizzer.library.decks import (
    clashes,
    deck_bytes,
    deck_files,
    deck_from_bytes,
    warn_skipped,
)
from quizzer.paths import bundled_decks_dir, user_decks_dir


@dataclass(frozen=True, slots=True)
class DeckSummary:
    """A deck's id, name and counts, the file it is in and whether it ships with quizzer."""

    id: str
    name: str
    concepts: int
    languages: tuple[str, ...]
    #: Languages every concept has.
    complete_languages: tuple[str, ...]
    #: How many texts are seed, authored and corrected.
    sources: dict[str, int]
    path: Path
    bundled: bool
    #: Each language's name in English and in itself, kept with the summary so the deck
    #: list and the pickers name languages without loading the tag tables.
    names: dict[str, tuple[str, str]] = field(default_factory=dict, compare=False)
    #: The :func:`~quizzer.library.cache.digest` of the file's bytes when the summary was
    #: read ("" if unknown): the key of its cached, validated tables.
    key: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The cached form (without the path and the bundled flag, which the caller knows)."""
        return {
            "id": self.id,
            "name": self.name,
            "concepts": self.concepts,
            "languages": list(self.languages),
            "complete_languages": list(self.complete_languages),
            "sources": dict(self.sources),
            "names": {tag: list(pair) for tag, pair in self.names.items()},
        }


def summarise(deck: Deck, path: Path, bundled: bool) -> DeckSummary:
    """The summary of a loaded deck."""
    complete = tuple(lang for lang in deck.languages if all(lang in c.entries for c in deck))
    return DeckSummary(
        id=deck.id,
        name=deck.name,
        concepts=len(deck),
        languages=deck.languages,
        complete_languages=complete,
        sources=deck.source_counts(),
        path=path,
        bundled=bundled,
        names={lang: (language_name(lang), native_name(lang)) for lang in deck.languages},
    )


def _from_cache(data: dict[str, Any], path: Path, bundled: bool) -> DeckSummary | None:
    try:
        summary = DeckSummary(
            id=str(data["id"]),
            name=str(data["name"]),
            concepts=int(data["concepts"]),
            languages=tuple(str(x) for x in data["languages"]),
            complete_languages=tuple(str(x) for x in data["complete_languages"]),
            sources={str(k): int(v) for k, v in dict(data["sources"]).items()},
            path=path,
            bundled=bundled,
            names={
                str(tag): (str(english), str(native))
                for tag, (english, native) in dict(data["names"]).items()
            },
        )
    except (KeyError, TypeError, ValueError):
        return None  # a damaged entry, or one from before names: rebuilt from the deck file
    remember_names(summary.names)
    return summary


def _cached_summary(key: str, path: Path, bundled: bool) -> DeckSummary | None:
    cached = deckcache.get_summary(key)
    found = _from_cache(cached, path, bundled) if cached is not None else None
    return replace(found, key=key) if found is not None else None


def read_summary(path: Path, bundled: bool = False) -> DeckSummary:
    """The summary of one deck file: from the cache, else by loading (and validating) it.

    While the file's ``stat`` is the one recorded when its bytes were last hashed, the
    hash is known and the file is not even read (:func:`~quizzer.library.cache.known_digest`).
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except OSError:
        info = None  # deck_bytes says what is wrong
    if info is not None and stat.S_ISREG(info.st_mode):
        known = deckcache.known_digest(path, info)
        found = _cached_summary(known, path, bundled) if known else None
        if found is not None:
            return found
    raw = deck_bytes(path)
    key = deckcache.digest(raw)
    found = _cached_summary(key, path, bundled)
    if found is None:
        found = replace(summarise(deck_from_bytes(raw, path, key=key), path, bundled), key=key)
        deckcache.put_summary(key, found.to_dict())
    if info is not None and stat.S_ISREG(info.st_mode):
        deckcache.remember_digest(path, info, key)
    return found


def unchanged_since(summary: DeckSummary) -> bool:
    """Whether the deck file still has the bytes ``summary`` was read from (by its stat,
    as :func:`read_summary` knows them; ``False`` when that can't be told)."""
    try:
        info = os.stat(summary.path)
    except OSError:
        return False
    return bool(summary.key) and deckcache.known_digest(summary.path, info) == summary.key


def validated_tables(summary: DeckSummary, *, lazy: bool = False) -> dict[str, Any] | None:
    """The cached parse of the deck file ``summary`` was read from, or ``None``.

    A summary is cached only once its file validated, under the same hash as the
    file's parsed tables: those tables are a valid deck and can be shown as they are,
    without building (and validating again) every concept. ``lazy``: a big deck's
    concepts' fields are left as their JSON text (:func:`~quizzer.library.cache.get_lazily`),
    for :func:`~quizzer.library.decks.lazy_deck_from_valid_tables`.
    """
    if not summary.key:
        return None
    tables = deckcache.get_lazily(summary.key) if lazy else deckcache.get(b"", key=summary.key)
    if (
        tables is None
        or tables.get("id") != summary.id
        or not isinstance(tables.get("concepts"), list)
        or len(tables["concepts"]) != summary.concepts
    ):
        return None
    return tables


def remember_summary(deck: Deck, raw: bytes, path: Path, *, key: str | None = None) -> None:
    """Cache the summary of ``deck``, just written as ``raw`` (the importer knows it valid);
    ``key`` is the :func:`~quizzer.library.cache.digest` of ``raw`` when known."""
    deckcache.put_summary(key or deckcache.digest(raw), summarise(deck, path, False).to_dict())


def library_summaries(user_dir: Path | str | None = None) -> list[DeckSummary]:
    """The summaries of the bundled decks, then the user decks, as :func:`load_library`
    orders and checks them (an unreadable file is skipped with a warning)."""
    found: list[DeckSummary] = []
    ids: dict[str, Path] = {}
    dirs = [(bundled_decks_dir(), True), (user_decks_dir(user_dir), False)]
    for directory, bundled in dirs:
        for path in deck_files(directory):
            try:
                summary = read_summary(path, bundled)
            except InputError as exc:
                warn_skipped(exc)
                continue
            if clashes(ids, summary.id, path):
                continue
            found.append(summary)
    return found
