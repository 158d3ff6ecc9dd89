"""The deck an import merges into: found in the deck folder, built from its validated cached
parse, told unchanged without rendering it again, and otherwise checked against the file.

Re-importing an unchanged 50,000-entry glossary used to load the deck through the
validating loader (every field of every text checked again, ~1 s), align, render the
result (~0.6 s) and compare it with the file. Here:

* A deck file whose summary is cached was validated when that summary was written
  (:func:`quizzer.library.summary.validated_tables`): its cached parse is built as it is,
  the way a study session builds it (:func:`~quizzer.library.decks.deck_from_valid_tables`).
* When the cache records that the file's bytes are exactly what the deck writer renders
  from that parse (:func:`quizzer.library.cache.put_rendered`: the importer wrote them so,
  or rendered and compared them once), an import whose result *equals* the existing deck,
  value for value, renders to those very bytes: :func:`unchanged` says so without
  rendering. Anything else is merged into the deck the file's bytes give through the
  validating loader (:func:`checked`; aligned again if it differs from the trusted one),
  rendered and compared, as before: no report or file comes from the cache's word alone
  unless nothing changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from quizzer.concepts import deckwriter
from quizzer.concepts.deck import Deck
from quizzer.errors import InputError
from quizzer.library import cache as deckcache
from quizzer.library.decks import (
    DECK_SUFFIX,
    deck_bytes,
    deck_files,
    deck_from_bytes,
    deck_from_valid_tables,
    warn_skipped,
)
from quizzer.library.summary import DeckSummary, read_summary, validated_tables


@dataclass(frozen=True, slots=True)
class Existing:
    """The deck file an import merges into, and what is known of it."""

    deck: Deck
    path: Path
    #: The :func:`~quizzer.library.cache.digest` of the file's bytes the deck was built from.
    key: str
    #: Built from a cached parse its summary vouches for, without checking it again.
    trusted: bool
    #: The cache records the file's bytes as exactly the deck writer's rendering of ``deck``.
    rendered: bool


def find_target(deck_id: str, into: Path) -> tuple[Path, Existing | None]:
    """The user deck file for ``deck_id`` and its deck: an existing file holding it, else
    a new ``<id>.toml`` (and ``None``). Other decks' files are found by their summaries."""
    files = deck_files(into)
    for path in files:
        if path.stem == deck_id:
            found = read_summary(path)
            if found.id != deck_id:
                raise InputError(
                    f"this file holds deck {found.id!r}, not {deck_id!r}",
                    hint=f"import with --deck {found.id} to merge into it, or choose another name",
                    path=path,
                )
            return path, load(path, found)
    for path in files:
        try:
            other = read_summary(path)
        except InputError as exc:  # another deck's broken file is no reason to stop here
            warn_skipped(exc)
            continue
        if other.id == deck_id:
            return path, load(path, other)
    return into / f"{deck_id}{DECK_SUFFIX}", None


def load(path: Path, summary: DeckSummary | None = None) -> Existing:
    """The deck in ``path`` (whose summary is ``summary`` when already read): from its
    validated cached parse when there is one, else read and validated from the file (which
    caches its parse and summary for the next time)."""
    if summary is None:
        summary = read_summary(path)  # a broken file: the loader's InputError (file and line)
    if not os.access(path, os.R_OK):
        deck_bytes(path)  # a summary known by the file's stat, but the file can't be read now
    tables = validated_tables(summary)
    if tables is not None:
        try:
            deck = deck_from_valid_tables(tables)
        except (KeyError, TypeError, ValueError, AttributeError):
            deck = None  # a damaged entry after all: the file decides
        del tables
        if deck is not None:
            rendered = deckcache.is_rendered(summary.key, deck.id, len(deck))
            return Existing(deck, path, summary.key, trusted=True, rendered=rendered)
    return checked(path)


def checked(path: Path, raw: bytes | None = None, key: str | None = None) -> Existing:
    """The deck in ``path`` read through the validating loader (from its bytes ``raw``, whose
    digest is ``key``, when the caller has read them)."""
    if raw is None:
        raw = deck_bytes(path)
    key = key or deckcache.digest(raw)
    deck = deck_from_bytes(raw, path, key=key)
    rendered = deckcache.is_rendered(key, deck.id, len(deck))
    return Existing(deck, path, key, trusted=False, rendered=rendered)


def unchanged(existing: Existing, result: Deck) -> bool:
    """Whether ``result`` provably renders to the existing file's bytes: the cache records
    them as the rendering of ``existing.deck``, and ``result`` equals it in every field
    the rendering reads (the loader's types: an int line, str texts, so equal values are
    equal text)."""
    return existing.rendered and result == existing.deck


def remember_rendered(key: str, deck: Deck) -> None:
    """Record that the deck file whose bytes' digest is ``key`` is ``deck`` rendered (the
    tables cached under ``key`` are ``deck``'s)."""
    deckcache.put_rendered(key, deck.id, len(deck))


Report = TypeVar("Report")


@dataclass(frozen=True, slots=True)
class Merged(Generic[Report]):
    """What merging an import into its deck gave: the deck, the report, and the deck file's
    new text (``None`` when it is unchanged)."""

    deck: Deck
    report: Report
    text: str | None
    changed: bool  # the deck file's bytes differ from before (or it is new)
    created: bool  # there was no deck file


def merge(
    existing: Existing | None, align_into: Callable[[Deck | None], tuple[Deck, Report]]
) -> Merged[Report]:
    """Align into ``existing`` (``align_into(deck)`` aligns the import's files into that
    deck, or into none) and tell whether the deck file changes.

    Unless the result provably renders to the file's bytes (:func:`unchanged`), the deck
    merged into is the file's, read and checked now, not only the cache's word for it: the
    report and any file written come from a checked deck (a damaged or planted cache entry
    is never written out).
    """
    if existing is None:
        deck, report = align_into(None)
        return Merged(deck, report, deckwriter.dumps(deck), changed=True, created=True)
    existing, (deck, report) = _aligned(existing, align_into)
    if unchanged(existing, deck):
        return Merged(deck, report, None, changed=False, created=False)
    raw = deck_bytes(existing.path)
    key = deckcache.digest(raw)
    if existing.trusted or key != existing.key:  # (or the file changed since it was read)
        verified = checked(existing.path, raw, key)
        if verified.deck != existing.deck:
            deck, report = align_into(verified.deck)
        existing = verified
    before = raw.decode("utf-8-sig")  # it loaded: UTF-8
    del raw
    text = deckwriter.dumps(deck)
    changed = text != before
    del before
    if not changed and not existing.rendered and deck == existing.deck:
        remember_rendered(existing.key, deck)  # the next re-import needn't render it
    return Merged(deck, report, text if changed else None, changed=changed, created=False)


def _aligned(
    existing: Existing, align_into: Callable[[Deck | None], tuple[Deck, Report]]
) -> tuple[Existing, tuple[Deck, Report]]:
    """``align_into(existing.deck)``; a trusted deck that trips the aligner up (a cached
    parse holding what the loader never lets through) is read from the file instead."""
    if not existing.trusted:
        return existing, align_into(existing.deck)
    try:
        return existing, align_into(existing.deck)
    except InputError:
        raise
    except Exception:  # any other failure is the cache entry's, never the file's
        verified = checked(existing.path)
        return verified, align_into(verified.deck)
