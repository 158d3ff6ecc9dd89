"""The day's figures cache ``P.figures``: a :class:`~quizzer.stats.digest.Digest` kept for a day,
and each card's :class:`~quizzer.stats.cardfacts.CardFact` kept until the card changes.

What the statistics count per card (recall, due days, states, the summaries) is most
of their cost at scale. It changes only with the card states, the review log, and
the study day. This file keeps the digest of the last ``quizzer stats`` (or stats
screen) with what it was counted from, its tie:

- the card states as the store holds them (:meth:`CardTable.fingerprint
  <quizzer.progress.cardtable.CardTable.fingerprint>`: the snapshot they were read
  from, named by the CRC-32 its card index holds, and a hash chained over every change
  since), so a reader that opened the store before another process answered never
  passes its older states off as the newer files';
- the review log's tie, as the statistics cache ``P.stats`` has it
  (:mod:`quizzer.progress.aggregates`): every month's seal and the journal's
  generation, length and CRC-32;
- its key: the study day, the time zone (by a stable name), the day start, the FSRS
  parameters and the decks asked for.

Beside the digest it keeps every card's fact (what the figures read of its state,
which no day changes), tied to the snapshot and the number of changes since, with
the chained hash there. When the digest can't be served (a new answer, an undo,
another day, decks or parameters), the facts are taken from the file if the store's
states are those states changed further (the same snapshot, the same first changes):
only the cards changed since are read again, and the digest is counted from the facts
and ``P.stats``, not from every card state. A compaction writes a new snapshot of the
same states: the writer ties the facts to it (:func:`after_compaction`).

The file carries a CRC-32 of its body. A file damaged, deleted, from another day or
of other states is simply not used: the figures are counted again (from the card
states and ``P.stats``) and the file written anew. It only ever holds figures
counted from the store, so nothing is ever only here.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

import quizzer.progress.cardindex as cardindex
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes
from quizzer.progress.aggregates import journal_tie, month_seals, tally_for
from quizzer.progress.cardtable import CardTable, LazyCards
from quizzer.progress.files import store_exists
from quizzer.progress.localtz import zone_key
from quizzer.progress.sealedfile import BAD_DOCUMENT, seal, unseal
from quizzer.scheduling.studyday import study_day
from quizzer.stats.cardfacts import CardFact, fact_of
from quizzer.stats.days import StudyDays
from quizzer.stats.digest import Digest, digest_from

if TYPE_CHECKING:
    from quizzer.progress.opening import OpenedStore
    from quizzer.progress.reading import ReadingStore

#: The first bytes of the file; the version of its layout follows.
MAGIC = b"quizzer-figures"
VERSION = 2


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


def _cards_print(store: OpenedStore) -> tuple[str, list[tuple[str, str]]]:
    """The card states the store holds: ``(origin, steps)`` (``CardTable.fingerprint``)."""
    return store.state.raw.fingerprint()


def _last(origin: str, steps: list[tuple[str, str]]) -> str:
    """The hash of the states ``origin`` and ``steps`` name (equal hashes: equal states)."""
    return steps[-1][1] if steps else origin


def _log_tie(path: Path) -> dict[str, Any]:
    return {"months": month_seals(path), "journal": journal_tie(path)}


def encode(
    key: dict[str, Any], tie: dict[str, Any], digest: Digest, facts: dict[str, Any] | None
) -> bytes:
    """The file's bytes (``sealedfile.seal``): the key, the tie, the digest and the facts."""
    body = {"key": key, "tie": tie, "digest": digest.to_data(), "facts": facts}
    return seal(MAGIC, VERSION, body)


def _document(path: Path) -> dict[str, Any] | None:
    try:
        raw = figures_path(path).read_bytes()
    except OSError:
        return None
    doc, _why = unseal(raw, MAGIC, VERSION)
    return doc if isinstance(doc, dict) else None


def read(path: Path, key: dict[str, Any], tie: dict[str, Any]) -> Digest | None:
    """The cached digest if the file is whole and counted for ``key`` from ``tie``."""
    return read_document(_document(path), key, tie)


def read_document(doc: Any, key: dict[str, Any], tie: dict[str, Any]) -> Digest | None:
    """The digest of a file's document if it was counted for ``key`` from ``tie``."""
    try:
        if doc is None or doc["key"] != key or doc["tie"] != tie:
            return None
        return Digest.from_data(doc["digest"])
    except BAD_DOCUMENT:
        return None


def facts_data(
    facts: dict[str, CardFact], days: list[Any], bases: list[list[Any]]
) -> dict[str, Any] | None:
    """The facts section: each card's fact (one line each), the study days' zone and day
    start ``days``, and the ``bases`` they are of: ``[origin, changes, hash]`` each, the
    states of that snapshot after that many changes (``None``: a card id can't be a line)."""
    if any("\t" in card_id or "\n" in card_id for card_id in facts):
        return None
    lines = "\n".join(f"{card_id}\t{fact.to_line()}" for card_id, fact in facts.items())
    return {"days": days, "bases": bases, "cards": lines}


def facts_from(section: Any) -> dict[str, CardFact]:
    """The facts a section holds (``ValueError`` and the like if it isn't one)."""
    lines = section["cards"]
    if not isinstance(lines, str):
        raise TypeError("the facts are not lines")
    out: dict[str, CardFact] = {}
    for line in lines.split("\n") if lines else ():
        card_id, _, rest = line.partition("\t")
        out[card_id] = CardFact.from_line(rest)
    return out


def _changed_since(
    section: Any, days: list[Any], origin: str, steps: list[tuple[str, str]]
) -> set[str] | None:
    """The cards changed since the states the facts are of, if the store's states are those
    changed further (``None``: they aren't, or the facts are of other study days)."""
    if not isinstance(section, dict) or section.get("days") != days:
        return None
    bases = section.get("bases")
    for base in bases if isinstance(bases, list) else ():
        if not isinstance(base, list) or len(base) != 3:
            continue
        at, count, last = base
        if at != origin or not isinstance(count, int) or not 0 <= count <= len(steps):
            continue
        if last == (steps[count - 1][1] if count else origin):
            return {card_id for card_id, _ in steps[count:]}
    return None


def _facts(
    store: OpenedStore,
    doc: dict[str, Any] | None,
    days: list[Any],
    tz: tzinfo,
    origin: str,
    steps: list[tuple[str, str]],
) -> dict[str, CardFact]:
    """Every card's fact: the file's, with the cards changed since read again, else all
    counted from the card states (called with the store's mutex held)."""
    state = store.state
    study_days = StudyDays(tz, store.state.settings.day_start_hour)
    changed = None if doc is None else _changed_since(doc.get("facts"), days, origin, steps)
    if changed is not None:
        try:
            facts = facts_from(doc["facts"])  # type: ignore[index]
        except BAD_DOCUMENT:
            changed = None
    if changed is None:
        # The states themselves, not copies (``store.cards()``): counting only reads them.
        states = [st for st in map(state.get, list(state.raw)) if st is not None]
        return {st.card_id: fact_of(st, study_days) for st in states}
    for card_id in changed:
        card = state.get(card_id)
        if card is None:
            facts.pop(card_id, None)
        else:
            facts[card_id] = fact_of(card, study_days)
    return facts


def digest_for(
    store: ReadingStore, now: datetime, tz: tzinfo, deck_ids: Collection[str] | None = None
) -> Digest:
    """The digest of ``store`` at ``now`` (study days in ``tz``), for ``deck_ids`` (``None``:
    every deck): from the cache when it is still the store's, else counted (then cached):
    from the cached facts and the cards changed since when they are the store's states.

    :class:`~quizzer.stats.tally.TallyGap` when the log's tally can't tell the day's
    distinct cards (a ``now`` before its newest answers): nothing is cached then.
    """
    key = _key(store, now, tz, deck_ids)
    days = [key["zone"], key["hour"]]
    with store._mutex:  # the states named are the states counted
        origin, steps = _cards_print(store)
        tie = {"cards": _last(origin, steps), "log": _log_tie(store.path)}
        doc = _document(store.path)
        cached = read_document(doc, key, tie)
        if cached is not None:
            return cached
        facts = _facts(store, doc, days, tz, origin, steps)
    tally = tally_for(store, tz)
    settings = store.settings
    digest = digest_from(
        tally, facts, study_day(now, tz, settings.day_start_hour), deck_ids, settings.parameters
    )
    # Only if the log stayed put while it was counted (a writer in another process).
    if store_exists(store.path) and _log_tie(store.path) == tie["log"]:
        section = facts_data(facts, days, [[origin, len(steps), tie["cards"]]])
        with contextlib.suppress(OSError):  # a cache: counted again next time
            atomic_write_bytes(figures_path(store.path), encode(key, tie, digest, section))
    return digest


def after_compaction(store: OpenedStore) -> None:
    """A compaction wrote the writer's card states as a new snapshot: tie the cached facts
    (brought up to those states) to it as well, so that the next reader, which reads that
    snapshot, counts none of them again. Nothing is written if the facts are not of the
    writer's states or study days, or the new snapshot has no card index to name it by."""
    doc = _document(store.path)
    section = None if doc is None else doc.get("facts")
    days = [zone_key(store.tz), store.state.settings.day_start_hour]
    origin, steps = _cards_print(store)
    if doc is None or _changed_since(section, days, origin, steps) is None:
        return
    try:
        raw = store.path.read_bytes()
        spans = cardindex.load(store.path, raw, os.stat(store.path))
    except OSError:
        return
    if spans is None:
        return
    snapshot, _ = CardTable(lazy=LazyCards(raw, spans, store.path)).fingerprint()
    try:
        with store._mutex:
            facts = _facts(store, doc, days, store.tz, origin, steps)
    except (StoreError, *BAD_DOCUMENT):  # a damaged card state: the next reader says so
        return
    last = _last(origin, steps)
    doc["facts"] = facts_data(facts, days, [[snapshot, 0, snapshot], [origin, len(steps), last]])
    with contextlib.suppress(OSError):
        atomic_write_bytes(figures_path(store.path), seal(MAGIC, VERSION, doc))
