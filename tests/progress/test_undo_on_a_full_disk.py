"""`quizzer undo` on a full disk says what happened: nothing undone, or undone and kept.

It used to print "undone" and exit 3 with a message about the review log, and when the
journal's flush failed it printed nothing although the undo was in the file. Here the
disk fills at each write, flush and rename the command makes, one run per point (a
fault-injecting wrapper around the real calls), and each time what the command said is
checked against the store read back afterwards.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.progress import doctor
from tests.progress import store_builder as sb

#: The calls by which the store writes: each is made to fail in turn.
WRITE_PATH = ("write", "fsync", "fdatasync", "replace")


def _full_disk_at(
    monkeypatch: pytest.MonkeyPatch, fail: Callable[[str, int], bool]
) -> list[tuple[str, int]]:
    """Wrap the write path's calls; ``fail(name, n)`` says whether the ``n``-th call raises
    ENOSPC. Returns the calls made, as (name, n)."""
    calls: list[tuple[str, int]] = []
    for name in WRITE_PATH:
        real = getattr(os, name)

        def wrapper(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls.append((_name, len(calls) + 1))
            if fail(_name, len(calls)):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return _real(*args)

        monkeypatch.setattr(os, name, wrapper)
    return calls


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("built") / "p.json"
    sb.build(db, july=3, august=3, pending=2)
    return db


def _copy(built: Path, to: Path) -> Path:
    shutil.copytree(built.parent, to)
    return to / built.name


def _ids(db: Path) -> list[str]:
    with sb.open_db(db, read_only=True) as store:
        return [r.id for r in store.reviews()]


def _undo(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], at: int
) -> tuple[int, str, str, int]:
    """``quizzer undo`` with the disk full at the ``at``-th write-path call."""
    with monkeypatch.context() as patch:
        calls = _full_disk_at(patch, lambda _name, n: n == at)
        code = main(["undo", "--db", str(db)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err, len(calls)


def test_every_full_disk_point_of_undo_says_what_happened(
    built: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ids = _ids(built)
    outcomes: set[str] = set()
    at = 0
    while True:
        at += 1
        db = _copy(built, tmp_path / f"run{at}")
        code, out, err, made = _undo(db, monkeypatch, capsys, at)
        if made < at:  # no call left to fail: a clean run
            assert code == 0 and out.startswith("undone:"), (out, err)
            break
        after = _ids(db)
        if code == 0:
            assert out.startswith("undone:") and after == ids[:-1], (at, out, err)
            outcomes.add("undone")
        elif out.startswith("undone:"):
            assert code == 3 and "the undo above is kept" in err, (at, err)
            assert after == ids[:-1], at
            outcomes.add("undone and kept")
        else:
            assert code == 3 and "nothing was undone" in err and "No space left" in err, err
            assert after == ids, at
            outcomes.add("nothing undone")
        # With space again, the next writer's close tidies the store up: whole and healthy.
        with sb.open_db(db) as store:
            assert [r.id for r in store.reviews()] == after
            store.compact()
        assert doctor.check(db).healthy, (at, doctor.check(db).problems)
    assert outcomes == {"undone", "undone and kept", "nothing undone"}
    assert at > 10  # the sweep went through the journal, the log, the snapshot and the rest


def test_a_failed_flush_takes_the_undo_back(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(built, tmp_path / "s")
    ids = _ids(db)
    with monkeypatch.context() as patch:
        _full_disk_at(patch, lambda name, n: name == "fdatasync" and n <= 3)
        code = main(["undo", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 3 and "can't save the journal to disk" in err and "nothing was undone" in err
    assert _ids(db) == ids


def test_an_undo_the_disk_did_not_confirm_is_said_to_be_uncertain(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(built, tmp_path / "s")
    ids = _ids(db)
    with monkeypatch.context() as patch:
        # The journal's flush fails, and so does every flush after it (taking the line back).
        _full_disk_at(patch, lambda name, n: name in ("fdatasync", "fsync") and n >= 2)
        code = main(["undo", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 3 and "undone:" not in out.out
    assert "didn't confirm whether the answer to" in out.err and "quizzer log" in out.err
    assert _ids(db) in (ids, ids[:-1])  # either, but a whole store
    assert doctor.check(db).healthy
