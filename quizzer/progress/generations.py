"""Whose journal is it: live, absorbed or damaged, told from positive signs only.

Each compaction starts a journal whose verifying header names its generation;
the snapshot records the generation it has absorbed (``meta.gen``). A journal
counts as *absorbed* (stale: a crash between writing the snapshot and starting
the next journal left it behind) only when its header verifies and names an
older generation, or when it is the version-2 journal a migration kept as
``P.journal.v2.bak`` (no header: that version had none). Anything else — a
header that fails its checksum, zeroed or random bytes, other JSON, an empty or
deleted journal next to a snapshot that has absorbed a generation — is damage:
its checksummed lines are answers, and the doctor salvages them.
"""

from __future__ import annotations

import filecmp
import os
from dataclasses import dataclass
from pathlib import Path

import quizzer.progress.journal as journal
from quizzer.errors import StoreError
from quizzer.progress.files import journal_path


@dataclass(frozen=True, slots=True)
class Standing:
    """The journal next to a snapshot of generation ``gen``: its own generation, and if absorbed."""

    jgen: int
    stale: bool


def v2_backup_path(path: Path) -> Path:
    """The version-2 journal a migration kept (``P.journal.v2.bak``)."""
    jpath = journal_path(path)
    return jpath.with_name(jpath.name + ".v2.bak")


def is_v2_journal(path: Path) -> bool:
    """The journal is the version-2 one a migration kept (same file, or a byte-equal copy)."""
    jpath, kept = journal_path(path), v2_backup_path(path)
    try:
        if os.path.samefile(jpath, kept):
            return True
        return filecmp.cmp(jpath, kept, shallow=False)
    except OSError:
        return False


def _size(file: Path) -> int | None:
    try:
        return file.stat().st_size
    except FileNotFoundError:
        return None


#: Why a lost journal's answers can't be counted: the snapshot and the month files (its
#: manifest) hold what the last compaction folded in, nothing after; the lock file's mark
#: gives the bytes a writer saved (and only at least those: it is not synced), not answers.
_UNTOLD = "how many can't be told, only the journal held them"


def journal_problem(path: Path, gen: int) -> str | None:
    """Why the journal can't be placed next to a snapshot of generation ``gen`` (``None``: fine)."""
    jpath = journal_path(path)
    jgen = journal.header(jpath)
    if jgen is not None:
        if jgen > gen:
            return f"the journal (generation {jgen}) is newer than the snapshot (generation {gen})"
        return None
    size = _size(jpath)
    if gen == 0 or is_v2_journal(path):
        return None  # nothing absorbed yet / the version-2 journal, absorbed by its migration
    if size is None:
        return (
            f"the journal is missing (the snapshot has absorbed generation {gen}; answers "
            f"given since its last compaction, if any, are gone: {_UNTOLD})"
        )
    if size == 0:
        return (
            "the journal is empty (its header and any answers given since the last compaction "
            f"are gone: {_UNTOLD})"
        )
    return "the journal's header line is damaged (its checksummed lines are kept by the doctor)"


def standing(path: Path, gen: int) -> Standing:
    """Where the journal of the store at ``path`` stands; :class:`StoreError` if it is damage."""
    problem = journal_problem(path, gen)
    if problem is not None:
        raise StoreError(problem, hint=f"run `quizzer doctor --db {path}`", path=journal_path(path))
    jgen = journal.header(journal_path(path))
    if jgen is None:
        # gen 0 (nothing absorbed) replays what there is; the kept v2 journal is absorbed.
        return Standing(0, gen > 0)
    return Standing(jgen, jgen < gen)
