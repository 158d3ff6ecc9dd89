"""The whole review log as read back: the month files plus the journal's answers and undos.

:func:`read_log` reads it (safely without the store's lock, while another process
may compact); :class:`ReviewLogStorage` presents it as a read-only TinyDB table.
The month files themselves are written by :mod:`quizzer.progress.reviewlog`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from functools import partial
from operator import attrgetter, le
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

import quizzer.progress.journal as journal
import quizzer.progress.monthcache as monthcache
import quizzer.progress.monthfile as monthfile
import quizzer.progress.reviewlog as reviewlog
from quizzer.errors import StoreError
from quizzer.progress.files import (
    READ_ATTEMPTS,
    busy_error,
    files_signature,
    journal_damage_error,
    journal_path,
    months,
)
from quizzer.progress.journal import JournalDamage
from quizzer.progress.journal_events import Event, has_review, is_undo, plain
from quizzer.progress.manifest import Manifest, manifest_problem
from quizzer.progress.snapshot import parse
from quizzer.progress.values import BAD_VALUE, event_problem, reason_of
from quizzer.scheduling.review import Review

#: The sort key of the log: when the answer was given.
_ANSWER_TIME = attrgetter("reviewed_at")
_ID = attrgetter("id")


class ReviewLogStorage(Storage):
    """A read-only TinyDB storage presenting review dicts as the table ``reviews``."""

    def __init__(self, reviews: list[dict[str, Any]]) -> None:
        self._doc = {"reviews": {str(i): r for i, r in enumerate(reviews, start=1)}}

    def read(self) -> dict[str, Any]:
        """The table, as TinyDB expects it."""
        return self._doc

    def write(self, data: dict[str, Any]) -> None:
        """The log changes only through :meth:`Store.record` and :meth:`Store.undo`."""
        raise StoreError("the review log view is read-only; use Store.record/undo")


def read_log(
    path: Path,
    gen: int,
    manifest: Manifest | None = None,
    cards: Callable[[str], bool] | None = None,
) -> LoadedLog:
    """The review log of the store at ``path`` whose snapshot has generation ``gen``.

    The month files, then the journal's answers and undos (unless the journal is
    of an older generation, i.e. already folded in); deduplicated by review id
    and ordered by answer time (ties: log order). Each month
    comes from the copy the snapshot's ``manifest`` vouches for (the file, else its
    mirror; see :mod:`quizzer.progress.monthfile`). With ``cards``, only the answers
    of the cards it says yes to (by card id) are kept.

    Without the store's lock another process may compact meanwhile (fold the
    journal into the months, then replace the journal). Reading the journal
    before the months keeps every answer in view whatever the timing; when the
    journal was replaced during the read it reads again (a few times) for an
    exact picture, and an error is only reported when the files stayed put.
    """
    log: LoadedLog | None = None
    for attempt in range(READ_ATTEMPTS):
        before = files_signature(path)[1]
        try:
            log = _read_log_once(path, gen, manifest, cards)
        except StoreError:
            if files_signature(path)[1] == before:
                raise
        else:
            if files_signature(path)[1] == before:
                return log
        finally:
            monthcache.settle()  # the month caches this reading wrote are on disk
        time.sleep(0.005 * (attempt + 1))
    if log is None:
        raise busy_error(journal_path(path))
    return log  # complete, if perhaps not the very latest


def _read_log_once(
    path: Path, gen: int, manifest: Manifest | None, cards: Callable[[str], bool] | None
) -> LoadedLog:
    # The journal first, the month files after: a compaction folds the journal into the months
    # before it replaces the journal, so whatever a replaced journal held, the months read
    # afterwards hold it. The journal's events are then laid over the months (its undos win).
    jpath = journal_path(path)
    events: list[Event] = []
    if journal.generation(jpath) >= gen:
        try:
            events = [event for _, event in journal.scan(jpath, 0)]
        except JournalDamage as exc:
            raise journal_damage_error(path, exc.line) from exc
    out: list[Review] = []
    read = partial(monthfile.read_answers, cards=cards)  # only their answers, a slice at a time
    for month in months(path, manifest):
        try:
            held, _ = reviewlog.read_vouched(path, month, manifest, gen, read)
        except StoreError:
            # Compacted more than once since our snapshot was read: vouch by the newest one.
            newer = _newer_manifest(path, gen)
            if newer is None:
                raise
            held, _ = reviewlog.read_vouched(path, month, *newer, read)
        out += held
    # A set of the ids, not a table by id: half the cost, and answers are rarely given twice.
    ids = set(map(_ID, out))
    if len(ids) != len(out):  # by id, a later copy wins (in the earlier one's place)
        out = list(_by_id(out).values())
    journal_ids = {e["review"]["id"] for e in events if has_review(e)}
    journal_ids |= {e["review_id"] for e in events if is_undo(e)}
    overlay: dict[str, Review] = {}
    if not journal_ids.isdisjoint(ids):  # a compaction cut short: its journal is laid over
        overlay = _by_id(out)
        out, ids = [], set()
    try:
        for event in events:
            if has_review(event):
                data = event["review"]
                if cards is None or cards(data["card_id"]):
                    overlay[data["id"]] = Review.from_dict(plain(data))
            elif is_undo(event):
                overlay.pop(event["review_id"], None)
    except BAD_VALUE as exc:  # a journal answer with a bad value (month records are checked)
        raise StoreError(
            f"the journal is damaged ({event_problem(event) or reason_of(exc)})",
            hint=f"run `quizzer doctor --db {path}`",
            path=jpath,
        ) from exc
    out += overlay.values()
    log = LoadedLog(out, ids | overlay.keys())
    log.sort()
    return log


def _by_id(reviews: list[Review]) -> dict[str, Review]:
    """``reviews`` by id: of an id given twice, the later answer, in the earlier's place."""
    return dict(zip(map(_ID, reviews), reviews, strict=True))


class LoadedLog:
    """The review log as read, in memory: answers in time order (ties: log order), each id
    once; updated by the store as it records, undoes and merges (as a table by id would be).

    A list and a set of the ids, not a table by id: building that for a million answers was
    a sixth of reading them. Finding one answer by id walks back from the newest (an undo
    takes back a recent answer).
    """

    def __init__(self, reviews: list[Review], ids: set[str]) -> None:
        self._reviews = reviews
        self._ids = ids

    def values(self) -> list[Review]:
        """The answers (the list itself: copy it to keep it)."""
        return self._reviews

    def __len__(self) -> int:
        return len(self._reviews)

    def __iter__(self) -> Iterator[str]:
        return map(_ID, self._reviews)

    def __contains__(self, review_id: object) -> bool:
        return review_id in self._ids

    def __setitem__(self, review_id: str, review: Review) -> None:
        """Add ``review`` (its id is ``review_id``) last, or in the place of the one it replaces."""
        if review_id in self._ids:
            self._reviews[self._place(review_id)] = review
        else:
            self._reviews.append(review)
            self._ids.add(review_id)

    def pop(self, review_id: str, default: Review | None = None) -> Review | None:
        """Take out the answer ``review_id`` and return it (``default`` if there is none)."""
        if review_id not in self._ids:
            return default
        self._ids.discard(review_id)
        return self._reviews.pop(self._place(review_id))

    def sort(self) -> None:
        """Put the answers in time order (stable), if they are not."""
        times = list(map(_ANSWER_TIME, self._reviews))
        if not all(map(le, times, itertools.islice(times, 1, None))):
            # Every answer time is aware (Review checks it); they come nearly in order.
            self._reviews.sort(key=_ANSWER_TIME)

    def _place(self, review_id: str) -> int:
        reviews = self._reviews
        return next(n for n in range(len(reviews) - 1, -1, -1) if reviews[n].id == review_id)


def _newer_manifest(path: Path, gen: int) -> tuple[Manifest | None, int] | None:
    """The manifest and generation of the snapshot on disk, if newer than ``gen``."""
    try:
        meta = parse(path.read_bytes(), path)["meta"]["1"]
        newer = int(meta["gen"])
    except (OSError, StoreError, KeyError, TypeError, ValueError):
        return None
    months = meta.get("months")
    if newer <= gen or (months is not None and manifest_problem(months)):
        return None
    return months, newer
