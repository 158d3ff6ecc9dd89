"""Devices and carriers for the several-devices tests.

A :class:`Device` is one machine: its name (``$QUIZZER_DEVICE``), its own local state and
cache folders (``$QUIZZER_STATE``, ``$QUIZZER_CACHE``) and the path of its copy of the
store. It opens the real store with those set, or runs the real ``quizzer`` command in a
child process with them. It also keeps its footprint: every file of the synced folder its
sessions created, changed or removed, so a test can check that no file is written by two
devices.

A carrier moves the store between two devices' folders: :class:`CopyCarrier` copies what
is newer both ways (offline copies), :class:`GitCarrier` commits and pulls through a bare
repository, :class:`SyncthingCarrier` lets two real Syncthing daemons do it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.concepts.deck import Deck
from quizzer.progress import Store, open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade
from tests.factories import ru_bn_deck
from tests.sync.syncthing import Pair as DaemonPair

#: The deck both devices study: 30 cards, Russian term → Bengali definition.
DECK: Deck = ru_bn_deck("sync", 30)
PAIRS = (Pair("ru", "term", "bn", "definition"),)
CARDS = [CardKey(concept.uid, PAIRS[0]) for concept in DECK.concepts]
#: The first answers' moment; everything else is later.
T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)

#: Names sync engines (and git merges) give the copies they leave beside a file.
LEFTOVER_MARKS = (".sync-conflict-", "conflicted copy", ".orig", ".LOCAL.", ".REMOTE.", ".BASE.")


def files_of(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path → a digest of its bytes)."""
    if not folder.exists():
        return {}
    return {
        path.relative_to(folder).as_posix(): hashlib.blake2b(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def leftovers(folder: Path) -> list[str]:
    """The sync engines' conflict copies under ``folder`` (relative paths)."""
    return [name for name in files_of(folder) if any(mark in name for mark in LEFTOVER_MARKS)]


@dataclass
class Device:
    """One machine: a name, its own state and cache folders, its copy of the store."""

    name: str
    home: Path
    store_path: Path
    #: Files of the store (relative paths) this device's sessions created, changed or removed.
    written: set[str] = field(default_factory=set)

    def env(self) -> dict[str, str]:
        """The environment this device's processes run with."""
        return dict(
            os.environ,
            QUIZZER_DEVICE=self.name,
            QUIZZER_STATE=str(self.home / "state"),
            QUIZZER_CACHE=str(self.home / "cache"),
            QUIZZER_DB=str(self.store_path),
            PYTHONUNBUFFERED="1",
        )

    @contextmanager
    def footprint(self) -> Iterator[None]:
        """Add what the block changes in the store's folder to :attr:`written`."""
        before = files_of(self.store_path)
        try:
            yield
        finally:
            after = files_of(self.store_path)
            self.written |= {
                name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
            }

    @contextmanager
    def open(self) -> Iterator[Store]:
        """The real store, opened as this device (its environment set while the block runs)."""
        saved = dict(os.environ)
        os.environ.update(self.env())
        try:
            with self.footprint(), open_store(self.store_path, tz=UTC) as store:
                yield store
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def run(self, *args: str) -> tuple[int, str]:
        """Run ``quizzer ARGS --db STORE`` as this device in this process: its exit code and
        output (a traceback, if one escaped, is in the output and the code is -1)."""
        saved = dict(os.environ)
        os.environ.update(self.env())
        out = io.StringIO()
        try:
            with self.footprint(), redirect_stdout(out), redirect_stderr(out):
                try:
                    code = main([*args, "--db", str(self.store_path)])
                except SystemExit as exc:  # argparse only
                    code = int(exc.code or 0)
                except Exception:
                    code = -1
                    out.write(traceback.format_exc())
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return code, out.getvalue()

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``quizzer ARGS --db STORE`` as this device in a child process."""
        with self.footprint():
            return subprocess.run(
                [sys.executable, "-m", "quizzer", *args, "--db", str(self.store_path)],
                env=self.env(),
                capture_output=True,
                text=True,
                timeout=120,
            )


def listing(device: Device) -> dict[str, dict[str, Any]]:
    """``quizzer devices --json`` as this device: each listed device by its id."""
    result = device.cli("devices", "--json")
    assert result.returncode == 0, result.stderr
    return {entry["device"]: entry for entry in json.loads(result.stdout)}


def answer(store: Store, card: CardKey, grade: Grade, at: datetime) -> str:
    """Record one typed answer; the review id :meth:`Store.record` acknowledged."""
    review = store.record(card, grade, at, Answer(mode="typed", duration_ms=2100, typed="ответ"))
    return review.id


def grade_of(i: int) -> Grade:
    """A fixed, varied grade for the i-th answer (mostly Good, some Again, Hard, Easy)."""
    return (3, 1, 3, 4, 2, 3, 3)[i % 7]


def states(store: Store) -> dict[str, object]:
    """Every card's state as a plain dict (``None`` for a card never answered)."""
    out: dict[str, object] = {}
    for key in CARDS:
        state = store.card(key)
        out[key.id] = None if state is None else state.to_dict()
    return out


def due_queue(store: Store, now: datetime) -> object:
    """The due queue of :data:`DECK` at ``now``."""
    return store.due_cards(DECK, PAIRS, now)


class Carrier(Protocol):
    """What moves files between the two devices' folders."""

    name: str

    def folder(self, side: str) -> Path:
        """The synced folder of side ``a`` or ``b``."""

    def sync(self) -> float:
        """Bring both folders to the same files; the seconds it took."""

    def offline(self) -> None:
        """Stop carrying anything until :meth:`online`."""

    def online(self) -> None:
        """Carry again (the next :meth:`sync` brings what changed meanwhile)."""


def copy_newer(src: Path, dst: Path) -> None:
    """Copy every file of ``src`` that ``dst`` lacks or holds an older, different copy of."""
    for path in sorted(src.rglob("*")):
        if not path.is_file():
            continue
        target = dst / path.relative_to(src)
        if target.exists():
            if target.read_bytes() == path.read_bytes():
                continue
            if target.stat().st_mtime_ns >= path.stat().st_mtime_ns:
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


@dataclass
class CopyCarrier:
    """Offline copies: a sync copies what is newer from a to b, then from b to a."""

    root: Path
    name: str = "copy"

    def folder(self, side: str) -> Path:
        """``root/copy-a`` or ``root/copy-b``."""
        path = self.root / f"copy-{side}"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def sync(self) -> float:
        """Copy newer files both ways."""
        start = time.monotonic()
        copy_newer(self.folder("a"), self.folder("b"))
        copy_newer(self.folder("b"), self.folder("a"))
        return time.monotonic() - start

    def offline(self) -> None:
        """Nothing moves between syncs anyway."""

    def online(self) -> None:
        """Nothing moves between syncs anyway."""


@dataclass
class GitCarrier:
    """A git repository: each side commits everything, pulls (a merge) and pushes."""

    root: Path
    name: str = "git"

    def __post_init__(self) -> None:
        # The learner makes the repository once (one commit), then clones it on each machine.
        self._git(self.root, "init", "-q", "--bare", "-b", "main", str(self.root / "remote.git"))
        self._git(self.root, "clone", "-q", str(self.root / "remote.git"), "git-seed")
        seed = self.root / "git-seed"
        self._git(seed, "commit", "-q", "--allow-empty", "-m", "the synced folder")
        self._git(seed, "push", "-q", "origin", "HEAD:main")
        for side in ("a", "b"):
            self._git(self.root, "clone", "-q", str(self.root / "remote.git"), f"git-{side}")

    def folder(self, side: str) -> Path:
        """``root/git-a`` or ``root/git-b`` (clones of ``root/remote.git``)."""
        return self.root / f"git-{side}"

    def _git(self, where: Path, *args: str) -> str:
        result = subprocess.run(
            [
                "git",
                "-c",
                "user.name=quizzer test",
                "-c",
                "user.email=test@example.invalid",
                "-c",
                "init.defaultBranch=main",
                *args,
            ],
            cwd=where,
            capture_output=True,
            text=True,
            env=dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull),
        )
        assert result.returncode == 0, f"git {' '.join(args)}: {result.stdout}{result.stderr}"
        return result.stdout

    def _exchange(self, side: str) -> None:
        where = self.folder(side)
        self._git(where, "add", "-A")
        if self._git(where, "status", "--porcelain"):
            self._git(where, "commit", "-q", "-m", f"study on {side}")
        # A merge, not a rebase: what a learner's `git pull` does by default.
        self._git(where, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
        self._git(where, "push", "-q", "origin", "HEAD:main")

    def sync(self) -> float:
        """a pushes, b merges and pushes, a pulls."""
        start = time.monotonic()
        for side in ("a", "b", "a"):
            self._exchange(side)
        return time.monotonic() - start

    def offline(self) -> None:
        """Nothing moves between syncs anyway."""

    def online(self) -> None:
        """Nothing moves between syncs anyway."""


@dataclass
class SyncthingCarrier:
    """Two real Syncthing daemons; offline is the shared folder paused on both."""

    daemons: DaemonPair
    name: str = "syncthing"

    def folder(self, side: str) -> Path:
        """Daemon a's or daemon b's copy of the shared folder."""
        return self.daemons.a.folder if side == "a" else self.daemons.b.folder

    def sync(self) -> float:
        """Scan both sides and wait until they are in sync."""
        return self.daemons.wait_in_sync()

    def offline(self) -> None:
        """Pause the folder on both daemons."""
        self.daemons.set_paused(True)

    def online(self) -> None:
        """Resume the folder on both daemons."""
        self.daemons.set_paused(False)


def two_devices(carrier: Carrier, root: Path) -> tuple[Device, Device]:
    """The laptop on side a and the desktop on side b, each with its copy of the store."""
    return (
        Device("laptop", root / "laptop", carrier.folder("a") / "progress"),
        Device("desktop", root / "desktop", carrier.folder("b") / "progress"),
    )


def moment(minutes: float) -> datetime:
    """``minutes`` after :data:`T0`."""
    return T0 + timedelta(minutes=minutes)
