"""The review log on disk: one TinyDB database per calendar month (UTC) under ``P.log/``.

``P.log/2026-11.json`` is a plain TinyDB document with one table, ``reviews``,
whose documents are :meth:`Review.to_dict` dicts, kept in ``reviewed_at``
order. Month files are written only by compaction, each atomically
(:class:`~quizzer.progress.snapshot.AtomicJSONStorage`: temp file, fsync, rename,
directory fsync), and only the months that received or lost answers are
rewritten. Folding is idempotent: documents are keyed by review id, so folding
the same journal twice (a compaction cut short, then redone) changes nothing.

Each month file has a mirror, ``<month>.json.bak``, written (atomically) right
after it with the same content: the journal is truncated at compaction, so
without it a month file damaged on disk could not be restored. A mirror left
behind by a crash between the two writes is brought up to date by the next
compaction, which folds the same journal again.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC
from pathlib import Path
from typing import TypeVar

import quizzer.progress.monthfile as monthfile
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress.files import log_dir, months
from quizzer.progress.journal_events import Event, ReviewData, has_review, is_undo, timestamp
from quizzer.progress.manifest import Manifest
from quizzer.progress.monthspill import Merged, Spill
from quizzer.progress.snapshot import dumps

T = TypeVar("T")


def month_of(reviewed_at: str) -> str:
    """``"YYYY-MM"`` (UTC) of an ISO timestamp."""
    if reviewed_at.endswith("+00:00") or reviewed_at.endswith("Z"):
        return reviewed_at[:7]
    return timestamp(reviewed_at).astimezone(UTC).strftime("%Y-%m")


def sort_by_time(reviews: list[ReviewData]) -> None:
    """Order review dicts by answer time, in place (stable: ties keep their order)."""
    stamps = [d["reviewed_at"] for d in reviews]
    if all(s.endswith("+00:00") for s in stamps):
        # Same zone and format: the ISO text orders like the time (no parsing).
        if all(a <= b for a, b in itertools.pairwise(stamps)):
            return
        reviews.sort(key=lambda d: d["reviewed_at"])
    else:
        reviews.sort(key=lambda d: timestamp(d["reviewed_at"]))


def month_path(path: Path, month: str) -> Path:
    """The file of one month's reviews."""
    return log_dir(path) / f"{month}.json"


def read_month(file: Path) -> list[ReviewData]:
    """The answers of one month file (``[]`` if missing); :class:`StoreError` if damaged.

    Checks the file on its own (layout, seal, every record); :func:`read_vouched`
    also checks it against the snapshot's manifest and falls back to the mirror.
    """
    copy = monthfile.read_copy(file, _month_of_file(file))
    if copy.problem == "missing":
        return []
    if copy.problem:
        raise _month_error(file, copy.problem)
    return copy.reviews


def _month_of_file(file: Path) -> str:
    return file.name.split(".", 1)[0]


def _month_error(file: Path, problem: str) -> StoreError:
    return StoreError(
        problem,
        hint=f"run `quizzer doctor --db {_store_of(file)}` to restore it from its mirror",
        path=file,
    )


def read_vouched(
    path: Path,
    month: str,
    manifest: Manifest | None,
    gen: int,
    read: Callable[[Path, str], monthfile.Copy[T]] = monthfile.read_copy,  # type: ignore[assignment]
) -> tuple[list[T], int | None]:
    """``month``'s answers from the copy that is vouched for (the file, else its mirror).

    Returns the answers and the copy's seal generation; :class:`StoreError` naming
    the month file when neither copy is vouched for (a month the manifest lists and
    no file holds is damage too; a month neither lists nor holds is empty). ``read``
    reads one copy: as dicts (:func:`~quizzer.progress.monthfile.read_copy`) or as
    :class:`Review` objects (:func:`~quizzer.progress.monthfile.read_answers`).
    """
    file = month_path(path, month)
    main = read(file, month)
    problem = monthfile.vouch(main, month, manifest, gen)
    if problem is None:
        return main.reviews, main.gen
    mirror = read(mirror_path(file), month)
    if monthfile.vouch(mirror, month, manifest, gen) is None:
        return mirror.reviews, mirror.gen
    if not main.exists and not mirror.exists and (manifest is None or month not in manifest):
        return [], None
    if problem == "missing":
        problem = "review log file is missing (the snapshot lists it, its mirror can't stand in)"
    raise _month_error(file, problem)


def _store_of(month_file: Path) -> Path:
    directory = month_file.parent
    return directory.with_name(directory.name.removesuffix(".log"))


def mirror_path(file: Path) -> Path:
    """The mirror (backup copy) of a month file."""
    return file.with_name(file.name + ".bak")


def write_month(
    file: Path, reviews: list[ReviewData], gen: int, *, mirror_only: bool = False
) -> None:
    """Replace a month file, then its mirror, each atomically, sealed by generation ``gen``."""
    data = monthfile.encode(_month_of_file(file), reviews, gen)
    if not mirror_only:
        atomic_write_bytes(file, data)
    atomic_write_bytes(mirror_path(file), data)


def write_texts(file: Path, count: int, texts: Callable[[], Iterable[bytes]], gen: int) -> None:
    """:func:`write_month` streamed from each review's JSON text (``texts()`` is read twice)."""
    month = _month_of_file(file)
    atomic_write_bytes(file, monthfile.encode_texts(month, texts(), count, gen))
    atomic_write_bytes(mirror_path(file), monthfile.encode_texts(month, texts(), count, gen))


def mirror_matches(file: Path, reviews: list[ReviewData], gen: int | None) -> bool:
    """Whether the mirror of ``file`` holds exactly ``reviews``, sealed by ``gen``."""
    mirror = monthfile.read_copy(mirror_path(file), _month_of_file(file))
    return mirror.problem is None and mirror.gen == gen and mirror.reviews == reviews


def merge(
    existing: list[ReviewData], adds: dict[str, ReviewData], gone: set[str]
) -> list[ReviewData]:
    """A month's reviews with ``adds`` folded in and ``gone`` (undone ids) taken out.

    Folding is keyed by review id, so folding the same answers twice changes nothing.
    """
    seen = {d["id"] for d in existing}
    merged = [d for d in existing if d["id"] not in gone]
    merged += [r for rid, r in adds.items() if rid not in seen and rid not in gone]
    return merged


class Fold:
    """What a run of journal events does to the month files: additions and removals.

    With ``spill`` the added reviews wait on disk, a file per month, until their
    month is written (:mod:`quizzer.progress.monthspill`): migrating a
    million-answer journal holds one month's ids and times, not its answers.
    """

    def __init__(self, *, spill_to: Path | None = None) -> None:
        #: month -> review id -> review (without a spill).
        self.adds: dict[str, dict[str, ReviewData]] = {}
        self.removes: dict[str, set[str]] = {}
        self.unplaced: set[str] = set()  # undone reviews whose month the event doesn't say
        #: Where added reviews wait (``spill_to``: the log directory), if anywhere.
        self.spill: Spill | None = Spill(spill_to) if spill_to is not None else None

    def add_events(self, events: Iterable[Event]) -> Fold:
        """Fold journal events in (records and imported reviews add, undos remove)."""
        where: dict[str, str] = {}
        for event in events:
            if has_review(event):
                review = event["review"]
                month = month_of(review["reviewed_at"])
                if self.spill is not None:
                    self.spill.add(month, review)  # an undo below takes it out when written
                else:
                    self.adds.setdefault(month, {})[review["id"]] = review
                where[review["id"]] = month
            elif is_undo(event):
                rid = event["review_id"]
                at = event.get("at")
                held_in = where.get(rid) or (month_of(at) if at else None)
                if held_in is None:
                    self.unplaced.add(rid)
                    continue
                self.adds.get(held_in, {}).pop(rid, None)
                self.removes.setdefault(held_in, set()).add(rid)
        return self

    def touched(self) -> set[str]:
        """Months whose files may change."""
        spilled = self.spill.months() if self.spill is not None else set()
        return {m for m, adds in self.adds.items() if adds} | set(self.removes) | spilled

    def write(self, path: Path, manifest: Manifest | None = None, gen: int = 0) -> int:
        """Apply to the month files under ``path``'s log dir (once: it consumes the additions).

        ``manifest`` and ``gen`` are the snapshot's (``meta.months``, ``meta.gen``): only a
        month copy they vouch for is folded into (else :class:`StoreError`, the answers
        wait in the journal), each month written is sealed by ``gen + 1`` (the generation
        of the snapshot written next) and ``manifest`` updated in place. Returns how many
        month files were rewritten.
        """
        directory = log_dir(path)
        if not directory.is_dir():
            directory.mkdir(parents=True, exist_ok=True)
            fsync_dir(directory.parent)
        todo = self.touched()
        if self.unplaced:
            todo |= set(months(path, manifest))
        written = 0
        for month in sorted(todo):
            file = month_path(path, month)
            main = monthfile.read_copy(file, month)
            problem = monthfile.vouch(main, month, manifest, gen)
            if problem and main.exists:
                raise _month_error(file, problem)  # never folded into nor mirrored from
            if problem and manifest is not None and month in manifest:
                raise _month_error(file, "review log file is missing (the snapshot lists it)")
            existing = main.reviews
            gone = self.removes.get(month, set()) | self.unplaced
            folded = self._fold(month, existing, gone)
            if folded is None and main.gen is not None and main.exists:
                # Already folded (a compaction redone after a crash): at most the mirror lags.
                if not mirror_matches(file, existing, main.gen):
                    write_month(file, existing, main.gen, mirror_only=True)
                if manifest is not None:
                    manifest[month] = [len(existing), main.gen]
                continue
            if folded is None and not existing:
                continue  # nothing to write (an undo of an answer this month never held)
            if folded is None:  # a month from before seals: sealed as it is
                sort_by_time(existing)
                folded = _InMemory(existing)
            write_texts(file, folded.count, folded.texts, gen + 1)
            if manifest is not None:
                manifest[month] = [folded.count, gen + 1]
            written += 1
        return written

    def _fold(
        self, month: str, existing: list[ReviewData], gone: set[str]
    ) -> _InMemory | Merged | None:
        """``month``'s answers after the fold, ``None`` if that changes nothing."""
        adds = self.adds.pop(month, {})  # taken one month at a time
        if self.spill is not None and month in self.spill.months():
            return self.spill.merge(month, existing, gone)
        merged = merge(existing, adds, gone)
        if merged == existing:
            return None
        sort_by_time(merged)
        return _InMemory(merged)

    def close(self) -> None:
        """Remove the spill files, if any (the fold is written or given up)."""
        if self.spill is not None:
            self.spill.close()


class _InMemory:
    """A month's answers held as dicts, offered like a spill's :class:`Merged`."""

    def __init__(self, reviews: list[ReviewData]) -> None:
        self.reviews = reviews
        self.count = len(reviews)

    def texts(self) -> Iterator[bytes]:
        return map(dumps, self.reviews)  # type: ignore[arg-type]
