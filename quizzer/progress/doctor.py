"""``quizzer doctor``: verify every device log, report damage and losses, rebuild the caches,
repair a damaged marker.

Nothing here rewrites a device's events: a damaged line is skipped by every reader (and
reported), a torn last line is cut off by its own writer. What can go wrong besides is
outside the logs: the marker (``quizzer-store.json``) can be damaged, and a cache can be
ahead of a log that shrank or vanished (answers it had seen are gone): ``--check`` reports
both, a repair writes a new marker and rebuilds this device's cache from the logs.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import quizzer.progress.devicelog as devicelog
import quizzer.progress.layout as layout
import quizzer.progress.statecache as statecache
import quizzer.progress.store as store_mod
from quizzer import paths
from quizzer.errors import StoreError


@dataclass(slots=True)
class Report:
    """What the doctor found (or left after a repair)."""

    path: Path
    cards: int = 0
    devices: int = 0
    problems: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        """Nothing wrong and nothing lost."""
        return not self.problems and not self.losses


def _marker_problem(path: Path) -> str | None:
    try:
        marker = layout.read_marker(path)
        if marker is None and layout.devices_dir(path).is_dir():
            return f"{layout.marker_path(path)}: the store's marker is missing"
        if marker is not None and marker.damaged:
            return f"{layout.marker_path(path)}: the store's marker is damaged (doesn't read)"
    except StoreError as exc:
        return f"{layout.marker_path(path)}: {exc.message}"
    return None


def _cache_losses(path: Path, store_id: str) -> list[str]:
    """What every cache of this store on this machine (any device's) saw that is gone."""
    found: list[str] = []
    folders = {folder.name: folder for folder in layout.device_folders(path)}
    for file in sorted((paths.cache_dir() / "stores" / store_id).glob("*/states.json")):
        cache = statecache.load(file)
        if cache is None:
            continue
        found.extend(cache.losses)
        for name, mark in sorted(cache.marks.items()):
            if name not in folders:
                if mark.count or mark.before:
                    found.append(f"{layout.devices_dir(path) / name}: the device folder is gone")
                continue
            found.extend(map(str, devicelog.read_since(folders[name], mark).losses))
    return list(dict.fromkeys(found))


def check(path: Path) -> Report:
    """Verify every device folder whole and the marker; report damaged lines, events that
    can't be replayed, and answers a cache saw that are gone."""
    report = Report(path)
    marker = _marker_problem(path)
    if marker:
        report.problems.append(marker)
    folders = layout.device_folders(path)
    report.devices = len(folders)
    for folder in folders:
        result = devicelog.read_since(folder)
        report.losses += (f"damaged, skipped: {damage}" for damage in result.damage)
        report.notes += (f"a sync engine's copy, read once: {copy}" for copy in result.copy_files)
    with store_mod.open_store(path, read_only=True) as store:
        report.cards = len(store)
        report.losses.extend(_cache_losses(path, store.store_id) if store.store_id else [])
        report.losses.extend(x for x in store.losses if x not in report.losses)
        store.reviews()  # every event replayed: the ones that can't be are listed
        report.problems.extend(f"{p.dev}: {p.event}: {p.reason}" for p in store.problems)
        if store.notice:
            report.notes.append(store.notice)
    return report


def repair(path: Path) -> Report:
    """Write a new marker when it is damaged, and rebuild this device's cache from the logs
    (what the cache had seen and is gone is reported once, as lost)."""
    found = check(path)
    # Events that can't be replayed stay in their logs (never rewritten): lost to the states.
    lost = [*found.losses, *(f"skipped: {problem}" for problem in found.problems)]
    report = Report(path, found.cards, found.devices, losses=lost)
    if _marker_problem(path):
        # The same bytes every machine writes (a damaged one's kept beside it).
        layout.create_store(path)
        report.actions.append(
            f"wrote the marker again (any damaged one kept as {layout.DAMAGED_MARKER})"
        )
    marker = layout.read_marker(path)
    caches = paths.cache_dir() / "stores" / (marker.store if marker else "")
    if marker and caches.is_dir():
        # Every cache of the store on this machine: each is rebuilt from the logs when next
        # opened, and says no more what it lost (reported above, once).
        shutil.rmtree(caches, ignore_errors=True)
        report.actions.append("rebuilt the card states from every device's log")
    with store_mod.open_store(path, read_only=True) as store:
        report.cards = len(store)
        store.losses.clear()
        store.touch()
    problem = _marker_problem(path)
    if problem:
        report.problems.append(problem)
    return report
