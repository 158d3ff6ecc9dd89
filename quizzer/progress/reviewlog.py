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

import contextlib
import itertools
import json
import os
import re
import shutil
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress.events import Event, ReviewData, has_review, is_undo
from quizzer.progress.snapshot import AtomicJSONStorage, dumps

_MONTH_FILE = re.compile(r"^(\d{4}-\d{2})\.json$")


def log_dir(path: Path) -> Path:
    """The review-log directory of the store at ``path``."""
    return path.with_name(path.name + ".log")


def month_of(reviewed_at: str) -> str:
    """``"YYYY-MM"`` (UTC) of an ISO timestamp."""
    if reviewed_at.endswith("+00:00") or reviewed_at.endswith("Z"):
        return reviewed_at[:7]
    return timestamp(reviewed_at).astimezone(UTC).strftime("%Y-%m")


def timestamp(reviewed_at: str) -> datetime:
    """An ISO timestamp as an aware UTC datetime (naive ones are taken as UTC)."""
    moment = datetime.fromisoformat(reviewed_at)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


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


def months(path: Path) -> list[str]:
    """The months that have a log file, oldest first."""
    directory = log_dir(path)
    if not directory.is_dir():
        return []
    found = (_MONTH_FILE.match(p.name) for p in directory.iterdir())
    return sorted(m.group(1) for m in found if m)


def read_month(file: Path) -> list[ReviewData]:
    """The review dicts of one month file (``[]`` if missing); :class:`StoreError` if damaged."""
    try:
        doc = AtomicJSONStorage(file, read_only=True).read()
    except StoreError as exc:
        raise StoreError(
            exc.message.replace("progress store", "review log file", 1),
            hint=f"run `quizzer doctor --db {_store_of(file)}` to restore it from its backup",
            path=file,
            line=exc.line,
        ) from exc
    if doc is None:
        return []
    table = doc.get("reviews", {})
    if not isinstance(table, dict) or not all(
        isinstance(d, dict) and "id" in d and "reviewed_at" in d for d in table.values()
    ):
        raise StoreError(
            "review log file is damaged (not a table of reviews)",
            hint=f"run `quizzer doctor --db {_store_of(file)}`",
            path=file,
        )
    return list(table.values())


def _store_of(month_file: Path) -> Path:
    directory = month_file.parent
    return directory.with_name(directory.name.removesuffix(".log"))


def mirror_path(file: Path) -> Path:
    """The mirror (backup copy) of a month file."""
    return file.with_name(file.name + ".bak")


def write_month(file: Path, reviews: list[ReviewData], *, mirror_only: bool = False) -> None:
    """Replace a month file, then its mirror, each atomically."""
    data = dumps({"reviews": {str(i): r for i, r in enumerate(reviews, start=1)}})
    if not mirror_only:
        atomic_write_bytes(file, data)
    atomic_write_bytes(mirror_path(file), data)


def mirror_matches(file: Path, reviews: list[ReviewData]) -> bool:
    """Whether the mirror of ``file`` holds exactly ``reviews``."""
    try:
        return read_month(mirror_path(file)) == reviews and mirror_path(file).exists()
    except StoreError:
        return False


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


def keep_link(source: Path, target: Path) -> None:
    """Make ``target`` the same file as ``source`` (a hard link, else a copy), atomically."""
    tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        os.link(source, tmp)
    except OSError:  # a file system without hard links
        shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def _dumps(review: ReviewData) -> str:
    return json.dumps(review, ensure_ascii=False, separators=(",", ":"))


class Fold:
    """What a run of journal events does to the month files: additions and removals.

    ``packed`` keeps each added review as its JSON text until its month is written,
    about a fifth of the memory of a dict (migrating a million-answer journal).
    """

    def __init__(self, *, packed: bool = False) -> None:
        self.packed = packed
        #: month -> review id -> review (its JSON text when ``packed``).
        self.adds: dict[str, dict[str, Any]] = {}
        self.removes: dict[str, set[str]] = {}
        self.unplaced: set[str] = set()  # undone reviews whose month the event doesn't say

    def add_events(self, events: Iterable[Event]) -> Fold:
        """Fold journal events in (records and imported reviews add, undos remove)."""
        where: dict[str, str] = {}
        for event in events:
            if has_review(event):
                review = event["review"]
                month = month_of(review["reviewed_at"])
                value = _dumps(review) if self.packed else review
                self.adds.setdefault(month, {})[review["id"]] = value
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
        return {m for m, adds in self.adds.items() if adds} | set(self.removes)

    def write(self, path: Path) -> int:
        """Apply to the month files under ``path``'s log dir (once: it consumes the additions).

        Returns how many month files were rewritten.
        """
        directory = log_dir(path)
        if not directory.is_dir():
            directory.mkdir(parents=True, exist_ok=True)
            fsync_dir(directory.parent)
        todo = self.touched()
        if self.unplaced:
            todo |= set(months(path))
        written = 0
        for month in sorted(todo):
            file = month_path(path, month)
            existing = read_month(file)
            adds = self.adds.pop(month, {})  # unpacked one month at a time
            if self.packed:
                adds = {rid: json.loads(text) for rid, text in adds.items()}
            gone = self.removes.get(month, set()) | self.unplaced
            merged = merge(existing, adds, gone)
            if merged == existing:
                # Already folded (a compaction redone after a crash): at most the mirror lags.
                if existing and not mirror_matches(file, existing):
                    write_month(file, existing, mirror_only=True)
                continue
            sort_by_time(merged)
            write_month(file, merged)
            written += 1
        return written
