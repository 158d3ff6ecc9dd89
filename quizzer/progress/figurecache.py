"""The day's figures cache ``P.figures``: a :class:`~quizzer.stats.digest.Digest` kept for a day.

What the statistics count per card (recall, due days, states, each card's totals
grouped by concept, language and pair) is most of their cost at scale. It changes
only with the card states, the review log, and the study day. This file keeps the
digest of the last ``quizzer stats`` (or stats screen) with what it was counted
from, its tie:

- a hash of the card states as the store holds them (so a reader that opened
  the store before another process answered never passes its older states off as
  the newer files');
- the review log's tie, as the statistics cache ``P.stats`` has it
  (:mod:`quizzer.progress.aggregates`): every month's seal and the journal's
  generation, length and CRC-32;
- its key: the study day, the time zone (by a stable name), the day start, the FSRS
  parameters and the decks asked for.

The file carries a CRC-32 of its body. A file damaged, deleted, from another day or
of other states is simply not used: the figures are counted again (from the card
states and ``P.stats``) and the file written anew. It only ever holds figures
counted from the store, so nothing is ever only here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.fsutil import atomic_write_bytes
from quizzer.progress.aggregates import journal_tie, month_seals, tally_for
from quizzer.progress.files import store_exists
from quizzer.progress.localtz import zone_key
from quizzer.progress.sealedfile import BAD_DOCUMENT, seal, unseal
from quizzer.scheduling.studyday import study_day
from quizzer.stats.digest import Digest, digest_of

if TYPE_CHECKING:
    from quizzer.progress.reading import ReadingStore

#: The first bytes of the file; the version of its layout follows.
MAGIC = b"quizzer-figures"
VERSION = 1


def figures_path(path: Path) -> Path:
    """The day's figures cache of the store at ``path``."""
    return path.with_name(path.name + ".figures")


def _key(
    store: ReadingStore, now: datetime, tz: tzinfo, deck_ids: Collection[str] | None
) -> dict[str, Any]:
    settings = store.settings
    hour = settings.day_start_hour
    return {
        "day": study_day(now, tz, hour).toordinal(),
        "zone": zone_key(tz),
        "hour": hour,
        "parameters": None if settings.parameters is None else list(settings.parameters),
        "decks": None if deck_ids is None else sorted(deck_ids),
    }


def _cards_hash(store: ReadingStore) -> str:
    """A hash of the card states the store holds (equal hashes: equal states)."""
    return store.state.raw.fingerprint()


def _log_tie(path: Path) -> dict[str, Any]:
    return {"months": month_seals(path), "journal": journal_tie(path)}


def encode(key: dict[str, Any], tie: dict[str, Any], digest: Digest) -> bytes:
    """The file's bytes (``sealedfile.seal``): the key, the tie and the digest."""
    return seal(MAGIC, VERSION, {"key": key, "tie": tie, "digest": digest.to_data()})


def read(path: Path, key: dict[str, Any], tie: dict[str, Any]) -> Digest | None:
    """The cached digest if the file is whole and counted for ``key`` from ``tie``."""
    try:
        raw = figures_path(path).read_bytes()
    except OSError:
        return None
    doc, _why = unseal(raw, MAGIC, VERSION)
    try:
        if doc is None or doc["key"] != key or doc["tie"] != tie:
            return None
        return Digest.from_data(doc["digest"])
    except BAD_DOCUMENT:
        return None


def digest_for(
    store: ReadingStore, now: datetime, tz: tzinfo, deck_ids: Collection[str] | None = None
) -> Digest:
    """The digest of ``store`` at ``now`` (study days in ``tz``), for ``deck_ids`` (``None``:
    every deck): from the cache when it is still the store's, else counted (then cached).

    :class:`~quizzer.stats.tally.TallyGap` when the log's tally can't tell the day's
    distinct cards (a ``now`` before its newest answers): nothing is cached then.
    """
    key = _key(store, now, tz, deck_ids)
    with store._mutex:  # the states hashed are the states counted
        tie = {"cards": _cards_hash(store), "log": _log_tie(store.path)}
        cached = read(store.path, key, tie)
        if cached is not None:
            return cached
        # The states themselves, not copies (``store.cards()``): counting only reads them.
        state = store.state
        states = [st for st in map(state.get, list(state.raw)) if st is not None]
    tally = tally_for(store, tz)
    settings = store.settings
    digest = digest_of(
        tally, states, now, tz, settings.day_start_hour, deck_ids, settings.parameters
    )
    # Only if the log stayed put while it was counted (a writer in another process).
    if store_exists(store.path) and _log_tie(store.path) == tie["log"]:
        with contextlib.suppress(OSError):  # a cache: counted again next time
            atomic_write_bytes(figures_path(store.path), encode(key, tie, digest))
    return digest
