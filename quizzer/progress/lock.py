"""One writer per store: an exclusive lock on ``<store>.lock`` that names its holder.

The lock is an OS file lock (``flock``), so the kernel drops it when the
holding process dies, even by ``kill -9``: a stale lock is simply taken over.
The file's text says which process holds it (pid, host, since when) so a
refused second process can tell the user who to close. Where ``flock`` is
missing (Windows) the file itself is the lock and a holder pid that no longer
runs counts as stale.
"""

from __future__ import annotations

import contextlib
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from quizzer.errors import StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds (or held) a lock, as written in the lock file."""

    pid: int | None
    host: str
    since: str

    @classmethod
    def parse(cls, text: str) -> Holder:
        """Read ``pid host since`` lines; missing parts stay empty."""
        parts = text.split("\n")
        try:
            pid: int | None = int(parts[0])
        except (ValueError, IndexError):
            pid = None
        host = parts[1] if len(parts) > 1 else ""
        since = parts[2] if len(parts) > 2 else ""
        return cls(pid, host, since)

    def describe(self) -> str:
        """``"process 1234 on host (since …)"``."""
        who = f"process {self.pid}" if self.pid else "another process"
        if self.host:
            who += f" on {self.host}"
        if self.since:
            who += f" (since {self.since})"
        return who


#: The commands that open the store read-only, so they work while another quizzer writes it.
READ_ONLY_COMMANDS = (
    "`quizzer stats`, `quizzer leeches`, `quizzer settings` (without --set/--reset), "
    "`quizzer log export`, `quizzer export anki --with-progress` and `quizzer doctor --check`"
)


def active_holder(path: Path) -> Holder | None:
    """Who holds the lock file ``path`` now (a writer with the store open), else ``None``.

    Reads without taking the lock for longer than a test: an empty file, no file or a lock
    the kernel released (its holder died) all mean nobody writes.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        if not text.strip():
            return None
        holder = Holder.parse(text)
        if fcntl is None:  # pragma: no cover - Windows
            return holder if holder.pid and _alive(holder.pid) else None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return holder  # held exclusively: a writer is at work
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


class StoreLock:
    """Holds ``path`` exclusively until :meth:`release`; raises :class:`StoreError` if taken."""

    def __init__(self, path: Path, store_path: Path) -> None:
        self.path = path
        self.store_path = store_path
        self.taken_over: Holder | None = None
        self._fd = -1
        self._acquire()

    def _acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if fcntl is None:  # pragma: no cover - Windows
            self._acquire_pidfile()
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = Holder.parse(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
            os.close(fd)
            raise self._busy(holder) from None
        previous = Holder.parse(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
        if previous.pid and previous.pid != os.getpid():
            # The kernel released a dead holder's lock: note whose lock we took over.
            self.taken_over = previous
        self._fd = fd
        self._write_holder()

    def _acquire_pidfile(self) -> None:  # pragma: no cover - Windows
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                holder = Holder.parse(self.path.read_text("utf-8", "replace"))
                if holder.pid and _alive(holder.pid):
                    raise self._busy(holder) from None
                self.taken_over = holder
                with contextlib.suppress(OSError):
                    self.path.unlink()
                continue
            self._fd = fd
            self._write_holder()
            return
        raise self._busy(Holder(None, "", ""))

    def _write_holder(self) -> None:
        text = f"{os.getpid()}\n{socket.gethostname()}\n{datetime.now(UTC).isoformat()}\n"
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, text.encode("utf-8"), 0)

    def _busy(self, holder: Holder) -> StoreError:
        return StoreError(
            f"the progress store is in use by {holder.describe()}",
            hint=f"close the other quizzer first; meanwhile {READ_ONLY_COMMANDS} read the store "
            f"without waiting for it (lock file: {self.path})",
            path=self.store_path,
        )

    def release(self) -> None:
        """Give the lock up (the file stays; an empty file means nobody holds it)."""
        if self._fd < 0:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        if fcntl is None:  # pragma: no cover - Windows
            os.close(self._fd)
            with contextlib.suppress(OSError):
                self.path.unlink()
        else:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
        self._fd = -1
