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
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from quizzer.errors import StoreError

if sys.platform != "win32":
    import fcntl

#: Whether this system has ``flock``; where it hasn't (Windows) a pid file, created
#: exclusively, stands in for it.
HAS_FLOCK = sys.platform != "win32"


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
        if not HAS_FLOCK:
            return holder if holder.pid and _alive(holder.pid) else None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return holder  # held exclusively: a writer is at work
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _mark_line(mark: tuple[int, int] | None) -> bytes:
    # Fixed width, so that each new mark overwrites the last in place.
    return b"" if mark is None else b"journal %012d %015d\n" % mark


def parse_mark(text: str) -> tuple[int, int] | None:
    """The journal mark in a lock file's text (``None``: none, or unreadable)."""
    for line in text.split("\n")[3:4]:
        words = line.split()
        if len(words) == 3 and words[0] == "journal" and all(w.isdigit() for w in words[1:]):
            return int(words[1]), int(words[2])
    return None


def read_mark(path: Path) -> tuple[int, int] | None:
    """The journal mark the writer of the store left in its lock file ``path``."""
    try:
        with open(path, "rb") as fh:
            return parse_mark(fh.read(4096).decode("utf-8", "replace"))
    except OSError:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def try_exclusive(fd: int) -> bool:
    """Take an exclusive ``flock`` on ``fd`` without waiting; ``False`` if another holds one."""
    if not HAS_FLOCK:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def journal_in_use(journal: Path) -> bool:
    """Whether a writer holds the journal itself (its :class:`JournalWriter` flocks it)."""
    try:
        fd = os.open(journal, os.O_RDONLY)
    except OSError:
        return False
    try:
        if not try_exclusive(fd):
            return True
        if HAS_FLOCK:
            fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


class StoreLock:
    """Holds ``path`` exclusively until :meth:`release`; raises :class:`StoreError` if taken.

    The lock must hold even when its file is removed or replaced: a second
    process would then lock a new file of the same name. So the writer also flocks the
    journal it appends to (a second writer finds it held, see :func:`journal_in_use`), and
    :meth:`verify`, called before each write, checks that the lock file is still the one
    locked (same device and inode).
    """

    def __init__(self, path: Path, store_path: Path, journal: Path | None = None) -> None:
        self.path = path
        self.store_path = store_path
        self.taken_over: Holder | None = None
        self._fd = -1
        self._identity: tuple[int, int] | None = None
        self._head = b""
        #: The journal mark the last writer left (see :meth:`mark`), ``None`` if none.
        self.previous_mark: tuple[int, int] | None = None
        self._acquire()
        if journal is not None and journal_in_use(journal):
            self.release()
            raise self._busy(Holder(None, "", ""))

    def verify(self) -> None:
        """:class:`StoreError` unless the lock file at :attr:`path` is still the one we lock."""
        if self._identity is None:
            return
        try:
            st = os.stat(self.path)
            same = (st.st_dev, st.st_ino) == self._identity
        except OSError:
            same = False
        if not same:
            raise StoreError(
                "the store's lock file was removed or replaced while this process wrote it",
                hint="close this quizzer and open it again (every answer so far is saved); "
                f"don't remove {self.path} while quizzer runs",
                path=self.store_path,
            )

    def _acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not HAS_FLOCK:
            self._acquire_pidfile()
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = Holder.parse(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
            os.close(fd)
            raise self._busy(holder) from None
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        previous = Holder.parse(text)
        self.previous_mark = parse_mark(text)
        if previous.pid and previous.pid != os.getpid():
            # The kernel released a dead holder's lock: note whose lock we took over.
            self.taken_over = previous
        self._fd = fd
        st = os.fstat(fd)
        self._identity = (st.st_dev, st.st_ino)
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
        self._head = text.encode("utf-8")
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, self._head + _mark_line(self.previous_mark), 0)

    def mark(self, gen: int, end: int) -> None:
        """Note that the journal of generation ``gen`` holds acknowledged events up to ``end``.

        Called after each fsynced append (one small ``pwrite``, no fsync: it only has to
        outlive the process, and a power cut can only leave an older, smaller mark).
        Opening and the doctor compare it with the journal: a journal that holds less
        lost answers to damage, not to a kill: no loss is ever reported as ok.
        """
        if self._fd >= 0:
            os.pwrite(self._fd, self._head + _mark_line((gen, end)), 0)
            self.previous_mark = (gen, end)

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
            # Nobody holds it now (no pid), but the journal's mark stays for the next open.
            os.ftruncate(self._fd, 0)
            if self.previous_mark is not None:
                os.pwrite(self._fd, b"\n\n\n" + _mark_line(self.previous_mark), 0)
        if not HAS_FLOCK:
            os.close(self._fd)
            with contextlib.suppress(OSError):
                self.path.unlink()
        else:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
        self._fd = -1
