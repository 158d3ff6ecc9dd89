"""Schema versions of the progress store and the migrations between them.

Version 1 was the plain TinyDB layout: one JSON document with tables
``cards`` (card states), ``reviews`` (the review log) and ``settings``, written
whole by TinyDB's ``JSONStorage`` on every answer. Version 2 kept card states
and settings in an atomically written snapshot with a ``meta`` table, and the
review log in the append-only journal, never truncated. Version 3 (current)
keeps the review log in month files (``P.log/YYYY-MM.json``) and truncates the
journal at each compaction (generations, ``meta.gen``).

Migrating keeps a byte-for-byte backup of the old file (``P.v1.bak``,
``P.v2.bak``) first; from version 2 the old journal is kept too
(``P.journal.v2.bak``, a hard link).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from quizzer.errors import StoreError
from quizzer.fsutil import fsync_dir
from quizzer.progress import journal
from quizzer.progress.events import Event, has_review

SCHEMA_VERSION = 3


def schema_of(doc: dict[str, Any]) -> int:
    """The schema version of a snapshot document (1 when it has no ``meta`` table).

    ``ValueError`` when ``meta`` is there but not laid out as any version wrote it.
    """
    table = doc.get("meta", {})
    if not isinstance(table, dict):
        raise ValueError(f"table 'meta' is not a table: {table!r:.40}")
    meta = table.get("1")
    if not meta:
        return 1
    if not isinstance(meta, dict):
        raise ValueError(f"meta record is not an object: {meta!r:.40}")
    if "schema" not in meta:
        return 1
    try:
        return int(meta["schema"])
    except (TypeError, ValueError):
        # Not an old layout to migrate: a damaged one (migrating it would rewrite the file).
        raise ValueError(f"meta.schema is not a number: {meta['schema']!r:.40}") from None


def version_backup_path(path: Path, version: int) -> Path:
    """Where the file is kept before migrating away from ``version``."""
    return path.with_name(f"{path.name}.v{version}.bak")


def migrate(path: Path, doc: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring ``doc`` (read from ``path``) up to :data:`SCHEMA_VERSION`, keeping a backup.

    Returns the migrated document, already written to ``path``.
    """
    from quizzer.progress.snapshot import AtomicJSONStorage

    backup = version_backup_path(path, version)
    if not backup.exists():
        tmp = backup.with_name(backup.name + ".tmp")
        shutil.copyfile(path, tmp)
        with open(tmp, "rb+") as fh:
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(backup)
        fsync_dir(path.parent)
    while version < SCHEMA_VERSION:
        step = _STEPS.get(version)
        if step is None:
            raise StoreError(f"no migration from schema version {version}", path=path)
        doc = step(doc, path)
        version += 1
    AtomicJSONStorage(path).write(doc)
    return doc


def _v1_to_v2(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """Move the review log into the journal; card states and settings into the snapshot."""
    from quizzer.progress.files import journal_path

    journal_file = journal_path(path)
    existing: set[str] = set()
    writer_end = 0
    if journal_file.exists():
        # A migration cut short may already have written some reviews: don't repeat them.
        found = journal.read(journal_file, 0)
        existing = {e["review"]["id"] for e in found.events if has_review(e)}
        writer_end = found.end
    reviews = sorted(
        doc.get("reviews", {}).values(), key=lambda r: (r.get("reviewed_at", ""), r.get("id", ""))
    )
    writer = journal.JournalWriter(journal_file, writer_end)
    seq = 0
    try:
        # One fsync for the batch: write lines, then sync once at the end.
        for review in reviews:
            seq += 1
            if review.get("id") in existing:
                continue
            writer.append_nosync({"op": "review", "seq": seq, "review": review})
        writer.sync()
        end = writer.end
    finally:
        writer.close()
    cards = {
        str(key): data
        for key, data in doc.get("cards", {}).items()
        if isinstance(data, dict) and "card_id" in data
    }
    settings = doc.get("settings", {}).get("1", {})
    meta: dict[str, Any] = {
        "schema": 2,
        "journal_offset": end,
        "seq": seq,
        "created": None,
        "undo": [],
        "recent": [],
        "migrated_from": 1,
    }
    return {"meta": {"1": meta}, "settings": {"1": settings}, "cards": cards}


def _v2_to_v3(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """Fold the whole journal into month files; the snapshot becomes generation 1.

    The old journal (generation 0: it has no header) is kept as
    ``P.journal.v2.bak``; the next open sees it is older than the snapshot and
    starts a fresh journal. Cut short by a crash, this simply runs again (the
    snapshot is still version 2 and folding is idempotent).
    """
    from quizzer.progress import reviewlog
    from quizzer.progress.files import journal_path
    from quizzer.progress.state import State

    journal_file = journal_path(path)
    meta = doc.get("meta", {}).get("1", {})
    offset = int(meta.get("journal_offset", 0))
    st = State.from_document(doc)
    fold = reviewlog.Fold(packed=True)  # a version-2 journal may hold millions of answers

    def events() -> Iterator[Event]:
        for end, event in journal.scan(journal_file, 0):
            if end > offset:
                st.apply(event)  # the tail the version-2 snapshot hadn't absorbed yet
            yield event

    try:
        fold.add_events(events())
    except journal.JournalDamage as exc:
        raise StoreError(
            f"the journal is damaged at line {exc.line}; can't migrate the store",
            hint=f"run `quizzer doctor --db {path}` first (a copy is kept)",
            path=journal_file,
            line=exc.line,
        ) from exc
    fold.write(path)
    backup = journal_file.with_name(journal_file.name + ".v2.bak")
    if journal_file.exists() and not backup.exists():
        reviewlog.keep_link(journal_file, backup)
        fsync_dir(path.parent)
    st.gen = 1
    new = st.to_document(0)
    new["meta"]["1"]["migrated_from"] = meta.get("migrated_from", 2)
    return new


_STEPS = {1: _v1_to_v2, 2: _v2_to_v3}
