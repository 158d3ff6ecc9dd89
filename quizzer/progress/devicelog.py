"""A device folder's events: appended one line each, read past a mark, months sealed.

Writing (:class:`DeviceLog`, under the device's lock): each append is one ``write`` of whole
lines to the open month's ``YYYY-MM.log`` and an ``fdatasync`` before it returns (the folder
is fsynced too when the file is new). Opening cuts off a torn last line (a crash mid-append)
and seals the months before the newest into TinyDB files of their own (``YYYY-MM.json``:
written to a temp file, fsynced, renamed; the ``.log`` removed only then).

Reading (:func:`read_since`, any device's folder, no lock): the events past a :class:`Mark`
and the mark to keep for next time. A log that shrank or a month that vanished below the
mark is reported as a loss (answers that were there are gone: the doctor's case)
and its month read again from the start; event ids make reading an event twice harmless.
Copies a sync engine left beside a month (Syncthing's ``*.sync-conflict-*``, Dropbox's
``(… conflicted copy …)``, git's ``*.orig`` / ``*.LOCAL.*`` …) are read as extra copies:
only their events the month itself lacks come back, in :attr:`ReadResult.copies`. They are
never renamed or deleted here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

import quizzer.progress.eventlines as eventlines
import quizzer.progress.layout as layout
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress.eventlines import Event

#: The most of one month file a reader takes in (about a million answers).
MONTH_LIMIT = 512 * 2**20
_SEGMENT_RE = re.compile(r"(\d{4}-(?:0[1-9]|1[0-2]))\.(log|json)")
#: Names sync engines give the copies they keep of a file changed on two sides.
_COPY_RE = re.compile(
    r"\.sync-conflict-|conflicted copy|\.orig$|[._](LOCAL|REMOTE|BASE|BACKUP)[._]", re.IGNORECASE
)
#: The temp files of a seal (:func:`atomic_write_bytes`'s, for a ``YYYY-MM.json``).
_SEALING = ".????-??.json.*.tmp"
#: The TinyDB tables of a sealed month: its events (document ids in log order) and its seal.
EVENTS_TABLE = "events"
SEAL_TABLE = "seal"
#: What to do when a device's own files can't be written.
_WRITABLE = "free some disk space or check the folder's permissions; nothing was saved"
#: What to do about a sealed month that doesn't read (its log is gone: readers skip it).
_RESTORE = "restore it from a backup or from another machine's copy"


def _datasync(fd: int) -> None:
    # fdatasync flushes the data and the size; where it doesn't exist (macOS) fsync does.
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:
        os.fsync(fd)


@dataclass(frozen=True, slots=True)
class Mark:
    """How far a reader got in a device folder: ``count`` events and ``offset`` bytes into
    the month ``segment`` (a sealed month is read whole: its offset is 0), with ``before``
    months older than it. The empty mark means nothing was read yet."""

    segment: str = ""
    offset: int = 0
    count: int = 0
    before: int = 0


@dataclass(frozen=True, slots=True)
class Problem:
    """A damaged line or file: where and what is wrong; its events are skipped. Also a loss:
    events that were in a folder at the last read and are gone now (a log cut short, a month
    deleted, a log rewritten by something that isn't quizzer)."""

    path: Path
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else str(self.path)
        return f"{where}: {self.reason}"


@dataclass(slots=True)
class ReadResult:
    """What :func:`read_since` found: new ``events`` in log order, the ``mark`` to keep,
    ``damage``, ``losses``, events only sync-engine ``copies`` hold, and those files."""

    events: list[Event]
    mark: Mark
    damage: list[Problem] = field(default_factory=list)
    losses: list[Problem] = field(default_factory=list)
    copies: list[Event] = field(default_factory=list)
    copy_files: list[Path] = field(default_factory=list)


@dataclass(slots=True)
class _Folder:
    """A device folder's files by month: logs, sealed months, and sync-engine copies."""

    logs: dict[str, Path] = field(default_factory=dict)
    sealed: dict[str, Path] = field(default_factory=dict)
    copies: dict[str, list[Path]] = field(default_factory=dict)

    @property
    def months(self) -> list[str]:
        return sorted(self.logs.keys() | self.sealed.keys())


def _scan(folder: Path) -> _Folder:
    found = _Folder()
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return found
    for name in names:
        whole = _SEGMENT_RE.fullmatch(name)
        if whole:
            kind = found.logs if whole.group(2) == "log" else found.sealed
            kind[whole.group(1)] = folder / name
        elif is_sync_copy(name):
            found.copies.setdefault(name[:7], []).append(folder / name)
    return found


def is_sync_copy(name: str) -> bool:
    """Whether a file name in a device folder is a copy a sync engine left of a month."""
    return layout.MONTH_RE.match(name) is not None and _COPY_RE.search(name) is not None


def read_sealed(path: Path) -> tuple[list[Event], Problem | None]:
    """The events of a sealed month file in log order, or none and what is wrong with it.

    The file is TinyDB's JSON; it is decoded with msgspec (faster than TinyDB's own reading,
    same format) after a size check. This is where a damaged file is told: what the events
    then hold is checked where each becomes an event."""
    try:
        value = msgspec.json.decode(layout.read_file(path, MONTH_LIMIT))
    except FileNotFoundError:
        return [], None
    except OSError as error:
        return [], Problem(path, None, f"can't read this sealed month: {layout.why(error)}")
    except msgspec.DecodeError:
        value = None
    try:
        table = value[EVENTS_TABLE]
        count = next(iter(value[SEAL_TABLE].values()))["count"]
        events = [table[key] for key in sorted(table, key=int)]
        if all(isinstance(event, dict) and isinstance(event.get("id"), str) for event in events):
            if count == len(events):
                return events, None
            wrong = f"it holds {len(events)} events where its seal says {count}"
        else:
            wrong = "some of its events are not events quizzer wrote"
    except (TypeError, KeyError, ValueError, AttributeError, StopIteration):
        wrong = "it is not a sealed month quizzer wrote (changed, or cut short)"
    return [], Problem(path, None, f"can't read this sealed month: {wrong}; {_RESTORE}")


def _read_log(path: Path, start: int) -> tuple[eventlines.Parsed, Problem | None]:
    try:
        data = layout.read_file(path, MONTH_LIMIT, start)
    except FileNotFoundError:
        return eventlines.Parsed(end=start), None
    except OSError as error:
        return eventlines.Parsed(end=start), Problem(
            path, None, f"can't read this log: {layout.why(error)}"
        )
    parsed = eventlines.parse(data, offset=start)
    if parsed.damage and start:
        # Lines past a mark are numbered from it: say where they are in the file.
        with layout.open_file(path) as fh:
            before = fh.read(start).count(b"\n")
        parsed.damage = [replace(d, line=d.line + before) for d in parsed.damage]
    return parsed, None


def _read_month(
    files: _Folder, month: str, start: int, skip: int, result: ReadResult
) -> tuple[int, int]:
    """Add the events of ``month`` past ``start`` bytes (a log) or ``skip`` events (sealed)
    to ``result``; return the new offset and the month's count."""
    log = files.logs.get(month)
    if log is not None:
        parsed, problem = _read_log(log, start)
        if problem is None or month not in files.sealed:
            result.damage.extend([problem] if problem else [])
            result.damage.extend(Problem(log, d.line, d.reason) for d in parsed.damage)
            result.events.extend(parsed.events)
            return parsed.end, skip + len(parsed.events)
    events, problem = read_sealed(files.sealed[month])
    result.damage.extend([problem] if problem else [])
    if len(events) < skip:
        result.losses.append(
            Problem(files.sealed[month], None, f"{skip - len(events)} events read before are gone")
        )
        skip = 0
    result.events.extend(events[skip:])
    return 0, len(events)


def read_since(folder: Path, mark: Mark | None = None) -> ReadResult:
    """The events of the device folder ``folder`` past ``mark`` (all of them for ``None``)."""
    mark = mark or Mark()
    files = _scan(folder)
    months = files.months
    result = ReadResult([], mark)
    older = [month for month in months if month < mark.segment]
    if len(older) < mark.before:
        result.losses.append(
            Problem(folder, None, f"{mark.before - len(older)} closed months are gone")
        )
    if len(older) != mark.before:
        # A month appeared or vanished below the mark (a sync delivered files out of order,
        # or something removed one): read the older months again; ids drop the repeats.
        for month in older:
            _read_month(files, month, 0, 0, result)
    start, skip = mark.offset, mark.count
    log = files.logs.get(mark.segment)
    if mark.segment and mark.segment not in months:
        if mark.count:
            gone = f"the month {mark.segment} and its {mark.count} events are gone"
            result.losses.append(Problem(folder / mark.segment, None, gone))
        start = skip = 0
    elif log is not None and start and not _ends_a_line(log, start):
        cut = f"the log lost some of the {mark.count} events read before (cut or rewritten)"
        result.losses.append(Problem(log, None, cut))
        start = skip = 0
    elif log is None:
        start = 0
    end, count, segment = start, skip, mark.segment
    for month in months:
        if month >= mark.segment:
            at, skipped = (start, skip) if month == mark.segment else (0, 0)
            end, count = _read_month(files, month, at, skipped, result)
            segment = month
    if segment:
        result.mark = Mark(segment, end, count, sum(1 for month in months if month < segment))
    both = files.logs.keys() & files.sealed.keys()
    for month in sorted(files.copies.keys() | both):
        _read_copies(files, month, result)
    return result


def _ends_a_line(path: Path, offset: int) -> bool:
    """Whether the byte before ``offset`` in ``path`` ends a line (the log wasn't cut)."""
    try:
        with layout.open_file(path) as fh:
            fh.seek(offset - 1)
            return fh.read(1) == b"\n"
    except OSError:
        return True  # told when the log is read


def _read_copies(files: _Folder, month: str, result: ReadResult) -> None:
    """Add the events only ``month``'s other files hold: a sealed file beside a log that
    reads (a seal cut short before the log went) and the copies sync engines left."""
    log, sealed = files.logs.get(month), files.sealed.get(month)
    parsed, problem = _read_log(log, 0) if log else (None, None)
    if parsed is not None and (problem is None or sealed is None):
        own, beside = parsed.events, [sealed] if sealed else []
    else:
        own, beside = read_sealed(sealed)[0] if sealed else [], []
    known = {event["id"] for event in own}
    copies = files.copies.get(month, [])
    result.copy_files.extend(copies)
    for copy in [*beside, *copies]:
        if ".json" in copy.name:
            events, problem = read_sealed(copy)
        else:
            parsed, problem = _read_log(copy, 0)
            events = parsed.events
        if problem and copy is not sealed:
            result.damage.append(problem)
        for event in events:
            if event["id"] not in known:
                known.add(event["id"])
                result.copies.append(event)


def _write_sealed(path: Path, month: str, device: str, events: list[Event]) -> None:
    """Seal ``events`` into the TinyDB file ``path``: the JSON TinyDB writes for the two
    tables (``json.dumps``, document ids from 1), written whole or not at all."""
    seal = {"month": month, "device": device, "count": len(events)}
    tables = {SEAL_TABLE: {"1": seal}, EVENTS_TABLE: dict(enumerate(events, 1))}
    atomic_write_bytes(path, json.dumps(tables).encode())


class DeviceLog:
    """The writer of one device folder (hold the device's lock while it is open).

    ``owner`` names the folder's events (the device id, or ``<device>~merged``) in the
    sealed months. ``min_seq`` is the highest sequence number the caller knows this folder
    reached (e.g. from its cache): the next event is numbered past both it and the files,
    so a log a sync engine set back can't make two events share an id.
    """

    def __init__(self, folder: Path, owner: str, now: datetime, *, min_seq: int = 0) -> None:
        self.folder = folder
        self.owner = owner
        self._fd: int | None = None
        self._month = ""
        self._floor = ""
        self._size = 0
        self.last_seq = min_seq
        try:
            layout.make_dir(folder)
            self._open(now)
        except OSError as error:
            self.close()
            raise layout.failed("open the device log", error, folder, _WRITABLE) from error

    @property
    def next_seq(self) -> int:
        """The sequence number the next appended event must have."""
        return self.last_seq + 1

    def _open(self, now: datetime) -> None:
        for leftover in self.folder.glob(_SEALING):
            leftover.unlink(missing_ok=True)  # a seal killed mid-write (we hold the lock)
        files = _scan(self.folder)
        months = files.months
        current = layout.month_of(now)
        newest = months[-1] if months else ""
        for month in months:
            # A month with a sealed file is closed for good; the others before the newest (or
            # before this month) are sealed now.
            if month in files.logs and (month < max(current, newest) or month in files.sealed):
                self._seal(files, month)
        files = _scan(self.folder)
        found = False
        if newest in files.logs and newest not in files.sealed:
            found = self._open_log(newest)
            self._floor = newest
        elif newest:
            # Never append to a sealed month, even when the clock says it is that month (a
            # clock set back, answers given "in" the past): the next month's log takes them.
            self._floor = layout.next_month(newest)
        # The last number used: from the newest month that holds an event (a month can be
        # empty: a kill between creating its log and the first write).
        for month in reversed(files.months):
            if found:
                break
            if month in files.sealed:
                found = self._see(read_sealed(files.sealed[month])[0])
            elif month != self._month:
                found = self._see(
                    eventlines.parse(layout.read_file(files.logs[month], MONTH_LIMIT)).events
                )

    def _see(self, events: list[Event]) -> bool:
        """Count ``events``' numbers as used; whether there were any."""
        seqs = [event["seq"] for event in events if isinstance(event.get("seq"), int)]
        self.last_seq = max([self.last_seq, *seqs])
        return bool(seqs)

    def _open_log(self, month: str) -> bool:
        """Open ``month``'s log for appending; whether it holds an event."""
        path = layout.log_path(self.folder, month)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        self._fd, self._month = fd, month
        data = layout.read_file(path, MONTH_LIMIT)
        parsed = eventlines.parse(data)
        self._size = parsed.end
        if parsed.end < len(data):
            # The torn tail of a killed append: cut it off so the next line starts clean.
            os.ftruncate(fd, parsed.end)
            _datasync(fd)
        return self._see(parsed.events)

    def _seal(self, files: _Folder, month: str) -> None:
        log = files.logs[month]
        parsed = eventlines.parse(layout.read_file(log, MONTH_LIMIT))
        sealed = self.folder / f"{month}.json"
        done, problem = read_sealed(sealed)
        if problem is not None:
            # A damaged sealed file is not ours to overwrite: both stay (readers take the
            # log), and the month stays closed.
            self._see(parsed.events)
            return
        known = {event["id"] for event in done}
        extra = [event for event in parsed.events if event["id"] not in known]
        if extra or month not in files.sealed:
            union = done + extra
            union.sort(key=lambda event: event["seq"] if type(event.get("seq")) is int else 0)
            _write_sealed(sealed, month, self.owner, union)
            done = union
        self._see(done)
        # Only now, with every event of the log in the sealed file on disk, may the log go.
        log.unlink()
        fsync_dir(self.folder)

    def append(self, events: Sequence[Mapping[str, Any]], now: datetime) -> None:
        """Write ``events`` (numbered ``next_seq`` on, one by one) and flush them to disk
        before returning. They go to the log of ``now``'s month (UTC), or of the newest month
        if the clock went back."""
        seq = self.last_seq
        for event in events:
            seq += 1
            if event.get("seq") != seq:
                raise ValueError(f"event {event.get('id')!r} should have seq {seq}")
        month = layout.month_of(now)
        month = max(month, self._month, self._floor)
        data = eventlines.encode_all(events)
        try:
            if month != self._month or self._fd is None:
                self.close()
                created = not layout.log_path(self.folder, month).exists()
                self._open_log(month)
                if created:
                    fsync_dir(self.folder)
            assert self._fd is not None
            written = os.write(self._fd, data)
            while written < len(data):
                written += os.write(self._fd, data[written:])
            _datasync(self._fd)
        except OSError as error:
            # Take off what part of it reached the file (a full disk), so the log ends with
            # whole lines and the next append starts clean.
            if self._fd is not None:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._fd, self._size)
                    _datasync(self._fd)
            raise layout.failed(
                "write the answer to the device log",
                error,
                layout.log_path(self.folder, month),
                _WRITABLE,
            ) from error
        self.last_seq = seq
        self._size += len(data)

    def close(self) -> None:
        """Close the open log; safe to call twice."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
