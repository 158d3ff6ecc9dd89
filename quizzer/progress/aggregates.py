"""The statistics cache ``P.stats``: the review log summed (a :class:`~quizzer.stats.tally.Tally`).

The review log is the truth; this file only saves reading all of it for every
``quizzer stats``. It holds the tally of the whole log as it was when the file was
written and *what* it was written from, its tie:

- the seal checksum of every month file (the CRC-32 each file carries of its own
  bytes, read from its last bytes), so a month rewritten, restored, deleted or
  added since is seen;
- the journal's generation, the byte its last counted line ends at, and the CRC-32
  of the journal up to there;
- the time zone and day start its study days were counted in.

The answers of the journal past that byte are folded in when the file is read
(:func:`current`), with the answers an undo there may take back (those on the undo
stack and the journal's own). The file carries a CRC-32 of its body. Anything that
doesn't match — a file damaged, stale, from another store, for another zone or day
start — is simply not used: the figures are counted from the log again
(:func:`from_log`) and the file written anew (:func:`save`). Nothing is ever only
here. A writer keeps its tally up to date as it records (:class:`Live`) and writes the
file at each compaction, so the cost of an answer doesn't change.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

import quizzer.progress.journal as journal
import quizzer.progress.jsontext as jsontext
import quizzer.progress.reviewlog as reviewlog
from quizzer.fsutil import atomic_write_bytes
from quizzer.progress.files import journal_path, months, stats_path
from quizzer.progress.history import read_log
from quizzer.progress.journal_events import has_review, is_undo, plain
from quizzer.progress.localtz import zone_key
from quizzer.progress.manifest import Manifest
from quizzer.progress.sealedfile import BAD_DOCUMENT, seal, unseal
from quizzer.progress.values import reason_of
from quizzer.scheduling.review import Review
from quizzer.stats.tally import Tally, add_one, tally_of

if TYPE_CHECKING:
    from quizzer.progress.opening import OpenedStore

#: The first bytes of the file; the version of its layout follows.
MAGIC = b"quizzer-stats"
VERSION = 1
#: How far from its end a month file's seal starts (its month, count, generation and CRC).
_SEAL_TAIL = 256
_SEAL = b',"seal":'
#: What a tally that can't be read raises (the file was checked; this is a planted one).
_BAD = BAD_DOCUMENT


@dataclass(frozen=True, slots=True)
class Key:
    """What a tally's study days depend on: the time zone (by a stable name) and day start."""

    zone: str
    day_start_hour: int


@dataclass(slots=True)
class Live:
    """A writer's tally, kept up to date as it records (see :mod:`quizzer.progress.writing`)."""

    tally: Tally
    key: Key
    tz: tzinfo
    #: Reviews on the undo stack when it was read (an undo may take one back).
    undoable: dict[str, dict[str, Any]]

    def count(self, reviews: Iterable[Review], sign: int = 1) -> None:
        """Count answers in (``sign`` 1) or out (-1: undone)."""
        for review in reviews:
            add_one(self.tally, review, self.tz, self.key.day_start_hour, sign)


def _seal_crc(file: Path) -> str | None:
    """The CRC a month file's seal names (``None``: no file, or no seal at its end)."""
    try:
        with open(file, "rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - _SEAL_TAIL))
            tail = fh.read()
    except OSError:
        return None
    cut = tail.rfind(_SEAL)
    if cut < 0:
        return None
    try:
        crc = jsontext.loads(tail[cut + len(_SEAL) : -1])["1"]["crc"]
    except (*_BAD, UnicodeDecodeError):
        return None
    return crc if isinstance(crc, str) else None


def month_seals(path: Path) -> dict[str, str | None]:
    """Each month's seal CRC (the file's, else its mirror's): what the log's months hold."""
    seals: dict[str, str | None] = {}
    for month in months(path):
        file = reviewlog.month_path(path, month)
        seals[month] = _seal_crc(file) or _seal_crc(reviewlog.mirror_path(file))
    return seals


def journal_tie(path: Path, end: int | None = None) -> dict[str, Any]:
    """The journal's generation, its length (or ``end``) and the CRC-32 of that much of it."""
    jpath = journal_path(path)
    try:
        raw = jpath.read_bytes()
    except FileNotFoundError:
        raw = b""
    end = len(raw) if end is None else end
    return {"gen": journal.generation(jpath), "end": end, "crc": zlib.crc32(raw[:end])}


def encode(tally: Tally, tie: dict[str, Any], undoable: dict[str, dict[str, Any]]) -> bytes:
    """The file's bytes (``sealedfile.seal``): the tie, the undoable answers and the tally."""
    return seal(MAGIC, VERSION, {"tie": tie, "undoable": undoable, "tally": tally.to_data()})


def read(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The cache's contents checked on their own, or ``None`` and why it can't be used."""
    try:
        raw = stats_path(path).read_bytes()
    except FileNotFoundError:
        return None, "missing"
    except OSError as exc:
        return None, f"can't be read ({exc.strerror})"
    doc, why = unseal(raw, MAGIC, VERSION)
    if doc is None:
        return None, "not a statistics cache of this version" if why == "wrong kind" else why
    try:
        doc["tally"] = Tally.from_data(doc["tally"])
        if not isinstance(doc["tie"], dict) or not isinstance(doc["undoable"], dict):
            raise ValueError('"tie" or "undoable" is not a table')
    except (*_BAD, UnicodeDecodeError) as exc:
        return None, f"damaged ({reason_of(exc)})"
    return doc, "ok"


def current(path: Path, key: Key, tz: tzinfo) -> tuple[Live | None, str]:
    """The cache brought up to date with the journal, if it is still the log's tally.

    Returns the live tally (``None`` when the cache can't be used) and what was found:
    ``"ok"``, or why the figures must be counted from the log again.
    """
    doc, why = read(path)
    if doc is None:
        return None, why
    tie = doc["tie"]
    if tie.get("key") != [key.zone, key.day_start_hour]:
        return None, "counted for another time zone or day start"
    if tie.get("months") != month_seals(path):
        return None, "out of date (the review log's months changed)"
    jtie = tie.get("journal")
    end = jtie.get("end") if isinstance(jtie, dict) else None
    if not isinstance(end, int) or end < 0 or journal_tie(path, end) != jtie:
        return None, "out of date (the journal changed)"
    live = Live(doc["tally"], key, tz, doc["undoable"])
    added: dict[str, dict[str, Any]] = {}
    try:
        for _, event in journal.scan(journal_path(path), end):
            if has_review(event):
                review = plain(event["review"])
                added[review["id"]] = review
                live.count([Review.from_dict(review)])
            elif is_undo(event):
                gone = added.pop(event["review_id"], None) or live.undoable.get(event["review_id"])
                if gone is None:
                    return None, "out of date (an undo of an answer it doesn't know)"
                live.count([Review.from_dict(gone)], -1)
    except (journal.JournalDamage, *_BAD) as exc:
        return None, f"out of date (the journal can't be read: {reason_of(exc)})"
    live.undoable.update(added)
    return live, "ok"


def from_log(
    path: Path, gen: int, manifest: Manifest | None, key: Key, tz: tzinfo, undo: list[Any]
) -> tuple[Live, dict[str, Any] | None]:
    """The tally counted from the whole log (:func:`read_log`: it raises on damage).

    Also returns the tie to save it with, ``None`` when the log changed while it was
    read (another process writing: the tally is right, but not provably of these files).
    """
    before = (month_seals(path), journal_tie(path))
    reviews = read_log(path, gen, manifest)
    after = (month_seals(path), journal_tie(path))
    undoable = {e["review_id"]: e["review"] for e in undo if "review" in e}
    journal_reviews = (
        plain(event["review"])
        for _, event in journal.scan(journal_path(path), 0)
        if has_review(event)
    )
    with contextlib.suppress(journal.JournalDamage):  # read_log read it: it didn't change
        undoable.update((r["id"], r) for r in journal_reviews if r["id"] in reviews)
    live = Live(tally_of(reviews.values(), tz, key.day_start_hour), key, tz, undoable)
    if before != after:
        return live, None
    return live, _tie(key, *after)


def _tie(key: Key, months: dict[str, str | None], jtie: dict[str, Any]) -> dict[str, Any]:
    return {"key": [key.zone, key.day_start_hour], "months": months, "journal": jtie}


def save(path: Path, live: Live, tie: dict[str, Any] | None = None) -> bool:
    """Write the cache of ``live`` (tied to the files as they are now, unless ``tie``).

    A cache: a failure to write it is no error (the figures are counted again next
    time). Returns whether it was written.
    """
    if tie is None:
        tie = _tie(live.key, month_seals(path), journal_tie(path))
    try:
        atomic_write_bytes(stats_path(path), encode(live.tally, tie, live.undoable))
    except OSError:
        return False
    return True


def key_of(store: OpenedStore, tz: tzinfo | None = None) -> Key:
    """The key of ``store``'s study days: its zone (or ``tz``) and its day start."""
    return Key(zone_key(tz or store.tz), store.state.settings.day_start_hour)


def tally_for(store: OpenedStore, tz: tzinfo | None = None) -> Tally:
    """The tally of ``store``'s whole log, study days in ``tz`` (default: the store's zone).

    From the writer's live tally, else the cache brought up to date, else the log itself
    (then cached). A writer keeps what it got up to date as it records; the tally
    returned is that live one, to be read before the next answer.
    """
    zone = tz or store.tz
    key = key_of(store, zone)
    with store._mutex:
        live: Live | None = store._live_tally
        if live is None or live.key != key:
            live, _ = current(store.path, key, zone)
        if live is None:
            state = store.state
            live, tie = from_log(store.path, state.gen, state.months, key, zone, state.undo)
            if tie is not None:
                save(store.path, live, tie)
        if not store.read_only and zone is store.tz:
            store._live_tally = live
        return live.tally


def before_compaction(store: OpenedStore) -> None:
    """A compaction is about to rewrite the files the cache is tied to: bring it in memory."""
    if store._live_tally is None:
        store._live_tally, _ = current(store.path, key_of(store), store.tz)


def after_compaction(store: OpenedStore) -> None:
    """Write the writer's tally, tied to the files the compaction left (if it is still good)."""
    live: Live | None = store._live_tally
    if live is None or live.key != key_of(store):
        store._live_tally = None
        return
    live.undoable = {e["review_id"]: dict(e["review"]) for e in store.state.undo if "review" in e}
    save(store.path, live)


def cache_notes(store: OpenedStore) -> list[str]:
    """What ``quizzer doctor --check`` says of the cache: nothing when it is up to date."""
    _, why = current(store.path, key_of(store), store.tz)
    if why in ("ok", "missing"):  # missing: statistics never shown yet
        return []
    return [
        f"{stats_path(store.path).name}: the statistics cache is {why}; it only sums the "
        "review log (nothing is lost): it is counted again from the log when next shown"
    ]
