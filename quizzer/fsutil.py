"""File-system helpers: atomic, durable writes."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def fsync_dir(directory: Path) -> None:
    """Flush a directory entry (a rename) to disk; a no-op where directories can't be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    The data goes to a temp file in the same directory, is fsynced, renamed over
    ``path``, and the directory is fsynced so the rename survives a power cut.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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
