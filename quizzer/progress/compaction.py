"""The first two steps of a compaction: fold the journal into the month files, write the snapshot.

A compaction (:meth:`~quizzer.progress.opening.OpenedStore.compact`, on close and
on open after a long replay) runs three steps, each file written atomically:

1. :func:`fold_journal`: the journal's answers, minus undone ones, into their month
   files — keyed by review id, so folding the same journal twice changes nothing;
2. :func:`write_snapshot`: the old snapshot kept as ``P.bak``, then the snapshot of
   the next generation (the journal counts as absorbed from here on);
3. a new journal of that generation, started by the store itself (its writer moves
   to the new file), the old one kept as ``P.journal.prev``.

A kill between 1 and 2 leaves the old snapshot and journal (reading the log dedupes
by review id); a kill between 2 and 3 leaves a journal of an older generation than
the snapshot, which opening recognises as absorbed.
"""

from __future__ import annotations

from pathlib import Path

import quizzer.progress.journal as journal
import quizzer.progress.reviewlog as reviewlog
from quizzer.errors import StoreError
from quizzer.fsutil import keep_link
from quizzer.progress.files import backup_path, journal_damage_error, journal_path, log_dir
from quizzer.progress.journal import JournalDamage
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State


def fold_journal(path: Path, state: State | None = None) -> None:
    """Step 1: fold the journal of the store at ``path`` into its month files.

    Only into months ``state``'s manifest vouches for (see :mod:`quizzer.progress.monthfile`);
    the manifest is updated for the months written (``state`` ``None``: a fresh manifest).
    """
    if state is None:
        state = State()
    if state.months is None:
        state.months = {}  # a snapshot from before manifests: its months are unsealed
    try:
        events = (event for _, event in journal.scan(journal_path(path), 0))
        reviewlog.Fold().add_events(events).write(path, state.months, state.gen)
    except JournalDamage as exc:
        raise journal_damage_error(path, exc.line) from exc
    except OSError as exc:
        raise StoreError(
            f"can't write the review log: {exc.strerror or exc}",
            hint="check free disk space; every answer is safe in the journal meanwhile",
            path=exc.filename or log_dir(path),
        ) from exc


def write_snapshot(path: Path, state: State, storage: AtomicJSONStorage) -> None:
    """Step 2: keep the snapshot as ``P.bak``, then write ``state`` as the next generation.

    Bumps ``state.gen``; on failure it is put back and nothing counts as absorbed.
    """
    state.gen += 1
    doc = state.to_document(0)
    try:
        if path.exists():
            keep_backup(path)
        storage.write(doc)
    except OSError as exc:
        state.gen -= 1
        raise StoreError(
            f"can't write the progress snapshot: {exc.strerror or exc}",
            hint="check free disk space; every answer is safe in the journal meanwhile",
            path=path,
        ) from exc


def keep_backup(path: Path) -> None:
    """Make the current snapshot ``P.bak``: a hard link (no copy), else a copy; atomically."""
    keep_link(path, backup_path(path))
