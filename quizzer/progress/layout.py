"""Where things live inside a several-devices store folder, and the folder's marker file.

A store is a folder ``P``::

    P/quizzer-store.json             the marker: format, version, the store's uuid
    P/devices/<device>/device.json   who owns the folder (the claim of one machine)
    P/devices/<device>/lock          held by the one process writing the folder
    P/devices/<device>/YYYY-MM.log   the open month, one checksummed event per line
    P/devices/<device>/YYYY-MM.json  a closed month, sealed once into a TinyDB file
    P/devices/<device>~merged/       events brought in by ``quizzer merge`` (same rules)

Every device writes only inside its own folders, so a sync engine never sees one file
changed on two machines.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

import msgspec

from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir

MARKER_NAME = "quizzer-store.json"
MARKER_FORMAT = "quizzer-store"
MARKER_VERSION = 3
DEVICES = "devices"
DEVICE_FILE = "device.json"
LOCK_FILE = "lock"
#: The suffix of the folder holding what a device brought in with ``quizzer merge``.
MERGED_SUFFIX = "~merged"
#: The most a marker or device file may hold: they are a few fields.
SMALL_FILE_LIMIT = 64 * 1024

#: A device id or a ``$QUIZZER_DEVICE`` name: safe in a file name on every system.
DEVICE_RE = re.compile(r"[a-z0-9-]{1,32}")
#: ``YYYY-MM`` of a month segment.
MONTH_RE = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")


#: The marker's bytes: the same on every machine, so two devices that each made the store
#: before their first sync wrote the same file (git and Syncthing take identical adds silently).
MARKER_BYTES = b'{"format":"quizzer-store","version":3}\n'
#: What to do when the system refuses a store file or folder.
_ACCESS = "check that the path given with --db (or $QUIZZER_DB) is yours to read and write"
#: Where a damaged marker's bytes are kept when it is written again.
DAMAGED_MARKER = MARKER_NAME + ".damaged"


@dataclass(frozen=True, slots=True)
class StoreMarker:
    """What ``quizzer-store.json`` says, and the store's id on this machine.

    ``store`` names the store for the caches outside it: the marker's own ``store`` field when
    an earlier version wrote one, else an id of this folder on this machine (its real path and
    the marker file's identity), so a store made again at the same path gets new caches.
    ``damaged``: the marker doesn't read, but the folder holds device folders (it is a store):
    :func:`create_store` writes it again.
    """

    store: str
    damaged: bool = False


def _local_id(path: Path) -> str:
    info = os.stat(path)
    text = f"{os.path.realpath(path)}\0{info.st_dev}\0{info.st_ino}"
    return str(uuid.UUID(bytes=hashlib.sha256(os.fsencode(text)).digest()[:16]))


def marker_path(store: Path) -> Path:
    """The marker file of the store folder ``store``."""
    return store / MARKER_NAME


def devices_dir(store: Path) -> Path:
    """The folder holding one sub-folder per device."""
    return store / DEVICES


def device_dir(store: Path, device: str) -> Path:
    """The folder ``device`` alone writes."""
    return devices_dir(store) / device


def legacy_dir(store: Path) -> Path:
    """Where an upgraded store's old files are kept: ``P.legacy-v2`` beside ``P``."""
    return store.with_name(store.name + ".legacy-v2")


def month_of(moment: datetime) -> str:
    """The ``YYYY-MM`` (UTC) of a timezone-aware time."""
    utc = moment.astimezone(UTC)
    return f"{utc.year:04d}-{utc.month:02d}"


def next_month(month: str) -> str:
    """The ``YYYY-MM`` after ``month``."""
    year, number = int(month[:4]), int(month[5:7])
    return f"{year + number // 12:04d}-{number % 12 + 1:02d}"


def log_path(folder: Path, month: str) -> Path:
    """The open log of ``month`` in a device folder."""
    return folder / f"{month}.log"


def device_folders(store: Path) -> list[Path]:
    """Every device folder of ``store`` (merged ones too), sorted by name; none if there is no
    ``devices`` folder yet. Anything else there (a stray file, a sync engine's temp folder) is
    left out."""
    try:
        entries = sorted(devices_dir(store).iterdir())
    except FileNotFoundError:
        return []
    device = DEVICE_RE.fullmatch
    return [e for e in entries if e.is_dir() and device(e.name.removesuffix(MERGED_SUFFIX))]


def read_marker(store: Path) -> StoreMarker | None:
    """The marker of ``store``, ``None`` if the folder has none. A marker that doesn't read
    is :attr:`~StoreMarker.damaged` when the folder holds device folders, else a
    :class:`StoreError` (a file of that name quizzer didn't write); one of a newer version is
    a :class:`StoreError`."""
    path = marker_path(store)
    try:
        with open_file(path) as fh:
            data = fh.read(SMALL_FILE_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise failed("read the store's marker", error, path, _ACCESS) from error
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError:
        value = None
    ours = isinstance(value, dict) and value.get("format") == MARKER_FORMAT
    if not ours or type(value.get("version")) is not int:
        if devices_dir(store).is_dir():
            return StoreMarker(_local_id(path), damaged=True)
        raise StoreError(
            "this is not a quizzer store marker",
            hint="the folder holds a file of that name quizzer didn't write; give another --db",
            path=path,
        )
    if value["version"] > MARKER_VERSION:
        raise StoreError(
            f"the store was written by a newer quizzer (format {value['version']})",
            hint="update quizzer to open it",
            path=path,
        )
    own = value.get("store")
    return StoreMarker(own if isinstance(own, str) and own else _local_id(path))


def create_store(store: Path) -> StoreMarker:
    """Make ``store`` a store folder (the folder, its ``devices`` folder and the marker) and
    return its marker. An existing marker is kept as it is; a damaged one is written again
    (its bytes kept in ``quizzer-store.json.damaged``). The marker is written whole or not at
    all, and its bytes are the same on every machine (no time, no id in them)."""
    try:
        found = read_marker(store)
        if found is not None and found.damaged:
            path = marker_path(store)
            atomic_write_bytes(store / DAMAGED_MARKER, path.read_bytes())
            atomic_write_bytes(path, MARKER_BYTES)
            found = read_marker(store)
        if found is not None:
            devices_dir(store).mkdir(exist_ok=True)
            return found
        store.mkdir(parents=True, exist_ok=True)
        create_exclusive(marker_path(store), MARKER_BYTES)
        devices_dir(store).mkdir(exist_ok=True)
        fsync_dir(store)
        fsync_dir(store.parent)
        made = read_marker(store)
    except OSError as error:
        raise failed("create the store folder", error, store, _ACCESS) from error
    assert made is not None
    return made


def create_exclusive(path: Path, data: bytes) -> bool:
    """Write ``data`` as the new file ``path`` whole or not at all, unless ``path`` exists:
    a temp file is written and fsynced, then hard-linked to ``path`` (which fails if another
    process made it first) and the folder fsynced. Returns whether this call created it."""
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        _write_new(temp, data)
        os.link(temp, path)
    except FileExistsError:
        return False
    except OSError:
        # No hard links here (FAT, some network shares): an exclusive create instead.
        try:
            _write_new(path, data)
        except FileExistsError:
            return False
    finally:
        temp.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return True


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dir(folder: Path) -> None:
    """Create ``folder`` (and its parents) and flush the new entry into its parent."""
    if folder.is_dir():
        return
    folder.mkdir(parents=True, exist_ok=True)
    fsync_dir(folder.parent)


def read_file(path: Path, limit: int, start: int = 0) -> bytes:
    """The bytes of ``path`` (opened by :func:`open_file`) from ``start`` on. A file larger
    than ``limit`` is refused unread: an ``OSError`` whose text says so and what to do."""
    with open_file(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise OSError(
                errno.EFBIG,
                f"it is larger than {limit // 2**20} MB, the most quizzer reads of such a file; "
                "if it isn't quizzer's, move it elsewhere",
            )
        fh.seek(start)
        return fh.read(size - start) if size >= start else b""


def why(error: OSError | ValueError) -> str:
    """What went wrong, in words: an ``OSError``'s text without Python's decoration."""
    return (error.strerror or "the system refused") if isinstance(error, OSError) else str(error)


def failed(doing: str, error: OSError, path: Path, hint: str | None = None) -> StoreError:
    """The :class:`StoreError` for an ``OSError`` met while ``doing`` something to ``path``."""
    return StoreError(f"can't {doing}: {why(error)}", hint=hint, path=path)


def open_file(path: Path) -> BinaryIO:
    """``path`` opened for reading, never blocking: a plain ``open`` of a named pipe waits
    for a writer for ever. Anything but a regular file (a pipe, a device, a folder) put
    where a store file belongs is an ``OSError`` whose text says what it is and what to do."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device or a folder"
        raise OSError(
            errno.EINVAL,
            f"{path.name} is {kind}, not a file quizzer wrote; move it out of the folder",
        )
    return os.fdopen(fd, "rb")
