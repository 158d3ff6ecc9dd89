"""The store's events, typed: what each line of a device log holds (see ``docs/devices.md``).

Every change to progress is one event with a globally unique id ``<dev>-<seq>``, the device
that wrote it, its sequence number on that device and its time ``at`` (milliseconds since
the epoch, UTC). Replay order is ``(at, dev, seq)`` (:attr:`Event.key`).

=============  ====================================================================
``op``         fields besides ``id``, ``dev``, ``seq``, ``at``
=============  ====================================================================
``answer``     ``card``, ``grade`` 1-4, ``mode``, ``ms`` (thinking time); optional
               ``typed``, ``correct``, ``over`` (the learner overrode the verdict),
               ``params`` (the digest of the settings in force, :func:`settings_digest`),
               ``review`` (the review id when it isn't the event id: migrated answers),
               ``due`` (ms: a due date kept as given, for migrated and Anki answers; new
               answers leave it out and replay draws the fuzz from the event id),
               ``anki`` (what Anki gave, for the record)
``practice``   ``card``, ``grade``, ``mode`` (``cram``, ``match``…), ``ms``: changes no schedule
``undo``       ``target``: the id of an earlier event of the same device
``bury``       ``card``, ``until`` (ms)
``suspend``    ``card`` (``unsuspend`` too: it also clears the leech mark)
``leech``      ``card``: marked as a leech
``settings``   ``values``: {setting: value}, last writer wins per setting
=============  ====================================================================

:func:`from_dict` is the one way in: it checks every value (another device's log, a merge
input) and raises :class:`BadEvent` saying what is wrong; the caller reports and skips.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, cast

from quizzer.cards.card import CardKey
from quizzer.scheduling.grades import LOG_MODES, Grade, Mode
from quizzer.scheduling.settings import SchedulerSettings

#: Times an event may have: 1970 up to the year 9000 (what a schedule can follow).
_LATEST_MS = 221845392000000
#: The longest text kept from an answer (typed answers, modes, ids).
_MAX_TEXT = 10_000
#: The modes of answers that change no schedule.
PRACTICE_MODES: tuple[str, ...] = ("cram", "match", "preview")
#: The settings a ``settings`` event may carry.
SETTING_NAMES: frozenset[str] = frozenset(f.name for f in fields(SchedulerSettings))

Key = tuple[int, str, int]


class BadEvent(ValueError):
    """An event that can't be replayed; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Event:
    """What every event has: its id, device, sequence number on that device and time (ms)."""

    id: str
    dev: str
    seq: int
    at: int

    @property
    def key(self) -> Key:
        """The replay order: time, then device, then sequence."""
        return (self.at, self.dev, self.seq)

    @property
    def when(self) -> datetime:
        """``at`` as a UTC datetime."""
        return from_ms(self.at)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object written to a log line (optional fields only when set)."""
        out: dict[str, Any] = {"id": self.id, "dev": self.dev, "seq": self.seq, "at": self.at}
        out["op"] = OPS_OF[type(self)]
        for f in fields(self)[4:]:
            value = getattr(self, f.name)
            if value is None or (f.name == "over" and value is False):
                continue
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Answer(Event):
    """An answer that schedules the card."""

    card: str
    grade: Grade
    mode: Mode
    ms: int
    typed: str | None = None
    correct: bool | None = None
    over: bool = False
    params: str | None = None
    review: str | None = None
    due: int | None = None
    anki: dict[str, Any] | None = None

    @property
    def review_id(self) -> str:
        """The id of the review this answer is in the log: kept from where it came from."""
        return self.review or self.id


@dataclass(frozen=True, slots=True)
class Practice(Event):
    """An answer given in a mode that changes no schedule (cram, match)."""

    card: str
    grade: int
    mode: str
    ms: int


@dataclass(frozen=True, slots=True)
class Undo(Event):
    """Takes back ``target``, an earlier event of the same device."""

    target: str


@dataclass(frozen=True, slots=True)
class Bury(Event):
    """Hides ``card`` until ``until`` (ms); an answer ends it."""

    card: str
    until: int


@dataclass(frozen=True, slots=True)
class Suspend(Event):
    """Suspends ``card`` (never due)."""

    card: str


@dataclass(frozen=True, slots=True)
class Unsuspend(Event):
    """Brings ``card`` back; clears its leech mark."""

    card: str


@dataclass(frozen=True, slots=True)
class Leech(Event):
    """Marks ``card`` as a leech."""

    card: str


@dataclass(frozen=True, slots=True)
class Settings(Event):
    """Sets the scheduling settings named in ``values`` (last writer wins per setting)."""

    values: dict[str, Any] = field(default_factory=dict)


#: Events that concern one card.
CardEvent = Answer | Practice | Bury | Suspend | Unsuspend | Leech
AnyEvent = Answer | Practice | Undo | Bury | Suspend | Unsuspend | Leech | Settings

OPS: dict[str, type[Event]] = {
    "answer": Answer,
    "practice": Practice,
    "undo": Undo,
    "bury": Bury,
    "suspend": Suspend,
    "unsuspend": Unsuspend,
    "leech": Leech,
    "settings": Settings,
}
OPS_OF: dict[type[Event], str] = {cls: op for op, cls in OPS.items()}


def from_ms(ms: int) -> datetime:
    """Milliseconds since the epoch as a UTC datetime."""
    return datetime.fromtimestamp(ms / 1000, UTC)


def to_ms(moment: datetime) -> int:
    """A timezone-aware datetime as whole milliseconds since the epoch (rounded down)."""
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000


def event_id(dev: str, seq: int) -> str:
    """The id of the ``seq``-th event of device ``dev``."""
    return f"{dev}-{seq}"


def settings_digest(settings: SchedulerSettings) -> str:
    """A short name for ``settings``, equal for equal settings (what answers reference)."""
    text = json.dumps(settings.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _text(data: Mapping[str, Any], name: str, *, optional: bool = False) -> str | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > _MAX_TEXT:
        raise BadEvent(f"{name} must be a non-empty text, got {value!r:.60}")
    return value


def _int(data: Mapping[str, Any], name: str, low: int, high: int, *, optional: bool = False) -> Any:
    value = data.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadEvent(f"{name} must be a whole number from {low} to {high}, got {value!r:.60}")
    return value


def _typed(data: Mapping[str, Any]) -> str | None:
    value = data.get("typed")
    if value is not None and (not isinstance(value, str) or len(value) > _MAX_TEXT):
        raise BadEvent(f"typed must be a text, got {value!r:.60}")
    return value


def _card(data: Mapping[str, Any]) -> str:
    card = _text(data, "card")
    assert card is not None
    try:
        CardKey.parse(card)
    except ValueError:
        raise BadEvent(f"card {card!r:.60} is not a card id") from None
    return card


def _flag(data: Mapping[str, Any], name: str) -> bool | None:
    value = data.get(name)
    if value is not None and not isinstance(value, bool):
        raise BadEvent(f"{name} must be true or false, got {value!r:.60}")
    return value


def from_dict(data: Mapping[str, Any]) -> AnyEvent:
    """The typed event of a log line's object; :class:`BadEvent` says what is wrong."""
    if not isinstance(data, Mapping):
        raise BadEvent("an event must be a JSON object")
    op = data.get("op")
    cls = OPS.get(op) if isinstance(op, str) else None
    if cls is None:
        raise BadEvent(f"unknown op {op!r:.40}")
    dev = _text(data, "dev")
    seq = _int(data, "seq", 0, 2**62)
    assert dev is not None
    if data.get("id") != event_id(dev, seq):
        raise BadEvent(f"id {data.get('id')!r:.60} is not {dev}-{seq}")
    head = (event_id(dev, seq), dev, seq, _int(data, "at", 0, _LATEST_MS))
    if cls is Answer or cls is Practice:
        grade = _int(data, "grade", 1, 4)
        mode = _text(data, "mode")
        ms = _int(data, "ms", 0, 2**62)
        if cls is Practice:
            return Practice(*head, _card(data), grade, str(mode), ms)
        if mode not in LOG_MODES:
            raise BadEvent(f"mode must be one of {', '.join(LOG_MODES)}, got {mode!r:.40}")
        anki = data.get("anki")
        if anki is not None and not isinstance(anki, dict):
            raise BadEvent("anki must be an object")
        return Answer(
            *head,
            _card(data),
            cast(Grade, grade),
            cast(Mode, mode),
            ms,
            typed=_typed(data),
            correct=_flag(data, "correct"),
            over=bool(_flag(data, "over")),
            params=_text(data, "params", optional=True),
            review=_text(data, "review", optional=True),
            due=_int(data, "due", 0, _LATEST_MS, optional=True),
            anki=anki,
        )
    if cls is Undo:
        target = _text(data, "target")
        assert target is not None
        return Undo(*head, target)
    if cls is Bury:
        return Bury(*head, _card(data), _int(data, "until", 0, _LATEST_MS))
    if cls is Settings:
        values = data.get("values")
        if not isinstance(values, dict) or not values:
            raise BadEvent("values must be an object naming at least one setting")
        unknown = sorted(set(values) - SETTING_NAMES)
        if unknown:
            raise BadEvent(f"unknown setting {unknown[0]!r:.40}")
        try:
            SchedulerSettings.from_dict(values)
        except (ValueError, TypeError) as exc:
            raise BadEvent(f"bad settings: {exc}") from None
        return Settings(*head, dict(values))
    if cls is Suspend:
        return Suspend(*head, _card(data))
    if cls is Unsuspend:
        return Unsuspend(*head, _card(data))
    return Leech(*head, _card(data))
