"""`quizzer doctor` in a folder it can't write: store trouble (exit 3) said plainly, not exit 1.

The repair renames the damaged file aside and writes new files beside it; in a read-only
folder the first of those failed with a bare ``PermissionError`` that the command line's
last net turned into exit 1. Run as an ordinary user the folder is really made read-only;
as root (for whom permission bits stop nothing) every creation, rename and removal in the
folder is refused with ``EACCES`` by a wrapper around the real calls instead.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.progress import journal_path
from tests.progress import store_builder as sb


def _refuse(path: Any) -> None:
    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))


def _deny_writes_in(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuse, as a read-only ``folder`` does, every new file, rename and removal in it."""
    top = str(folder)

    def inside(path: Any) -> bool:
        try:
            return os.path.abspath(os.fsdecode(path)).startswith(top)
        except TypeError:  # a file descriptor
            return False

    real_open, real_builtin_open = os.open, builtins.open

    def os_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if inside(path) and flags & os.O_CREAT and not os.path.exists(path):
            _refuse(path)
        return real_open(path, flags, *args, **kw)

    def builtin_open(file: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        new = not isinstance(file, int) and inside(file) and not os.path.exists(file)
        if new and any(c in mode for c in "wxa"):
            _refuse(file)
        return real_builtin_open(file, mode, *args, **kw)

    def refusing(name: str) -> Any:
        real = getattr(os, name)

        def call(path: Any, *args: Any, **kw: Any) -> Any:
            if inside(path) or (args and inside(args[0])):
                _refuse(path)
            return real(path, *args, **kw)

        return call

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", builtin_open)
    for name in ("rename", "replace", "unlink", "mkdir", "rmdir", "link", "symlink"):
        monkeypatch.setattr(os, name, refusing(name))


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` read-only for the block (as root: its writes refused by the wrapper)."""
    if os.geteuid() == 0:
        with pytest.MonkeyPatch.context() as patch:
            _deny_writes_in(folder, patch)
            yield
        return
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        yield
    finally:
        folder.chmod(stat.S_IRWXU)


def _files(folder: Path) -> dict[str, bytes]:
    """The folder's files and their bytes (the lock file's mark aside: that file is writable)."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.suffix != ".lock"}


def _damage_snapshot(db: Path) -> None:
    db.write_bytes(db.read_bytes()[:100])


def _tear_journal(db: Path) -> None:
    """A line cut short by a kill mid-write (never acknowledged: nothing is lost)."""
    with open(journal_path(db), "ab") as fh:
        fh.write(b'0badc0de {"op":"rec')


@pytest.mark.parametrize("damage", [_damage_snapshot, _tear_journal], ids=["snapshot", "journal"])
def test_doctor_in_a_read_only_folder_exits_3_and_says_where(
    tmp_path: Path, damage: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    db = folder / "p.json"
    ids = sb.build(db, july=3, august=3, pending=2)
    damage(db)
    before = _files(folder)
    with read_only(folder):
        assert main(["doctor", "--check", "--db", str(db)]) == 3
        code = main(["doctor", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 3, out
    assert "Traceback" not in out.err
    assert "can't repair the store: Permission denied" in out.err, out.err
    assert str(folder) in out.err and "run `quizzer doctor` again" in out.err
    assert _files(folder) == before
    # Writable again, the same command repairs it, every answer kept.
    assert main(["doctor", "--db", str(db)]) == 0
    with sb.open_db(db, read_only=True) as store:
        assert [r.id for r in store.reviews()] == ids
