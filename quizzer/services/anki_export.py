"""Read what the Anki export needs from the progress store: card states and review log
(``--with-progress``), the directions the learner studies and their scheduler settings."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path

from quizzer.cards.card import CardKey
from quizzer.errors import InputError, StoreError
from quizzer.fsutil import atomic_write_text, read_regular_file
from quizzer.paths import beside_store, default_db_path, machine_file
from quizzer.progress import open_store
from quizzer.progress.storepath import check_store_path, store_exists
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings


def read_store(
    db: str | os.PathLike[str] | None = None,
) -> tuple[dict[str, CardState], list[Review], tzinfo]:
    """``(states, reviews, tz)`` from the store at ``db`` (default: ``$QUIZZER_DB`` / user dir).

    Only studied cards are returned; ``tz`` is the learner's time zone for study
    days. The store is opened read-only, so a running quiz doesn't block an export.
    """
    path = check_store_path(default_db_path(db))
    if not store_exists(path):
        raise StoreError(
            "no progress store to export progress from",
            hint="study some cards first, or point --db at your progress store",
            path=path,
        )
    with open_store(path, read_only=True) as store:
        reviews = store.reviews()
        states = {card.card_id: card for card in store.cards() if not card.is_new}
        tz = store.tz
    return states, reviews, tz


@dataclass(frozen=True, slots=True)
class Learner:
    """What the export takes from the learner's store."""

    #: Study directions (pair codes such as ``"ru:term>en:term"``) of the cards answered
    #: at least once, most-studied first, with how many cards each has.
    directions: list[tuple[str, int]]
    #: Ids of every card answered at least once.
    card_ids: frozenset[str]
    #: Scheduler settings (for the options preset).
    settings: SchedulerSettings


def read_learner(db: str | os.PathLike[str] | None = None) -> Learner | None:
    """What the learner studies and how, from the store at ``db``; ``None`` when there is
    no store. Read-only, like :func:`read_store`."""
    path = check_store_path(default_db_path(db))
    if not store_exists(path):
        return None
    with open_store(path, read_only=True) as store:
        counts: Counter[str] = Counter()
        ids: set[str] = set()
        for card in store.cards():
            if card.is_new:
                continue
            ids.add(card.card_id)
            try:
                counts[CardKey.parse(card.card_id).pair.code] += 1
            except ValueError:
                continue
        settings = store.settings
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return Learner(ranked, frozenset(ids), settings)


#: Marks the record file as quizzer's (it is never overwritten without it).
_RECORD_KIND = "quizzer-anki-exports"


def exports_record_path(db: str | os.PathLike[str] | None = None) -> Path:
    """Where this machine's record of exported cards lives: its local state folder (see
    :func:`quizzer.paths.machine_file`), never beside a store that may be synced."""
    return machine_file(default_db_path(db), ".anki.json")


def _record_doc(db: str | os.PathLike[str] | None) -> dict[str, object] | None:
    """The record file's JSON (``{}`` when there is none yet; ``None``: not ours to trust).
    Until this machine has a record of its own, the one an earlier version kept beside the
    store is read (and the next export writes this machine's)."""
    try:
        doc = json.loads(_record_bytes(db))
    except FileNotFoundError:
        return {"kind": _RECORD_KIND, "decks": {}}
    except (OSError, ValueError, InputError, RecursionError):  # unreadable, not JSON, ...
        return None
    if not isinstance(doc, dict) or doc.get("kind") != _RECORD_KIND:
        return None
    if not isinstance(doc.get("decks"), dict):
        return None
    return doc


def _record_bytes(db: str | os.PathLike[str] | None) -> bytes:
    try:
        return read_regular_file(exports_record_path(db), 16 << 20, "export record")
    except FileNotFoundError:
        old = beside_store(default_db_path(db), ".anki.json")
        return read_regular_file(old, 16 << 20, "export record")


def read_exported(db: str | os.PathLike[str] | None = None) -> dict[str, set[str]] | None:
    """Deck id → names of every direction an earlier export gave cards for
    (``{}`` before the first export; ``None`` when the record isn't ours to trust)."""
    doc = _record_doc(db)
    if doc is None:
        return None
    decks = doc["decks"]
    assert isinstance(decks, dict)
    return {
        str(deck): {str(name) for name in names}
        for deck, names in decks.items()
        if isinstance(names, list)
    }


def last_export_time(db: str | os.PathLike[str] | None = None) -> float:
    """The time (epoch seconds) the last recorded export gave its notes; 0 if none."""
    doc = _record_doc(db)
    value = doc.get("last_timestamp") if doc else None
    return float(value) if isinstance(value, int | float) and value > 0 else 0.0


def record_exported(
    exported: dict[str, set[str]],
    db: str | os.PathLike[str] | None = None,
    *,
    timestamp: float = 0.0,
) -> bool:
    """Write the record (atomically), with ``timestamp``, the export's note time; ``False``
    when it can't be written or the file there isn't one of ours (it is left alone).

    It is written even before the store exists: a learner who exports for Anki before
    ever studying needs the record most (without it a later export empties the guard
    fields of the cards an earlier one gave, and Anki shows those cards blank).
    """
    path = exports_record_path(db)
    if read_exported(db) is None and path.exists():
        return False  # (an old record beside the store that isn't ours is simply not read)
    doc = {
        "kind": _RECORD_KIND,
        "decks": {deck: sorted(names) for deck, names in sorted(exported.items())},
        "last_timestamp": max(timestamp, last_export_time(db)),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    except OSError:
        return False
    return True
