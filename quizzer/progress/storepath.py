"""What is at a store path (``--db``): a store folder, an old store's file, nothing yet, or
something else that quizzer must leave alone; and the devices of a store folder as this device
sees them (``quizzer devices``). Reads only."""

from __future__ import annotations

from pathlib import Path

import quizzer.progress.device as device
import quizzer.progress.devices as devices
import quizzer.progress.layout as layout
import quizzer.progress.statecache as statecache
import quizzer.progress.upgrade as upgrade
from quizzer.errors import StoreError


def store_exists(path: Path) -> bool:
    """Whether a store is at ``path``: a store folder (its marker or its device folders), an
    old store's file, or an upgrade of one that was cut short."""
    if layout.marker_path(path).is_file() or layout.devices_dir(path).is_dir():
        return True
    return path.is_file() or upgrade.migrating_path(path).exists()


def check_store_path(path: Path) -> Path:
    """``path`` unless something there is not a quizzer store: then :class:`StoreError`.

    Nothing at ``path``, an empty folder and a store folder are fine (a writer makes a new
    store in the first two); a folder holding other things, or a file, is refused before
    anything is written there.
    """
    if path.is_dir():
        # Empty, or holding only what making a store writes first (another process may be
        # making it at this moment: its marker's temp file, the devices folder).
        names = [entry.name for entry in path.iterdir()]
        if store_exists(path) or all(
            name == layout.DEVICES or (name.startswith(".") and layout.MARKER_NAME in name)
            for name in names
        ):
            return path
        raise StoreError(
            "not a quizzer progress store (a folder without quizzer-store.json)",
            hint="give a new or empty folder, or a store folder, as --db; nothing was changed",
            path=path,
        )
    if path.is_file():
        upgrade.check_old_store(path)  # an old store's file: upgraded when opened
    elif path.exists():
        raise StoreError("not a quizzer progress store", path=path)
    return path


def require_store(path: Path) -> Path:
    """``path`` if a quizzer store is there, else :class:`StoreError` (a mistyped ``--db``).

    Commands that only read or repair call this first: opening for writing would otherwise
    create an empty store at the mistyped path.
    """
    check_store_path(path)
    if not store_exists(path):
        raise StoreError(
            "no progress store here",
            hint="check the path given with --db (or $QUIZZER_DB); "
            "a store is made when you first study",
            path=path,
        )
    return path


def list_devices(path: Path) -> list[devices.DeviceInfo]:
    """The device folders of the store folder ``path`` (``quizzer devices``), each with how
    many of its events this device's view hasn't taken in yet: those past the marks of its
    cache (all of them without one). Reads only: no lock, no device made, nothing written."""
    marker = layout.read_marker(path)
    this = device.current_device()
    cache = None
    if marker is not None and marker.store and this:
        cache = statecache.load(statecache.cache_path(marker.store, this))
    return devices.list_devices(path, this=this, marks=cache.marks if cache else {})
