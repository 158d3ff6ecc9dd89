"""Turn a store of the single-writer layout (schema 1 to 4) into a several-devices folder.

The old store at ``P`` is a snapshot file with files named after it (``P.journal``,
``P.journal.prev``, ``P.log/YYYY-MM.json`` months and their ``.bak`` mirrors, ``P.bak`` …).
Upgrading:

1. checks that ``P`` is an old store (refused, untouched, if not);
2. writes the marker ``P.migrating`` (fsynced): from here a killed upgrade resumes on the
   next open;
3. moves ``P`` and every ``P.*`` file into ``P.legacy-v2/`` (kept there as the backup);
4. reads the old answers, undos, settings and card flags from there;
5. makes ``P`` a store folder and appends them as this device's events (answers keep their
   review ids), skipping what an earlier, killed run already appended;
6. reads the device log back and checks every old answer is in it; only then removes the
   marker. The old files are never deleted.

This module reads the old layout on its own (not through the old store's code): the
journal's lines (``<crc32 hex> <json>``), the months' TinyDB documents (a mirror stands in
for a month that doesn't read) and the snapshot's tables.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

import quizzer.progress.devicelog as devicelog
import quizzer.progress.events as events
import quizzer.progress.layout as layout
from quizzer.errors import StoreError, shown
from quizzer.fsutil import atomic_write_bytes, fsync_dir
from quizzer.progress.device import ClaimedDevice, DeviceLock, claim_device
from quizzer.progress.eventlines import Event

#: The suffix of the marker kept beside ``P`` while an upgrade runs.
MIGRATING = ".migrating"
#: The most of an old snapshot, journal or month file read (a million answers fit).
OLD_FILE_LIMIT = 2 * 2**30
#: Files beside the store that aren't the store's but the app's (the remembered choice, the
#: record of Anki exports): they stay where they are, valid for the store folder too.
KEPT_BESIDE = (".ui.json", ".anki.json")
#: The tables of a schema 1 snapshot (it has no ``meta``).
_SCHEMA_1_TABLES = {"cards", "reviews", "settings", "_default"}
#: What the old store's writer lock (``P.lock``) held by another process means.
_OLD_WRITER = "another quizzer is writing this store (an older version?)"
#: Events appended per ``fdatasync`` while upgrading.
BATCH = 5000


def migrating_path(path: Path) -> Path:
    """The marker that says an upgrade of the store at ``path`` is under way."""
    return path.with_name(path.name + MIGRATING)


def needs_upgrade(path: Path) -> bool:
    """Whether ``path`` is an old store's file, or an upgrade of it was cut short."""
    return migrating_path(path).exists() or path.is_file()


@dataclass(slots=True)
class OldStore:
    """What an old store holds, as read from its files."""

    schema: int
    reviews: dict[str, dict[str, Any]] = field(default_factory=dict)
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Upgraded:
    """What an upgrade did: the answers carried over, what couldn't be, where the old files
    are, and a sentence for the user."""

    schema: int
    answers: int
    skipped: list[str]
    legacy: Path

    @property
    def notice(self) -> str:
        """One line for the user."""
        text = (
            f"upgraded the progress store (schema {self.schema}) to the several-devices "
            f"layout: {self.answers} answers carried over; the old files are kept in "
            f"{shown(self.legacy)}"
        )
        if self.skipped:
            text += f"; {len(self.skipped)} unreadable entries left behind (see doctor)"
        return text


def _decode_json(path: Path) -> Any:
    try:
        return msgspec.json.decode(layout.read_file(path, OLD_FILE_LIMIT))
    except msgspec.DecodeError as error:
        raise ValueError(f"it is not JSON ({error})") from None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _documents(table: Any) -> list[Any]:
    """A TinyDB table's documents in id order (ids are numbers as text: shorter first)."""
    return [doc for _, doc in sorted(_dict(table).items(), key=lambda kv: (len(kv[0]), kv[0]))]


def schema_of(doc: Any) -> int:
    """The schema of an old snapshot document; ``ValueError`` for anything else."""
    if not isinstance(doc, dict):
        raise ValueError("not a JSON object")
    if "meta" not in doc:
        if set(doc) <= _SCHEMA_1_TABLES and ("cards" in doc or "reviews" in doc):
            return 1
        raise ValueError("not a layout any quizzer wrote")
    schema = _dict(_dict(doc["meta"]).get("1")).get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int) or not 2 <= schema <= 4:
        raise ValueError("its meta.schema is no version quizzer wrote")
    return schema


def check_old_store(path: Path) -> int:
    """The schema of the old store whose snapshot is ``path``; a :class:`StoreError` (nothing
    touched) when the file is not one."""
    try:
        return schema_of(_decode_json(path))
    except OSError as error:
        hint = "check that the file is yours to read; nothing was changed"
        raise layout.failed("read this old progress store", error, path, hint) from error
    except ValueError as error:
        raise StoreError(
            f"not a quizzer progress store (neither a store folder nor an old one: {error})",
            hint="check the path given with --db (or $QUIZZER_DB); the file was left as it is",
            path=path,
        ) from error


def _journal_lines(path: Path, problems: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(offset after the line, event)`` of an old journal; damaged lines are noted."""
    try:
        data = layout.read_file(path, OLD_FILE_LIMIT)
    except FileNotFoundError:
        return
    position = 0
    lines = data.split(b"\n")
    for number, line in enumerate(lines, start=1):
        position += len(line) + 1
        if not line:
            continue
        body = line[9:]
        try:
            if line[8:9] != b" " or int(line[:8], 16) != zlib.crc32(body):
                raise ValueError
            event = msgspec.json.decode(body)
        except (ValueError, msgspec.DecodeError):
            if number < len(lines) - 1 or data.endswith(b"\n"):
                problems.append(f"{path.name}:{number}: a damaged journal line")
            continue  # a torn last line: never acknowledged
        if isinstance(event, dict):
            yield position, event


def _month_reviews(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    for candidate in (path, path.with_name(path.name + ".bak")):
        try:
            table = _dict(_decode_json(candidate)).get("reviews")
        except (OSError, ValueError):
            continue
        if isinstance(table, dict):
            return _documents(table)
    problems.append(f"{path.name}: a month file that doesn't read, nor its mirror")
    return []


def read_old_store(folder: Path, name: str) -> OldStore:
    """Every answer (undone ones taken out), card flag and setting of the old store whose
    snapshot is ``folder / name``."""
    snapshot = folder / name
    doc = _dict(_decode_json(snapshot))
    old = OldStore(schema_of(doc))
    old.cards = {
        str(record["card_id"]): record
        for record in _dict(doc.get("cards")).values()
        if isinstance(record, dict) and isinstance(record.get("card_id"), str)
    }
    old.settings = dict(_dict(_dict(doc.get("settings")).get("1")))
    meta = _dict(_dict(doc.get("meta")).get("1"))
    absorbed = meta.get("journal_offset", 0) if isinstance(meta.get("journal_offset"), int) else 0

    def add(review: Any) -> None:
        if isinstance(review, dict) and isinstance(review.get("id"), str):
            old.reviews.setdefault(review["id"], review)

    if old.schema == 1:
        for review in _documents(doc.get("reviews")):
            add(review)
        return old
    if old.schema >= 3:
        months = folder / f"{name}.log"
        for month in sorted(months.glob("[0-9][0-9][0-9][0-9]-[0-9][0-9].json")):
            for review in _month_reviews(month, old.problems):
                add(review)
    journals = [folder / f"{name}.journal"]
    if old.schema >= 3:
        journals.insert(0, folder / f"{name}.journal.prev")
    for journal in journals:
        current = journal.name.endswith(".journal")
        lines = list(_journal_lines(journal, old.problems))
        first = lines[0][1] if lines else {}
        gen = first.get("gen") if first.get("op") == "header" else None
        stale = current and old.schema >= 3 and gen != meta.get("gen")
        for end, event in lines:
            op = event.get("op")
            if op in ("record", "review"):
                add(event.get("review"))
            elif op == "undo":
                old.reviews.pop(str(event.get("review_id")), None)
            if not current or stale or end <= absorbed:
                continue  # the snapshot already holds what this did to cards and settings
            _apply_event(old, event)
    return old


def _apply_event(old: OldStore, event: dict[str, Any]) -> None:
    """Apply what one journal event did to a card's flags or to the settings."""
    op, card_id, state = event.get("op"), event.get("card_id"), event.get("state")
    if op == "record":
        card_id = _dict(event.get("review")).get("card_id")
        state = old.cards.get(str(card_id), {}) | _dict(event.get("card"))
    elif op == "bury":
        bury = _dict(event.get("bury"))
        card_id = bury.get("card_id")
        state = old.cards.get(str(card_id), {}) | {"buried_until": bury.get("until")}
    elif op in ("undo", "unbury"):
        state = event.get("restore")
    elif op == "settings":
        old.settings = dict(_dict(event.get("settings")))
        return
    elif op != "state":
        return
    if isinstance(card_id, str) and isinstance(state, dict):
        old.cards[card_id] = state


def _ms(text: Any) -> int | None:
    """An old ISO time as milliseconds (a time without a zone is UTC); ``None`` if it isn't one."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return events.to_ms(moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment)


def to_events(old: OldStore, device: str, now: datetime) -> tuple[list[Event], list[str]]:
    """The events of this device that carry ``old`` over, numbered from 1, and what
    couldn't be carried (each with the reason). Every event is checked as a foreign one."""
    out: list[Event] = []
    skipped: list[str] = []
    made = events.to_ms(now)

    def put(fields: dict[str, Any]) -> None:
        seq = len(out) + 1
        body = {name: value for name, value in fields.items() if value is not None}
        event = {"id": events.event_id(device, seq), "dev": device, "seq": seq} | body
        try:
            events.from_dict(event)
        except events.BadEvent as error:
            skipped.append(f"{body.get('review') or body.get('card') or body['op']}: {error}")
            return
        out.append(event)

    timed = [(_ms(review.get("reviewed_at")), review) for review in old.reviews.values()]
    timed.sort(key=lambda pair: (pair[0] or 0, str(pair[1].get("id"))))
    for at, review in timed:
        body = {"at": at, "op": "answer", "card": review.get("card_id")}
        body |= {"grade": review.get("grade"), "mode": review.get("mode")}
        body |= {"ms": review.get("duration_ms", 0), "typed": review.get("typed")}
        body |= {"correct": review.get("correct"), "over": review.get("overridden") or None}
        put(body | {"review": review.get("id"), "due": _ms(review.get("due"))})
    values = {k: v for k, v in old.settings.items() if k in events.SETTING_NAMES}
    if values:
        put({"at": made, "op": "settings", "values": values})
    for card_id, card in sorted(old.cards.items()):
        if card.get("suspended") is True:
            put({"at": made, "op": "suspend", "card": card_id})
        if card.get("leech") is True:
            put({"at": made, "op": "leech", "card": card_id})
        until = _ms(card.get("buried_until"))
        if until is not None and until > made:
            put({"at": made, "op": "bury", "card": card_id, "until": until})
    return out, skipped


def _move_old_files(path: Path, legacy: Path) -> None:
    layout.make_dir(legacy)
    prefix = path.name + "."
    keep = {migrating_path(path).name, legacy.name}
    moved = False
    for entry in sorted(path.parent.iterdir()):
        if entry.name == path.name and entry.is_dir():
            continue  # the new store folder of a resumed upgrade
        if entry.name in keep or entry.name in {path.name + suffix for suffix in KEPT_BESIDE}:
            continue
        if entry.name == path.name or entry.name.startswith(prefix):
            os.replace(entry, legacy / entry.name)
            moved = True
    if moved:
        fsync_dir(legacy)
        fsync_dir(path.parent)


def upgrade(path: Path, now: datetime) -> Upgraded:
    """Upgrade the old store at ``path`` (or finish an upgrade cut short): see the module's
    description. Returns what it did; a :class:`StoreError` leaves every old file where it
    can be found (beside ``path`` or in ``P.legacy-v2``) and the marker in place."""
    legacy = layout.legacy_dir(path)
    marker = migrating_path(path)
    if not marker.exists():
        check_old_store(path)
    old_lock, lock = path.with_name(path.name + ".lock"), None
    try:
        # An old quizzer still writing refuses us; nothing to hold where none ever ran here.
        lock = DeviceLock(old_lock, _OLD_WRITER) if old_lock.is_file() else None
        if not marker.exists():
            if legacy.exists():
                raise StoreError(
                    f"{shown(legacy.name)} is already there: an upgraded store was put back?",
                    hint=f"move {shown(legacy)} away (it is the backup of an earlier upgrade)",
                    path=path,
                )
            atomic_write_bytes(marker, b'{"upgrading": "quizzer-store"}\n')
        if lock:
            lock.release()  # the lock file moves with the old files
        _move_old_files(path, legacy)
        if not (legacy / path.name).is_file():
            raise StoreError(
                "an upgrade was cut short and the old store's file is gone",
                hint=f"look for it in {shown(legacy)}; {shown(marker.name)} marks the upgrade",
                path=path,
            )
        old = read_old_store(legacy, path.name)
        layout.create_store(path)
        with claim_device(path, now) as claimed:
            carried, skipped = _append(claimed, old, now)
        marker.unlink()
        fsync_dir(path.parent)
    except (OSError, ValueError) as error:
        raise StoreError(
            f"can't upgrade the old store: {layout.why(error)}",
            hint=f"nothing was removed (the old files are beside it or in {shown(legacy)}); "
            "check that the folder is yours to write, then open the store again",
            path=path,
        ) from error
    finally:
        if lock:
            lock.release()
    return Upgraded(old.schema, carried, skipped + old.problems, legacy)


def _same(found: Event, wanted: Event) -> bool:
    """Whether ``found`` in the log is the event ``wanted`` (an earlier run's time aside)."""
    return all(found.get(key) == wanted.get(key) for key in ("id", "op", "card", "review"))


def _append(claimed: ClaimedDevice, old: OldStore, now: datetime) -> tuple[int, list[str]]:
    wanted, skipped = to_events(old, claimed.device, now)
    there = devicelog.read_since(claimed.folder).events
    log = devicelog.DeviceLog(claimed.folder, claimed.device, now)
    try:
        # A run killed earlier appended a prefix of the same events (its last line, torn,
        # was cut off on open): append the rest.
        ours = len(there) <= len(wanted) and log.next_seq == len(there) + 1
        ours = ours and all(map(_same, there, wanted))
        rest = wanted[len(there) :]
        if not ours:
            raise StoreError(
                "the device folder holds events an upgrade didn't write",
                hint="move the store folder away and open again to upgrade from the backup",
                path=claimed.folder,
            )
        for start in range(0, len(rest), BATCH):
            log.append(rest[start : start + BATCH], now)
    finally:
        log.close()
    arrived = {event.get("review") for event in devicelog.read_since(claimed.folder).events}
    missing = [review for review in old.reviews if review not in arrived]
    lost = [m for m in missing if not any(s.startswith(f"{m}:") for s in skipped)]
    if lost:
        raise StoreError(
            f"{len(lost)} answers of the old store did not arrive in the new log",
            hint="nothing was removed; open again to retry the upgrade",
            path=claimed.folder,
        )
    return len(old.reviews) - len(missing), skipped
