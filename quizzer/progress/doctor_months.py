"""The doctor and the review log: which copy of each month verifies, and repairs from that copy.

Each month has two copies, the file and its mirror, and the snapshot's manifest
says how many answers it holds (:mod:`quizzer.progress.monthfile`). The doctor
checks both copies against it; to repair it keeps every damaged copy aside
(``….damaged-<time>``, never deleted), rebuilds the month from the copy that is
vouched for plus that month's answers in every journal kept, writes both copies
again, and finally writes a manifest that matches the months on disk. Answers
the manifest listed that no copy or journal holds are reported as lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import quizzer.progress.journal as journal
import quizzer.progress.monthfile as monthfile
import quizzer.progress.reviewlog as reviewlog
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress.files import journal_path, months, previous_journal_path
from quizzer.progress.generations import v2_backup_path
from quizzer.progress.journal_events import Event, ReviewData
from quizzer.progress.manifest import Manifest
from quizzer.progress.snapshot import AtomicJSONStorage, parse
from quizzer.progress.values import event_problem


@dataclass
class MonthFindings:
    """What :func:`examine_months` found: months to rebuild, mirrors to rewrite."""

    manifest: Manifest | None = None
    gen: int = 0
    #: The backup snapshot's manifest: a month it lists exactly as its file is sealed is
    #: trusted when the snapshot's own manifest lost it (damage to the snapshot, not the month).
    backup_manifest: Manifest | None = None
    bad_months: list[str] = field(default_factory=list)
    bad_mirrors: list[str] = field(default_factory=list)


def manifest_of(doc: dict[str, Any] | None) -> tuple[Manifest | None, int]:
    """A snapshot document's manifest and generation (``None, 0`` without a usable one)."""
    if doc is None:
        return None, 0
    meta = doc.get("meta", {}).get("1", {})
    return meta.get("months"), int(meta.get("gen", 0))


def examine_months(
    path: Path, manifest: Manifest | None, gen: int, problems: list[str]
) -> MonthFindings:
    """Check both copies of every month against ``manifest``; note each problem."""
    found = MonthFindings(manifest, gen)
    for month in months(path, manifest):
        file = reviewlog.month_path(path, month)
        mirror = reviewlog.mirror_path(file)
        main = monthfile.read_copy(file, month)
        copy = monthfile.read_copy(mirror, month)
        main_problem = monthfile.vouch(main, month, manifest, gen)
        mirror_problem = monthfile.vouch(copy, month, manifest, gen)
        if main_problem:
            found.bad_months.append(month)
            problems.append(f"{file}: {main_problem}")
            if mirror_problem:
                problems.append(f"{mirror}: {mirror_problem} (the mirror can't stand in either)")
        elif mirror_problem or copy.reviews != main.reviews or copy.gen != main.gen:
            # Damaged, missing, or lagging behind its month (a crash between the two writes).
            found.bad_mirrors.append(month)
            why = mirror_problem or "differs from its month file"
            problems.append(f"{mirror}: backup of {file.name}: {why}")
    return found


def _keep_aside(file: Path, stamp: str, actions: list[str]) -> None:
    if file.exists():
        keep = file.with_name(f"{file.name}.damaged-{stamp}")
        file.rename(keep)
        fsync_dir(file.parent)
        actions.append(f"kept the damaged {file.name} as {keep.name}")


def _journal_events(file: Path) -> list[Event]:
    """The good events of a journal file (damaged lines skipped), ``[]`` if missing."""
    if not file.exists():
        return []
    return [
        event
        for _, _, event in journal.iter_lines(file)
        if event is not None and not event_problem(event)
    ]


def restore_month(
    path: Path, month: str, found: MonthFindings, stamp: str, actions: list[str], losses: list[str]
) -> None:
    """Rebuild ``month`` from its copy that is vouched for plus the journals kept."""
    file = reviewlog.month_path(path, month)
    mirror = reviewlog.mirror_path(file)
    main = monthfile.read_copy(file, month)
    copy = monthfile.read_copy(mirror, month)
    trusted = monthfile.vouch(copy, month, found.manifest, found.gen) is None
    source = f"its mirror {mirror.name}"
    if not trusted and _listed_by_backup(main, month, found):
        copy, trusted, source = main, True, f"{file.name}, as the backup snapshot lists it"
    _keep_aside(file, stamp, actions)
    base: list[ReviewData] = copy.reviews if trusted else []
    if not trusted:
        _keep_aside(mirror, stamp, actions)
    # The journals of the snapshot's generation and before, whose answers the manifest
    # counts; then the journal since the snapshot, with answers it does not count yet.
    earlier = [
        *_journal_events(v2_backup_path(path)),
        *_journal_events(previous_journal_path(path)),
    ]
    fold = reviewlog.Fold().add_events(earlier)
    counted = len(reviewlog.merge(base, fold.adds.get(month, {}), fold.removes.get(month, set())))
    fold.add_events(_journal_events(journal_path(path)))
    merged = reviewlog.merge(base, fold.adds.get(month, {}), fold.removes.get(month, set()))
    reviewlog.sort_by_time(merged)
    reviewlog.write_month(file, merged, found.gen)
    source = source if trusted else "no copy that verifies"
    actions.append(f"restored {len(merged)} answers of {month} from {source} and the journals kept")
    listed = (found.manifest or {}).get(month)
    if not trusted and (listed is None or listed[0] > counted):
        held = f"{listed[0]} answers" if listed else "an unknown number of answers"
        losses.append(
            f"{month}: the snapshot listed {held}; {counted} were found in the journals "
            "kept, the rest are lost (the damaged copies are kept)"
        )


def _listed_by_backup(copy: monthfile.Copy[Any], month: str, found: MonthFindings) -> bool:
    """Whether ``copy`` verifies on its own, is sealed no later than the snapshot, and the
    backup snapshot lists it with exactly its count and generation."""
    if copy.problem or copy.gen is None or copy.gen > found.gen or not found.backup_manifest:
        return False
    return list(found.backup_manifest.get(month) or ()) == [copy.count, copy.gen]


def rewrite_mirror(path: Path, month: str, stamp: str, actions: list[str]) -> None:
    """Make the mirror of ``month`` the same bytes as its month file (which verified)."""
    file = reviewlog.month_path(path, month)
    mirror = reviewlog.mirror_path(file)
    copy = monthfile.read_copy(mirror, month)
    if copy.problem and copy.exists:
        _keep_aside(mirror, stamp, actions)
    atomic_write_bytes(mirror, file.read_bytes())
    actions.append(f"rewrote {mirror.name} from {file.name}")


def write_manifest(path: Path) -> Manifest | None:
    """Record the sealed months on disk in the snapshot's manifest (after a repair).

    Each month's entry comes from the copy that verifies on its own (the file, else its
    mirror); unsealed months (written before seals) stay unlisted. ``None`` (and nothing
    written) when the snapshot can't be read.
    """
    try:
        doc = parse(path.read_bytes(), path)
        meta = doc["meta"]["1"]
    except (OSError, StoreError, KeyError, TypeError):
        return None
    manifest: Manifest = {}
    for month in months(path):
        file = reviewlog.month_path(path, month)
        for copy in (
            monthfile.read_copy(file, month),
            monthfile.read_copy(reviewlog.mirror_path(file), month),
        ):
            if copy.problem is None:
                if copy.gen is not None:
                    manifest[month] = [len(copy.reviews), copy.gen]
                break
    if meta.get("months") != manifest:
        meta["months"] = manifest
        AtomicJSONStorage(path).write(doc)
    return manifest
