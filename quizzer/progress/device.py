"""This machine's device identity, its claim on a device folder, and the folder's lock.

The identity lives in :func:`quizzer.paths.state_dir` (never in the synced store folder):
``device.json`` holds ``{"device": id, "claim": uuid, "host": hostname}``, made on first
use; ``$QUIZZER_DEVICE=name`` names the device instead (``devices/<name>.json`` there).
A device folder's ``device.json`` carries the claim of the machine that made it. When the
claims differ the folder was copied from another machine (or the state dir was): this
machine then takes a new id, so two machines never write one file. Two processes of one
device on one machine meet at the folder's ``lock`` (an OS ``flock``, dropped by the kernel
when its holder dies): the second gets a :class:`StoreError` and writes nothing.
"""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import msgspec

import quizzer.progress.layout as layout
from quizzer import paths
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes

if sys.platform != "win32":
    import fcntl

#: The environment variable that names this device (for scripts and tests).
ENV_DEVICE = "QUIZZER_DEVICE"
_POLL_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class Identity:
    """Who this machine is in a store: the device id, the claim that proves a folder is
    ours, and the name shown in ``quizzer devices``."""

    device: str
    claim: str
    name: str


def requested_name() -> str | None:
    """``$QUIZZER_DEVICE`` when set; a name that isn't safe is a :class:`StoreError`."""
    name = os.environ.get(ENV_DEVICE) or None
    if name and not layout.DEVICE_RE.fullmatch(name):
        hint = "use 1 to 32 characters of a-z, 0-9 and '-'"
        raise StoreError(f"${ENV_DEVICE} is {name!r}, not a device name", hint=hint)
    return name


def new_device_id() -> str:
    """A short random id: 10 lowercase base32 characters (50 bits)."""
    return base64.b32encode(os.urandom(7)).decode("ascii")[:10].lower()


def _state_file(name: str | None) -> Path:
    if name is None:
        return paths.state_dir() / layout.DEVICE_FILE
    return paths.state_dir() / "devices" / f"{name}.json"


def _read_small(path: Path) -> dict[str, object] | None:
    try:
        with layout.open_file(path) as fh:
            value = msgspec.json.decode(fh.read(layout.SMALL_FILE_LIMIT))
    except (FileNotFoundError, msgspec.DecodeError):
        return None
    except OSError as error:
        raise layout.failed(f"read {path.name}", error, path) from error
    return value if isinstance(value, dict) else None


def _save_identity(name: str | None, identity: Identity, *, exclusive: bool = False) -> bool:
    """Write ``identity`` as this machine's (for ``name``); whether it was written (an
    exclusive write loses to another process that made the file first)."""
    path = _state_file(name)
    record = {"device": identity.device, "claim": identity.claim, "host": socket.gethostname()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if exclusive:
            return layout.create_exclusive(path, msgspec.json.encode(record) + b"\n")
        atomic_write_bytes(path, msgspec.json.encode(record) + b"\n")
    except OSError as error:
        hint = f"check that {paths.ENV_STATE} (or the user state dir) is writable"
        raise layout.failed("save this device's identity", error, path, hint) from error
    return True


def local_identity(name: str | None = None) -> tuple[Identity, bool]:
    """This machine's identity as device ``name`` (``None``: its own random id), made and
    saved on first use; and whether it was made just now. A record written on another host
    (a copied state dir) is replaced by a fresh one."""
    record = _read_small(_state_file(name))
    shown = name or socket.gethostname()
    ours = record if record and record.get("host") == socket.gethostname() else {}
    device, claim = ours.get("device"), ours.get("claim")
    if isinstance(device, str) and layout.DEVICE_RE.fullmatch(device) and isinstance(claim, str):
        return Identity(device, claim, shown), False
    identity = Identity(name or new_device_id(), str(uuid.uuid4()), shown)
    # Exclusive when there was none: two processes starting at once must end with one claim.
    if not _save_identity(name, identity, exclusive=record is None):
        return local_identity(name)
    return identity, True


def current_device() -> str | None:
    """This machine's device id if it has one already (made by an earlier open), without
    making one: for read-only commands."""
    name = requested_name()
    record = _read_small(_state_file(name)) or {}
    found = record.get("device") if record.get("host") == socket.gethostname() else None
    return found if isinstance(found, str) else name


class DeviceLock:
    """The ``flock`` on a lock file (a device folder's ``lock``), held until :meth:`release`;
    ``busy`` says what it means that another process holds it (waited for up to ``wait``
    seconds)."""

    def __init__(self, path: Path, busy: str, wait: float = 0.0) -> None:
        self.path = path
        try:
            self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as error:
            raise layout.failed("open the lock file", error, path) from error
        if sys.platform == "win32":  # no flock: the folder's claim is the only guard there
            return
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self.release()
                    hint = "close the other quizzer (or let it finish), then try again"
                    raise StoreError(busy, hint=hint, path=path) from None
                time.sleep(_POLL_SECONDS)

    def release(self) -> None:
        """Drop the lock (closing the file drops the ``flock``); safe to call twice."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


@dataclass(slots=True)
class ClaimedDevice:
    """A device folder this process may write: its id, folder and lock, and a ``notice``
    for the user when this machine had to take a new id."""

    store: Path
    identity: Identity
    lock: DeviceLock
    notice: str | None = None

    @property
    def device(self) -> str:
        """The device id."""
        return self.identity.device

    @property
    def folder(self) -> Path:
        """The folder this device alone writes."""
        return layout.device_dir(self.store, self.identity.device)

    @property
    def merged_folder(self) -> Path:
        """The folder of the events this device brought in by ``quizzer merge``."""
        return layout.device_dir(self.store, self.identity.device + layout.MERGED_SUFFIX)

    def release(self) -> None:
        """Give up the folder's lock."""
        self.lock.release()

    def __enter__(self) -> ClaimedDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _folder_record(identity: Identity, now: datetime) -> bytes:
    record = {"device": identity.device, "name": identity.name}
    record |= {"created": now.astimezone(UTC).isoformat(timespec="seconds")}
    record |= {"claim": identity.claim}
    return msgspec.json.encode(record) + b"\n"


def folder_record(folder: Path, key: str) -> str | None:
    """A text of a device folder's ``device.json`` (``claim``, ``name``), if it reads."""
    record = _read_small(folder / layout.DEVICE_FILE)
    value = record.get(key) if record else None
    return value if isinstance(value, str) else None


def claim_device(store: Path, now: datetime, *, wait: float = 0.0) -> ClaimedDevice:
    """Take this machine's device folder in the store folder ``store`` for writing.

    Makes the folder and its ``device.json`` on first use; takes the folder's lock (waiting
    up to ``wait`` seconds for another process of this device, then a :class:`StoreError`);
    takes a new id when the folder belongs to another machine's claim.
    """
    name = requested_name()
    identity, made = local_identity(name)
    notice: str | None = None
    for _attempt in range(5):
        folder = layout.device_dir(store, identity.device)
        try:
            layout.make_dir(folder)
        except OSError as error:
            raise layout.failed("create the device folder", error, folder) from error
        busy = f"another quizzer on this machine is writing as device {identity.device}"
        lock = DeviceLock(folder / layout.LOCK_FILE, busy, wait)
        try:
            claim = folder_record(folder, "claim")
            if claim is None:
                record = _folder_record(identity, now)
                made_it = layout.create_exclusive(folder / layout.DEVICE_FILE, record)
                claim = identity.claim if made_it else folder_record(folder, "claim")
            if claim == identity.claim:
                return ClaimedDevice(store, identity, lock, notice)
            if made and name is not None and claim is not None:
                # A script names the device and this state dir never saw it: the name says
                # which folder is ours (a fresh state dir beside a kept store).
                identity = Identity(identity.device, claim, identity.name)
                _save_identity(name, identity)
                return ClaimedDevice(store, identity, lock, notice)
        except OSError as error:
            lock.release()
            raise layout.failed("claim the device folder", error, folder) from error
        except BaseException:
            lock.release()
            raise
        lock.release()
        old = identity.device
        fresh = new_device_id()
        device = fresh if name is None else f"{name[:21]}-{fresh[:10]}"
        identity = Identity(device, str(uuid.uuid4()), identity.name)
        _save_identity(name, identity)
        made = False
        notice = (
            f"the device folder {old!r} belongs to another machine (it was copied here); "
            f"this machine now writes as device {device!r}"
        )
    raise StoreError("can't find a device folder of this machine's own", path=store)
