"""Two real Syncthing daemons on 127.0.0.1 sharing one folder, for the sync tests.

Each daemon gets its own home (keys, config, database) under the test's temporary
folder, a GUI/REST port and a sync port picked free, and only the other daemon as a peer
at a fixed ``tcp://127.0.0.1:port`` address: global and local discovery, relays, NAT
traversal, usage and crash reporting and upgrades are all off, so nothing leaves the
machine. The shared folder has no file watcher and no periodic rescan: a test writes its
files, then :meth:`Pair.wait_in_sync` asks both daemons to scan and waits until each has
everything the other has, so a test is as fast as Syncthing itself and never races a
watcher's delay. "Offline" is the folder paused through the REST API on both sides.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The id both daemons give the shared folder.
FOLDER_ID = "quizzer"

#: How long a daemon may take to answer, to connect, or to get in sync (seconds): far above
#: what a run takes (well under a second each), so a slow shared machine does not fail a test.
TIMEOUT = 60.0


def installed() -> bool:
    """Whether the ``syncthing`` binary is on the PATH."""
    return shutil.which("syncthing") is not None


class SyncthingError(RuntimeError):
    """A daemon did not start, answer or get in sync in time; says which and why."""


def _free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _set(parent: ET.Element, tag: str, text: str) -> None:
    """Set the text of ``parent``'s child ``tag``, adding the child if it is missing."""
    child = parent.find(tag)
    if child is None:
        child = ET.SubElement(parent, tag)
    child.text = text


@dataclass
class Daemon:
    """One Syncthing daemon: its home, its ports, its API key and its process."""

    name: str
    home: Path
    folder: Path
    gui_port: int = field(default_factory=_free_port)
    sync_port: int = field(default_factory=_free_port)
    apikey: str = ""
    device_id: str = ""
    process: subprocess.Popen[bytes] | None = None

    def generate(self) -> None:
        """Make the home: keys, a certificate and a default config; learn the device id."""
        self.home.mkdir(parents=True)
        subprocess.run(
            ["syncthing", "generate", f"--home={self.home}", "--no-default-folder"],
            check=True,
            capture_output=True,
            env=_environment(),
        )
        self.device_id = subprocess.run(
            ["syncthing", f"--home={self.home}", "--device-id"],
            check=True,
            capture_output=True,
            text=True,
            env=_environment(),
        ).stdout.strip()

    def configure(self, peer: Daemon) -> None:
        """Rewrite the config: local only, ``peer`` as the one other device, one folder."""
        path = self.home / "config.xml"
        tree = ET.parse(path)
        root = tree.getroot()
        gui = root.find("gui")
        options = root.find("options")
        assert gui is not None and options is not None, path
        _set(gui, "address", f"127.0.0.1:{self.gui_port}")
        self.apikey = gui.findtext("apikey") or ""
        settings = {
            "listenAddress": f"tcp://127.0.0.1:{self.sync_port}",
            "globalAnnounceEnabled": "false",
            "localAnnounceEnabled": "false",
            "relaysEnabled": "false",
            "natEnabled": "false",
            "urAccepted": "-1",
            "urSeen": "3",
            "crashReportingEnabled": "false",
            "autoUpgradeIntervalH": "0",
            "startBrowser": "false",
            "reconnectionIntervalS": "1",
            "stunServer": "",
        }
        for tag, text in settings.items():
            _set(options, tag, text)
        # The generated config lists this device; add the peer at its fixed address.
        device = ET.SubElement(
            root, "device", id=peer.device_id, name=peer.name, compression="metadata"
        )
        _set(device, "address", f"tcp://127.0.0.1:{peer.sync_port}")
        folder = ET.Element(
            "folder",
            id=FOLDER_ID,
            label=FOLDER_ID,
            path=str(self.folder),
            type="sendreceive",
            rescanIntervalS="0",
            fsWatcherEnabled="false",
            ignorePerms="false",
            autoNormalize="true",
        )
        for device_id in (self.device_id, peer.device_id):
            ET.SubElement(folder, "device", id=device_id)
        _set(folder, "paused", "false")
        # The folder goes before the devices, where Syncthing writes its folders.
        root.insert(0, folder)
        tree.write(path, encoding="unicode")
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / ".stfolder").mkdir(exist_ok=True)

    def start(self) -> None:
        """Start the daemon, its output going to ``home/syncthing.log``."""
        with open(self.home / "syncthing.log", "ab") as log:
            self.process = subprocess.Popen(
                [
                    "syncthing",
                    "serve",
                    f"--home={self.home}",
                    "--no-browser",
                    "--no-restart",
                    "--no-upgrade",
                    "--no-default-folder",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=_environment(),
            )

    def stop(self) -> None:
        """Stop the daemon (terminate, then kill if it lingers) and reap it."""
        self.terminate()
        self.reap()

    def terminate(self) -> None:
        """Ask the daemon to stop (SIGTERM) without waiting for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def reap(self) -> None:
        """Wait for a terminated daemon to exit (killing it after 10 s)."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log_tail(self, lines: int = 20) -> str:
        """The last lines the daemon logged, for a failure's message."""
        path = self.home / "syncthing.log"
        if not path.exists():
            return "(no log)"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def rest(
        self, method: str, endpoint: str, body: Any = None, timeout: float = TIMEOUT, **query: str
    ) -> Any:
        """Call the REST API: ``method`` on ``/rest/endpoint?query``; the decoded JSON answer."""
        url = f"http://127.0.0.1:{self.gui_port}/rest/{endpoint}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("X-API-Key", self.apikey)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw.strip() else None

    def wait_ready(self, deadline: float) -> None:
        """Wait until the REST API answers."""
        while True:
            if self.process is not None and self.process.poll() is not None:
                raise SyncthingError(f"{self.name} exited:\n{self.log_tail()}")
            try:
                # A short wait: what answers on the port may not be this daemon (taken).
                if self.rest("GET", "system/ping", timeout=2) == {"ping": "pong"}:
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            _tick(deadline, f"{self.name}'s REST API did not answer", self)

    def connected_to(self, peer: Daemon) -> bool:
        """Whether this daemon holds a connection to ``peer``."""
        connections = self.rest("GET", "system/connections")["connections"]
        return bool(connections.get(peer.device_id, {}).get("connected"))

    def scan(self) -> None:
        """Scan the shared folder now (returns once the scan is done)."""
        self.rest("POST", "db/scan", folder=FOLDER_ID)

    def status(self) -> dict[str, Any]:
        """The folder's status (state, local and global counts, what it still needs)."""
        status: dict[str, Any] = self.rest("GET", "db/status", folder=FOLDER_ID)
        return status

    def completion(self, peer: Daemon) -> dict[str, Any]:
        """How complete ``peer``'s copy of the folder is, as far as this daemon knows."""
        completion: dict[str, Any] = self.rest(
            "GET", "db/completion", folder=FOLDER_ID, device=peer.device_id
        )
        return completion

    def set_paused(self, paused: bool) -> None:
        """Pause (offline) or resume the shared folder through the config API."""
        self.rest("PATCH", f"config/folders/{FOLDER_ID}", {"paused": paused})


def _environment() -> dict[str, str]:
    """The daemons' environment: no upgrades, no restarts, no default folder."""
    return dict(os.environ, STNOUPGRADE="1", STNORESTART="1", STNODEFAULTFOLDER="1")


def _tick(deadline: float, what: str, *daemons: Daemon) -> None:
    """Sleep a little, or raise :class:`SyncthingError` saying ``what`` once past ``deadline``."""
    if time.monotonic() > deadline:
        logs = "\n".join(f"--- {d.name}:\n{d.log_tail()}" for d in daemons)
        raise SyncthingError(f"{what} within {TIMEOUT:.0f} s\n{logs}")
    time.sleep(0.02)


#: The counts of a folder's status two daemons in sync agree on.
_GLOBAL = ("globalFiles", "globalDirectories", "globalDeleted", "globalBytes")


@dataclass
class Pair:
    """Two daemons, ``a`` and ``b``, sharing the folder ``FOLDER_ID``."""

    a: Daemon
    b: Daemon
    #: Seconds from the first ``syncthing generate`` until both were connected.
    startup_s: float = 0.0

    @property
    def daemons(self) -> tuple[Daemon, Daemon]:
        """Both daemons, ``a`` first."""
        return self.a, self.b

    def wait_connected(self, deadline: float) -> None:
        """Wait until each daemon holds a connection to the other."""
        while not (self.a.connected_to(self.b) and self.b.connected_to(self.a)):
            _tick(deadline, "the daemons did not connect", *self.daemons)

    def _settled(self) -> bool:
        """Whether both daemons are idle, need nothing, and have the same global view."""
        statuses = [d.status() for d in self.daemons]
        for status in statuses:
            if status["state"] != "idle" or status["needTotalItems"] != 0:
                return False
            if status.get("pullErrors", 0):
                return False
        if any(statuses[0][key] != statuses[1][key] for key in _GLOBAL):
            return False
        for daemon, peer in ((self.a, self.b), (self.b, self.a)):
            completion = daemon.completion(peer)
            if completion["completion"] != 100 or completion["needItems"] != 0:
                return False
        return True

    def wait_in_sync(self) -> float:
        """Scan both sides, then wait until each has everything the other has; the seconds it took.

        In sync means: both daemons idle and needing nothing, the same global counts (files,
        folders, deletions, bytes) on both, and each reporting the other complete. The state
        must hold for two polls in a row, so an index update still on its way is not missed.
        """
        start = time.monotonic()
        deadline = start + TIMEOUT
        for daemon in self.daemons:
            daemon.scan()
        settled = 0
        while settled < 2:
            settled = settled + 1 if self._settled() else 0
            if settled < 2:
                _tick(deadline, "the folder did not get in sync", *self.daemons)
        return time.monotonic() - start

    def set_paused(self, paused: bool) -> None:
        """Take the folder offline (``True``) or back online on both daemons."""
        for daemon in self.daemons:
            daemon.set_paused(paused)
        deadline = time.monotonic() + TIMEOUT
        for daemon in self.daemons:
            # A paused folder has no runner: its status has an empty state.
            while (daemon.status()["state"] in ("", "paused")) != paused:
                _tick(deadline, f"{daemon.name}'s folder did not change state", daemon)


def _start(root: Path, attempt: int, stack: ExitStack) -> Pair:
    """Make, configure and start both daemons (stopped when ``stack`` closes); connected."""
    start = time.monotonic()
    a = Daemon("a", root / f"home-a{attempt}", root / "a")
    b = Daemon("b", root / f"home-b{attempt}", root / "b")
    for daemon in (a, b):
        daemon.generate()
    a.configure(b)
    b.configure(a)
    # Both are told to stop before either is waited for: they shut down side by side.
    for daemon in (a, b):
        stack.callback(daemon.stop)
    for daemon in (a, b):
        stack.callback(daemon.terminate)
    for daemon in (a, b):
        daemon.start()
    deadline = start + TIMEOUT
    for daemon in (a, b):
        daemon.wait_ready(deadline)
    pair = Pair(a, b)
    pair.wait_connected(deadline)
    pair.startup_s = time.monotonic() - start
    return pair


@contextmanager
def syncthing_pair(root: Path) -> Iterator[Pair]:
    """Two connected daemons with homes under ``root``, sharing ``root/a`` and ``root/b``.

    Both are stopped when the block ends, whatever happens in it. A port picked free can be
    taken by another process before the daemon binds it (tests run in parallel): a start
    that fails is tried once more with new ports, then the failure stands.
    """
    for attempt in (1, 2):
        with ExitStack() as stack:
            try:
                pair = _start(root, attempt, stack)
            except SyncthingError:
                if attempt == 2:
                    raise
                continue
            yield pair
            return
