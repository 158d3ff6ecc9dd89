"""A later run removes the temp files a killed migration or compaction left, and only those.

Real store files on disk, a real kill, the real CLI.

A migration keeps the old bytes first: ``P.v1.bak`` written to a temp file then renamed
(``P.v1.bak.tmp`` until now), the version-2 journal as ``P.journal.v2.bak`` by a link to
``P.journal.v2.bak.<pid>.tmp`` then a rename. A kill in between leaves the temp file; a
later run under another pid never writes that name again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.cli_support import run
from tests.progress import store_builder as sb
from tests.progress.test_migrate_study_days import v3_store  # noqa: F401 - a fixture
from tests.progress.test_schema_signatures import _as_schema_1

#: A child that migrates the store at argv[1] and is killed (SIGKILL, by itself) just before
#: it renames a file whose name ends in argv[2] into place.
_KILLED_BEFORE_RENAME = textwrap.dedent(
    """
    import os, signal, sys
    from datetime import UTC
    from quizzer.progress import open_store

    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if os.fspath(dst).endswith(sys.argv[2]):
            os.kill(os.getpid(), signal.SIGKILL)
        return real_replace(src, dst, *args, **kwargs)

    os.replace = replace
    open_store(sys.argv[1], tz=UTC).close()
    """
)


def _decoys(folder: Path) -> list[Path]:
    """Files with names like ours that no quizzer writer makes: never touched."""
    files = [
        folder / "notes.tmp",
        folder / "progress.json.v9.bak.tmp",
        folder / "progress.json.journal.v2.bak.tmp",
        folder / "other.json.v1.bak.tmp",
        folder / "progress.json.v1.bak.tmp.keep",
    ]
    for file in files:
        file.write_bytes(b"someone else's")
    (folder / "progress.json.v2.bak.1.tmp").mkdir()  # a folder, not a temp file of ours
    files.append(folder / "progress.json.v2.bak.1.tmp")
    return files


def _kill_before_rename(db: Path, name: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", _KILLED_BEFORE_RENAME, str(db), name],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert child.returncode == -signal.SIGKILL, child.stderr


def test_a_schema_1_migration_killed_keeping_the_old_journal_leaves_no_temp_file(
    v3_store,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, _new_rule, _old = v3_store
    reviews = _as_schema_1(db)
    decoys = _decoys(db.parent)
    _kill_before_rename(db, ".journal.v2.bak")
    (left,) = db.parent.glob("progress.json.journal.v2.bak.*.tmp")  # under the child's pid
    code, out, err = run(capsys, "doctor", "--db", str(db))
    assert code == 0, out + err
    assert "migrated from schema 1" in out
    assert not left.exists()
    assert [p for p in db.parent.rglob("*.tmp") if p not in decoys] == []
    assert all(p.exists() for p in decoys)
    with sb.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(r["id"] for r in reviews.values())


def test_a_schema_1_migration_killed_keeping_the_old_file_leaves_no_temp_file(
    v3_store,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, _new_rule, _old = v3_store
    _as_schema_1(db)
    original = db.read_bytes()
    _kill_before_rename(db, ".v1.bak")
    (left,) = db.parent.glob(".progress.json.v1.bak.*.tmp")
    assert left.read_bytes() == original  # written whole, not yet renamed
    code, out, err = run(capsys, "doctor", "--db", str(db))
    assert code == 0, out + err
    assert not left.exists()
    assert (db.parent / "progress.json.v1.bak").read_bytes() == original


#: Every temp name a writer of the store at ``progress.json`` gives a file before its rename.
OURS = [
    ".progress.json.k3j_x9qa.tmp",  # the snapshot (atomic write)
    ".progress.json.cards.idx.k3j_x9qa.tmp",
    ".progress.json.stats.k3j_x9qa.tmp",
    ".progress.json.figures.k3j_x9qa.tmp",
    "progress.json.bak.4242.tmp",  # compaction's link of the old snapshot
    "progress.json.journal.prev.4242.tmp",
    ".progress.json.v1.bak.k3j_x9qa.tmp",  # a migration's copy of the old file
    "progress.json.v1.bak.tmp",  # … as quizzer named it before
    "progress.json.v2.bak.tmp",
    "progress.json.v3.bak.tmp",
    "progress.json.journal.v2.bak.4242.tmp",  # a migration's link of the version-2 journal
    "progress.json.v2.bak.4242.tmp",  # the doctor's link of an old-schema snapshot
    "progress.json.bak.v2.bak.4242.tmp",  # … of an old-schema backup
]


@pytest.mark.parametrize("name", OURS)
def test_a_later_run_removes_each_temp_file_of_ours_and_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Left by a kill in an earlier run that the store has moved past (migrated, rebuilt)."""
    db = tmp_path / "progress.json"
    sb.build(db, july=2, august=2, pending=1)
    left = tmp_path / name
    left.write_bytes(b"half a copy")
    decoys = _decoys(tmp_path)
    code, out, err = run(capsys, "settings", "--db", str(db), "--set", "new_per_day=10")
    assert code == 0, out + err
    assert not left.exists()
    assert all(p.exists() for p in decoys)


@pytest.mark.parametrize("name", ["progress.json.v1.bak.tmp", "progress.json.bak.4242.tmp"])
def test_a_symlink_named_like_our_temp_file_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    db = tmp_path / "progress.json"
    sb.build(db, july=2, august=2, pending=1)
    target = tmp_path / "elsewhere.txt"
    target.write_bytes(b"not ours")
    link = tmp_path / name
    link.symlink_to(target)
    code, out, err = run(capsys, "settings", "--db", str(db), "--set", "new_per_day=10")
    assert code == 0, out + err
    assert link.is_symlink() and target.read_bytes() == b"not ours"
