"""Who writes to a store folder: each device's name, last event, answers, whether its files
verify, and how far a view (a cache's marks) is behind it — what ``quizzer devices`` shows.

Read-only: reading another device's folder needs no lock. Every event is checked as a
foreign one (:func:`quizzer.progress.events.from_dict`): a bad one makes its device's log
not verify, and is counted nowhere. An answer this device later undid is not counted, and an
event a sync engine's copy repeats is counted once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import quizzer.progress.device as device
import quizzer.progress.devicelog as devicelog
import quizzer.progress.events as events
import quizzer.progress.layout as layout
from quizzer.progress.devicelog import Mark


@dataclass(slots=True)
class DeviceInfo:
    """One device folder as ``quizzer devices`` shows it.

    ``settings`` holds the settings whose value in force this device set (last writer wins
    per setting, by event time); ``problems`` says why the folder doesn't verify; ``behind``
    counts its events a view with marks hasn't read yet.
    """

    device: str
    name: str
    last_event: datetime | None = None
    answers: int = 0
    verifies: bool = True
    behind: int = 0
    merged: bool = False
    this: bool = False
    copies: int = 0
    settings: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The device as JSON (``quizzer devices --json``)."""
        out = {name: getattr(self, name) for name in ("device", "name", "this", "merged")}
        out["last_event"] = self.last_event.isoformat() if self.last_event else None
        out |= {name: getattr(self, name) for name in ("answers", "verifies", "behind")}
        out["conflict_copies"] = self.copies
        return out | {"settings": self.settings, "problems": self.problems}


@dataclass(slots=True)
class _Seen:
    info: DeviceInfo
    #: Each answer's id: its replay key and review id.
    answers: dict[str, tuple[events.Key, str]] = field(default_factory=dict)
    undone: set[str] = field(default_factory=set)


#: Each setting's value in force: the key of the event that set it, the value, its device.
_Winners = dict[str, tuple[events.Key, Any, DeviceInfo]]


def _read(folder: Path, seen: _Seen, winners: _Winners) -> None:
    result = devicelog.read_since(folder)
    info = seen.info
    info.problems += map(str, result.damage + result.losses)
    info.copies = len(result.copy_files)
    known: set[str] = set()
    last = -1
    for raw in result.events + result.copies:
        if raw["id"] in known:
            continue
        known.add(raw["id"])
        try:
            event = events.from_dict(raw)
            if event.dev != folder.name:
                raise events.BadEvent(f"written by {event.dev}, not by this folder's device")
        except events.BadEvent as error:
            info.problems.append(f"{folder.name}: event {str(raw.get('id'))[:60]}: {error}")
            continue
        last = max(last, event.at)
        if isinstance(event, events.Answer):
            seen.answers[event.id] = (event.key, event.review_id)
        elif isinstance(event, events.Undo):
            if not event.target.startswith(f"{event.dev}-"):
                info.problems.append(f"{folder.name}: undo {event.id} aims at another device")
                continue
            seen.undone.add(event.target)
        elif isinstance(event, events.Settings):
            for key, value in event.values.items():
                if key not in winners or event.key > winners[key][0]:
                    winners[key] = (event.key, value, info)
    info.last_event = events.from_ms(last) if last >= 0 else None


def list_devices(
    store: Path, *, this: str | None = None, marks: Mapping[str, Mark] | None = None
) -> list[DeviceInfo]:
    """Every device folder of the store folder ``store``, by name. ``this`` is this machine's
    device id (marked in the list); ``marks`` the view's mark per folder name, for ``behind``."""
    seen: list[_Seen] = []
    winners: _Winners = {}
    for folder in layout.device_folders(store):
        merged = folder.name.endswith(layout.MERGED_SUFFIX)
        name = device.folder_record(folder, "name") or folder.name
        info = DeviceInfo(folder.name, name, merged=merged, this=folder.name == this)
        one = _Seen(info)
        _read(folder, one, winners)
        info.verifies = not info.problems
        if marks is not None:
            info.behind = len(devicelog.read_since(folder, marks.get(folder.name)).events)
        seen.append(one)
    # An answer counts once by its review id (the same old store merged on two devices brings
    # the same answers twice): the first in replay order counts, where it is; undone ones don't.
    first: dict[str, tuple[events.Key, DeviceInfo]] = {}
    for one in seen:
        for answer_id, (when, review) in one.answers.items():
            if answer_id not in one.undone and (review not in first or when < first[review][0]):
                first[review] = (when, one.info)
    for _when, counted in first.values():
        counted.answers += 1
    for key, (_order, value, info) in sorted(winners.items()):
        info.settings[key] = value
    return [one.info for one in seen]
