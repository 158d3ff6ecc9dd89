"""File-system helpers: atomic, durable writes, and bounded reads of regular files only."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from quizzer.errors import InputError

#: What each kind of non-regular file is called in messages.
_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def _check_regular(mode: int, path: Path, what: str) -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _FILE_KINDS if test(mode)), "not a regular file")
        raise InputError(f"is {kind}, not a {what} file", hint=f"give a {what} file", path=path)


def _too_big(path: Path, limit: int, what: str) -> InputError:
    return InputError(
        f"the {what} file is larger than {limit // 2**20} MB, the most quizzer reads",
        hint=f"is this really a {what} file? split it into smaller files",
        path=path,
    )


def read_regular_file(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path``, a regular file (a symlink to one is fine) of at most ``limit``.

    ``/dev/zero`` would be read until memory runs out and a FIFO would block forever:
    anything but a regular file is an :class:`InputError` (``what`` names the file's role,
    e.g. "glossary"), found by ``stat`` before opening. The file is opened non-blocking
    (it may have been swapped for a FIFO since) and checked again. A file whose size is
    over ``limit`` is refused unread, and at most ``limit + 1`` bytes are ever read.
    Other failures (missing file, permissions) raise the ``OSError``.
    """
    path = Path(path)
    _check_regular(os.stat(path).st_mode, path, what)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        _check_regular(info.st_mode, path, what)
        if info.st_size > limit:
            raise _too_big(path, limit, what)
        # Asking for the file's size (not the limit) spares a limit-sized buffer; a file
        # that grew meanwhile is read on, up to the limit.
        data = fh.read(info.st_size + 1)
        if len(data) > info.st_size:
            data += fh.read(limit + 1 - len(data))
    if len(data) > limit:
        raise _too_big(path, limit, what)
    return data


def fsync_dir(directory: Path) -> None:
    """Flush a directory entry (a rename) to disk; a no-op where directories can't be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def current_umask() -> int:
    """The process's umask (read without changing it where /proc allows)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere: the classic set-and-restore
    os.umask(mask)
    return mask


def _target_mode(path: Path) -> int:
    """The mode the written file should have: the replaced file's, else 0o666 minus umask.

    ``mkstemp`` creates its file 0600; left so, every rewrite would make a deck file or
    an export private to its owner, unlike any file the user's tools create.
    """
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~current_umask()


#: A temp file this old is no running writer's: a writer touches its file as it writes.
STALE_TEMP_SECONDS = 60.0


def _temp_pattern(suffix: str) -> re.Pattern[str]:
    """Names of :func:`atomic_write_bytes`'s temp files for targets ending in ``suffix``:
    ``.NAME{suffix}.XXXXXXXX.tmp`` (``mkstemp``'s eight random characters)."""
    return re.compile(rf"\..+{re.escape(suffix)}\.[a-z0-9_]{{8}}\.tmp")


def remove_stale_temps(directory: Path, suffix: str, now: float | None = None) -> list[Path]:
    """Remove the temp files a killed :func:`atomic_write_bytes` left in ``directory``.

    Only files recognisably ours: named exactly like our temp files for targets ending in
    ``suffix`` (``.deck.toml.k3j_x9qa.tmp``), regular files (not symlinks) owned by this
    user, untouched for :data:`STALE_TEMP_SECONDS` (a running writer's file is newer).
    Returns what was removed; any failure to look or remove is ignored.
    """
    pattern = _temp_pattern(suffix)
    now = time.time() if now is None else now
    removed: list[Path] = []
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            if not pattern.fullmatch(entry.name):
                continue
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if (
                    stat.S_ISREG(info.st_mode)
                    and info.st_uid == os.getuid()
                    and now - info.st_mtime > STALE_TEMP_SECONDS
                ):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


def atomic_write_bytes(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    ``data`` may come in pieces (an iterable of bytes), written as they come.

    The data goes to a temp file in the same directory, is fsynced, renamed over
    ``path``, and the directory is fsynced so the rename survives a power cut. The
    file keeps the mode of the file it replaces; a new file gets the umask's mode.
    Temp files that killed writes left beside it are removed first.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(path.parent, path.suffix or path.name)
    mode = _target_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with contextlib.suppress(OSError):  # e.g. file systems without Unix modes
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                fh.writelines(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text (newlines written as given)."""
    atomic_write_bytes(path, text.encode("utf-8"))


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
