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

import os
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

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
LOG_SUFFIX = ".log"
SEALED_SUFFIX = ".json"
#: The most a marker or device file may hold: they are a few fields.
SMALL_FILE_LIMIT = 64 * 1024

#: A device id or a ``$QUIZZER_DEVICE`` name: safe in a file name on every system.
DEVICE_RE = re.compile(r"[a-z0-9-]{1,32}")
#: ``YYYY-MM`` of a month segment.
MONTH_RE = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")


@dataclass(frozen=True, slots=True)
class StoreMarker:
    """What ``quizzer-store.json`` says: which store this folder is and since when."""

    store: str
    created: str
    version: int = MARKER_VERSION


def marker_path(store: Path) -> Path:
    """The marker file of the store folder ``store``."""
    return store / MARKER_NAME


def devices_dir(store: Path) -> Path:
    """The folder holding one sub-folder per device."""
    return store / DEVICES


def device_dir(store: Path, device: str) -> Path:
    """The folder ``device`` alone writes."""
    return devices_dir(store) / device


def merged_dir(store: Path, device: str) -> Path:
    """The folder of events ``device`` brought in with ``quizzer merge``."""
    return devices_dir(store) / f"{device}{MERGED_SUFFIX}"


def legacy_dir(store: Path) -> Path:
    """Where an upgraded store's old files are kept: ``P.legacy-v2`` beside ``P``."""
    return store.with_name(store.name + ".legacy-v2")


def month_of(at_ms: int) -> str:
    """The ``YYYY-MM`` (UTC) of a time in milliseconds since the epoch."""
    return datetime.fromtimestamp(at_ms / 1000, UTC).strftime("%Y-%m")


def next_month(month: str) -> str:
    """The ``YYYY-MM`` after ``month``."""
    year, number = int(month[:4]), int(month[5:7])
    return f"{year + number // 12:04d}-{number % 12 + 1:02d}"


def log_path(folder: Path, month: str) -> Path:
    """The open log of ``month`` in a device folder."""
    return folder / f"{month}{LOG_SUFFIX}"


def sealed_path(folder: Path, month: str) -> Path:
    """The sealed TinyDB file of ``month`` in a device folder."""
    return folder / f"{month}{SEALED_SUFFIX}"


def is_device_name(name: str) -> bool:
    """Whether ``name`` is a folder name a device (or its merged events) may have."""
    base = name.removesuffix(MERGED_SUFFIX)
    return DEVICE_RE.fullmatch(base) is not None


def device_folders(store: Path) -> list[Path]:
    """Every device folder of ``store`` (merged ones too), sorted by name; none if there is no
    ``devices`` folder yet. Anything else there (a stray file, a sync engine's temp folder) is
    left out."""
    try:
        entries = sorted(devices_dir(store).iterdir())
    except FileNotFoundError:
        return []
    return [entry for entry in entries if entry.is_dir() and is_device_name(entry.name)]


def read_marker(store: Path) -> StoreMarker | None:
    """The marker of ``store``, ``None`` if the folder has none. A marker that isn't one of
    ours (not JSON, another format, a newer version) is a :class:`StoreError`."""
    path = marker_path(store)
    try:
        with open(path, "rb") as fh:
            data = fh.read(SMALL_FILE_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(f"can't read the store's marker: {error.strerror}", path=path) from error
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError:
        value = None
    if (
        not isinstance(value, dict)
        or value.get("format") != MARKER_FORMAT
        or not isinstance(value.get("store"), str)
        or not isinstance(value.get("version"), int)
    ):
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
    created = value.get("created")
    return StoreMarker(
        value["store"], created if isinstance(created, str) else "", value["version"]
    )


def create_store(store: Path, now: datetime) -> StoreMarker:
    """Make ``store`` a store folder (the folder, its ``devices`` folder and the marker) and
    return its marker; an existing marker is kept as it is. The marker is written once,
    atomically (temp file, fsync, rename, fsync of the folder)."""
    found = read_marker(store)
    if found is not None:
        devices_dir(store).mkdir(exist_ok=True)
        return found
    try:
        store.mkdir(parents=True, exist_ok=True)
        marker = StoreMarker(str(uuid.uuid4()), now.astimezone(UTC).isoformat(timespec="seconds"))
        text = {"format": MARKER_FORMAT, "version": marker.version}
        text |= {"store": marker.store, "created": marker.created}
        if not create_exclusive(marker_path(store), msgspec.json.encode(text) + b"\n"):
            # Another device created the store at the same moment: its marker stands.
            marker = read_marker(store) or marker
        devices_dir(store).mkdir(exist_ok=True)
        fsync_dir(store)
        fsync_dir(store.parent)
    except OSError as error:
        raise StoreError(
            f"can't create the store folder: {error.strerror or error}", path=store
        ) from error
    return marker


def create_exclusive(path: Path, data: bytes) -> bool:
    """Write ``data`` as the new file ``path`` whole or not at all, unless ``path`` exists:
    a temp file is written and fsynced, then hard-linked to ``path`` (which fails if another
    process made it first) and the folder fsynced. Returns whether this call created it."""
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    atomic_write_bytes(temp, data)
    try:
        os.link(temp, path)
    except FileExistsError:
        return False
    except OSError:
        # No hard links here (FAT, some network shares): an exclusive create instead.
        return _create_in_place(path, data)
    finally:
        temp.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return True


def _create_in_place(path: Path, data: bytes) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        return False
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(path.parent)
    return True


def make_dir(folder: Path) -> None:
    """Create ``folder`` (and its parents) and flush the new entry into its parent."""
    if folder.is_dir():
        return
    folder.mkdir(parents=True, exist_ok=True)
    fsync_dir(folder.parent)


def file_size(path: Path) -> int | None:
    """The size of ``path``, ``None`` if it doesn't exist."""
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return None
