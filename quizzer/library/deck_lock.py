"""One writer per user deck: an import holds its deck's lock from reading the deck to writing it.

Two imports into one deck at the same moment would each read the old deck, merge their own
glossaries into it and write the file; the second rename would silently drop the first
import's concepts. The lock makes the second import stop with a message instead, before it has
read anything. The lock file (``.<deck id>.import.lock`` in the deck folder) exists only while
an import runs: it is removed before it is unlocked, and a process that locked a file already
removed (it opened it just before) finds the name gone or another file under it, and stops.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from quizzer.errors import InputError

if sys.platform != "win32":
    import fcntl


def lock_path(directory: Path, deck_id: str) -> Path:
    """The lock file of the user deck ``deck_id`` in ``directory``."""
    return directory / f".{deck_id}.import.lock"


@contextlib.contextmanager
def deck_lock(directory: Path, deck_id: str) -> Iterator[None]:
    """Hold the lock of deck ``deck_id`` in ``directory`` (created if need be) while the
    block runs; an :class:`InputError` at once if another import holds it."""
    if sys.platform == "win32":  # no flock: imports there are not guarded
        yield
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = lock_path(directory, deck_id)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise InputError(
            f"can't write in the deck folder: {exc.strerror or exc}",
            hint="choose a writable --into folder (or $QUIZZER_DECKS), or check its permissions",
            path=directory,
        ) from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not _still_named(fd, path):  # locked after its holder removed it
                raise BlockingIOError
        except BlockingIOError:
            raise InputError(
                f"another import into deck {deck_id!r} is running",
                hint="wait for it to finish, then run this import again (it will merge into "
                "what the other one wrote)",
                path=directory,
            ) from None
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                path.unlink()
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _still_named(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
