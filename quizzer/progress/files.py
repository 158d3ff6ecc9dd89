"""Where the files of a progress store live, and how a reader notices them being replaced.

Every file of the store at ``P`` is named after it: the journal ``P.journal``, the
backup ``P.bak``, the previous journal generation ``P.journal.prev``, the review
log's month files under ``P.log/`` and the lock ``P.lock`` (the layout is described
in :mod:`quizzer.progress.store`). A reader without the lock compares
:func:`files_signature` before and after a read to tell a compaction (which replaces
the snapshot and the journal by rename) from real damage.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import quizzer.progress.journal as journal
import quizzer.progress.jsontext as jsontext
from quizzer.errors import StoreError


def journal_path(path: Path) -> Path:
    """The journal file of the store at ``path``."""
    return path.with_name(path.name + ".journal")


def store_exists(path: Path) -> bool:
    """Whether a store is at ``path``: its snapshot or its journal exists."""
    return path.exists() or journal_path(path).exists()


#: The tables a snapshot of any schema version holds (version 1 had ``reviews`` too; an empty
#: TinyDB file has ``_default``).
_TABLES = frozenset({"meta", "settings", "cards", "reviews", "_default"})
#: How much of a damaged snapshot is searched for one of our table names.
_SNIFF_BYTES = 64 * 1024


@functools.cache
def _damaged_table() -> re.Pattern[bytes]:
    # Compiled for a damaged snapshot only (~0.4 ms): not at every start.
    return re.compile(rb'^\s*\{\s*"(meta|settings|cards|reviews)"\s*:')


def _companions(path: Path) -> list[Path]:
    """Files only quizzer puts next to a store: backups, the review log, old-version backups."""
    name = path.name
    return [
        path.with_name(name + suffix)
        for suffix in (
            ".bak",
            ".journal.prev",
            ".log",
            ".v1.bak",
            ".v2.bak",
            ".journal.v2.bak",
            ".repairing",
        )
    ]


def _journal_is_ours(file: Path) -> bool:
    """Some line near the start of ``file`` is a checksummed journal event of ours."""
    try:
        with open(file, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return False
    return any(journal.decode(line) is not None for line in head.split(b"\n")[:50])


def _snapshot_is_ours(path: Path) -> bool:
    """The file is a snapshot of ours: a TinyDB document of our tables (even a damaged one)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return False
    try:
        doc = jsontext.loads(raw.decode("utf-8"))
    except ValueError:
        # Damaged (cut short, garbled): still ours if it starts as one of our documents.
        return _damaged_table().match(raw[:_SNIFF_BYTES]) is not None
    if not isinstance(doc, dict) or not doc:
        return False
    meta = doc.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get("1"), dict) and "schema" in meta["1"]:
        return True
    return set(doc) <= _TABLES and bool(set(doc) & {"meta", "settings", "cards", "reviews"})


def is_ours(path: Path) -> bool:
    """Whether what is at ``path`` is recognisably a quizzer progress store (not a folder).

    A positive signature, so that the doctor never "repairs" someone else's file: a journal
    line of ours beside it, a backup or review log of ours, or a snapshot whose JSON has our
    tables (a cut-short one still starts with one of their names).
    """
    if path.is_dir():
        return False
    jpath = journal_path(path)
    if jpath.is_file() and _journal_is_ours(jpath):
        return True
    if not path.exists() and jpath.is_file() and jpath.stat().st_size == 0:
        return True  # a new store's first moment: its writer made the journal, not yet the rest
    if any(c.exists() for c in _companions(path)):
        return True
    return path.is_file() and _snapshot_is_ours(path)


def check_store_path(path: Path) -> Path:
    """``path`` unless something there is not a quizzer store: then :class:`StoreError`.

    Nothing at ``path`` is fine (a writer makes a new store there). Every open and the
    doctor call this before touching anything, so a folder or someone else's file given as
    ``--db`` is refused before a lock file is made, and never renamed or rewritten.
    """
    if path.is_dir():
        inside = path / "progress.json"
        example = inside if inside.is_file() else Path("~/quizzer/progress.json")
        raise StoreError(
            "not a quizzer progress store (this is a folder)",
            hint=f"give the store file, e.g. --db {example}; nothing was changed",
            path=path,
        )
    if store_exists(path) and not is_ours(path):
        raise StoreError(
            "not a quizzer progress store (this file holds no quizzer progress)",
            hint="check the path given with --db (or $QUIZZER_DB); the file was left as it is",
            path=path,
        )
    return path


def require_store(path: Path) -> Path:
    """``path`` if a quizzer store is there, else :class:`StoreError` (a mistyped ``--db``).

    Commands that only read or repair call this first: opening for writing would
    otherwise create an empty store at the mistyped path.
    """
    check_store_path(path)
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


def lost_v2_journal(path: Path, doc: dict[str, Any]) -> str | None:
    """What is lost when the journal beside a schema-2 snapshot ``doc`` is missing or empty
    (``None``: it is there, or the snapshot had nothing to lose). That version kept the
    whole review log in its journal, never truncated."""
    meta = doc.get("meta", {}).get("1", {})
    jpath = journal_path(path)
    if (jpath.is_file() and jpath.stat().st_size) or not (
        meta.get("journal_offset") or doc.get("cards")
    ):
        return None
    return (
        f"the journal is {'empty' if jpath.exists() else 'missing'}: this schema-2 store kept "
        "its whole review log there, so the record of every answer is lost, and so are the "
        "answers given since its last compaction (how many can't be told); the card states "
        "as of that compaction are in the snapshot"
    )


def require_v2_journal(path: Path, doc: dict[str, Any]) -> None:
    """:class:`StoreError` if the journal of a schema-2 snapshot is lost
    (:func:`lost_v2_journal`): migrating it is the doctor's, which reports the loss."""
    lost = lost_v2_journal(path, doc)
    if lost:
        raise StoreError(
            lost,
            hint=f"run `quizzer doctor --db {path}`: it migrates the store as the snapshot "
            "holds it and says what is lost",
            path=journal_path(path),
        )


def backup_path(path: Path) -> Path:
    """The previous snapshot of the store at ``path``."""
    return path.with_name(path.name + ".bak")


#: Said wherever a repair may have stopped halfway: each of its steps keeps what it replaces,
#: so running it again finishes the work (a kill mid-repair can leave the store in between).
RERUN = "interrupted repairs are safe to rerun: run `quizzer doctor` again"


def repair_marker_path(path: Path) -> Path:
    """The file the doctor keeps while it changes the store at ``path`` (removed when done)."""
    return path.with_name(path.name + ".repairing")


def interrupted_repair_error(path: Path) -> StoreError:
    """What opening the store at ``path`` says while a repair's marker is there."""
    return StoreError(
        "a repair of the progress store was interrupted before it finished (or is running now)",
        hint=RERUN,
        path=path,
    )


def previous_journal_path(path: Path) -> Path:
    """The journal generation before the current one (kept by compaction for the doctor)."""
    return path.with_name(path.name + ".journal.prev")


def log_dir(path: Path) -> Path:
    """The directory of the month files of the review log."""
    return path.with_name(path.name + ".log")


def size_of(file: Path) -> int:
    """The size of ``file`` in bytes (0 when there is none)."""
    try:
        return file.stat().st_size
    except FileNotFoundError:
        return 0


def log_months(path: Path) -> list[str]:
    """The months of the review log on disk (``[]`` without a log directory), oldest first."""
    return months(path)


#: A month file of the review log or its mirror: ``2026-11.json``, ``2026-11.json.bak``.
_MONTH_FILE = re.compile(r"^(\d{4}-\d{2})\.json(?:\.bak)?$")


def months(path: Path, manifest: Iterable[str] | None = None) -> list[str]:
    """The months that have a log file or a mirror (or that ``manifest`` lists), oldest first."""
    directory = log_dir(path)
    found = set(manifest or ())
    if directory.is_dir():
        matches = (_MONTH_FILE.match(p.name) for p in directory.iterdir())
        found |= {m.group(1) for m in matches if m}
    return sorted(found)


def stats_path(path: Path) -> Path:
    """The statistics cache of the store at ``path`` (see :mod:`quizzer.progress.aggregates`)."""
    return path.with_name(path.name + ".stats")


def lock_path(path: Path) -> Path:
    """The lock file of the store at ``path``."""
    return path.with_name(path.name + ".lock")


def own_temp_files(path: Path) -> list[Path]:
    """The temp files a killed write of the store at ``path`` may have left, and nothing else.

    Only the names our writers give a file before renaming it into place, and only regular
    files (a symlink or folder so named is not ours): beside ``P``, an atomic write's
    ``.P….XXXXXXXX.tmp`` (snapshot, card index, caches), a link's ``….<pid>.tmp``
    (:func:`quizzer.fsutil.keep_link`: ``P.bak``, ``P.journal.prev``, a migration's
    ``P.journal.v2.bak``, the doctor's ``P.vN.bak`` / ``P.bak.vN.bak``) and the name
    earlier versions gave a migration's copy of the old file, ``P.vN.bak.tmp``; in
    ``P.log/``, ``.*.tmp`` (month files, their caches and spills) and a mirror's
    ``….bak.<pid>.tmp``. Call it holding the store's lock: then no writer of ours is using one.
    """
    found = _regular_files(path.parent, lambda: _temp_names_beside(path.name))
    if log_dir(path).is_dir():
        found += _regular_files(log_dir(path), lambda: re.compile(r"\..+\.tmp|.+\.bak\.\d+\.tmp"))
    return found


def _temp_names_beside(store_name: str) -> re.Pattern[str]:
    name = re.escape(store_name)
    return re.compile(
        rf"\.{name}\..+\.tmp"
        rf"|{name}(\.bak|\.journal\.prev|\.journal\.v2\.bak|(\.bak)?\.v[1-3]\.bak)\.\d+\.tmp"
        rf"|{name}\.v[1-3]\.bak\.tmp"
    )


def _regular_files(directory: Path, names: Callable[[], re.Pattern[str]]) -> list[Path]:
    found: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return found
    # Each temp name ends in ".tmp": the pattern (~0.4 ms to compile) is made only when a
    # file so named is there, seldom (a write cut short), not at every open.
    entries = [entry for entry in entries if entry.name.endswith(".tmp")]
    if not entries:
        return found
    pattern = names()
    for entry in entries:
        if pattern.fullmatch(entry.name):
            try:
                if stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode):
                    found.append(Path(entry.path))
            except OSError:
                continue
    return found


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
