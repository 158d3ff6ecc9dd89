"""Where the files of a progress store live, and how a reader notices them being replaced.

Every file of the store at ``P`` is named after it: the journal ``P.journal``, the
backup ``P.bak``, the previous journal generation ``P.journal.prev``, the review
log's month files under ``P.log/`` and the lock ``P.lock`` (the layout is described
in :mod:`quizzer.progress.store`). A reader without the lock compares
:func:`files_signature` before and after a read to tell a compaction (which replaces
the snapshot and the journal by rename) from real damage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quizzer.errors import StoreError
from quizzer.progress import reviewlog


def journal_path(path: Path) -> Path:
    """The journal file of the store at ``path``."""
    return path.with_name(path.name + ".journal")


def store_exists(path: Path) -> bool:
    """Whether a store is at ``path``: its snapshot or its journal exists."""
    return path.exists() or journal_path(path).exists()


def require_store(path: Path) -> Path:
    """``path`` if a store is there, else :class:`StoreError` (a mistyped ``--db``).

    Commands that only read or repair call this first: opening for writing would
    otherwise create an empty store at the mistyped path.
    """
    if path.is_dir():
        raise StoreError(
            "this is a folder, not a progress store file",
            hint="give the store file, e.g. --db ~/quizzer/progress.json",
            path=path,
        )
    if not store_exists(path):
        raise StoreError(
            "no progress store here",
            hint="check the path given with --db (or $QUIZZER_DB); "
            "a store is made when you first study",
            path=path,
        )
    return path


def journal_damage_error(store: Path, line: int | None) -> StoreError:
    """The error for a journal line that fails its checksum, pointing at ``quizzer doctor``."""
    return StoreError(
        f"the journal is damaged at line {line}",
        hint=f"run `quizzer doctor --db {store}` to repair it (a copy is kept)",
        path=journal_path(store),
        line=line,
    )


def backup_path(path: Path) -> Path:
    """The previous snapshot of the store at ``path``."""
    return path.with_name(path.name + ".bak")


def previous_journal_path(path: Path) -> Path:
    """The journal generation before the current one (kept by compaction for the doctor)."""
    return path.with_name(path.name + ".journal.prev")


def log_dir(path: Path) -> Path:
    """The directory of the month files of the review log."""
    return reviewlog.log_dir(path)


def lock_path(path: Path) -> Path:
    """The lock file of the store at ``path``."""
    return path.with_name(path.name + ".lock")


#: How often a reader without the lock reads again when a compaction changed the files under it.
READ_ATTEMPTS = 12


def files_signature(path: Path) -> tuple[Any, ...]:
    """What changes when a compaction replaces the snapshot or the journal (both by rename)."""

    def sig(file: Path) -> tuple[int, int, int] | None:
        try:
            st = file.stat()
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    journal_sig = sig(journal_path(path))
    return sig(path), journal_sig[0] if journal_sig else None


def busy_error(path: Path) -> StoreError:
    """The error of a reader whose files kept being replaced for all :data:`READ_ATTEMPTS`."""
    return StoreError(
        "the progress store kept changing while it was read (another quizzer process is saving it)",
        hint="try again in a moment",
        path=path,
    )
