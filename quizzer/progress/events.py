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

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, cast, get_args

import msgspec

from quizzer.cards.card import CardKey
from quizzer.scheduling.grades import LOG_MODES, Grade, Mode
from quizzer.scheduling.settings import SchedulerSettings

#: Times an event may have: 1970 up to the year 9000 (what a schedule can follow).
_LATEST_MS = 221845392000000
#: The longest text kept from an answer (typed answers, modes, ids).
MAX_TEXT = 10_000
#: The settings a ``settings`` event may carry.
SETTING_NAMES: frozenset[str] = frozenset(f.name for f in dataclasses.fields(SchedulerSettings))

Key = tuple[int, str, int]


class BadEvent(ValueError):
    """An event that can't be replayed; the message says what is wrong with it."""


class Event(msgspec.Struct, frozen=True, omit_defaults=True, tag_field="op", tag=str.lower):
    """What every event has: its id, device, sequence number on that device and time (ms),
    and its ``op``: its kind's name in lower case. (A struct: made in microseconds at
    start-up, where a frozen dataclass takes ~0.6 ms.)"""

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
        """The JSON object written to a log line: its ``op``, then its fields, optional ones
        only when set (``over`` only when true; ``correct`` is a fact either way)."""
        return cast(dict[str, Any], msgspec.to_builtins(self))


class Answer(Event, frozen=True):
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


class Practice(Event, frozen=True):
    """An answer given in a mode that changes no schedule (cram, match)."""

    card: str
    grade: int
    mode: str
    ms: int


class Undo(Event, frozen=True):
    """Takes back ``target``, an earlier event of the same device."""

    target: str


class Bury(Event, frozen=True):
    """Hides ``card`` until ``until`` (ms); an answer ends it."""

    card: str
    until: int


class Suspend(Event, frozen=True):
    """Suspends ``card`` (never due)."""

    card: str


class Unsuspend(Event, frozen=True):
    """Brings ``card`` back; clears its leech mark."""

    card: str


class Leech(Event, frozen=True):
    """Marks ``card`` as a leech."""

    card: str


class Settings(Event, frozen=True):
    """Sets the scheduling settings named in ``values`` (last writer wins per setting)."""

    values: dict[str, Any]


#: Events that concern one card.
CardEvent = Answer | Practice | Bury | Suspend | Unsuspend | Leech
AnyEvent = Answer | Practice | Undo | Bury | Suspend | Unsuspend | Leech | Settings

#: Each kind by its ``op``.
OPS: dict[str, type[Event]] = {cls.__name__.lower(): cls for cls in get_args(AnyEvent)}


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


def _shown(value: Any) -> str:
    """``value`` as a log line holds it (JSON), cut short: messages show no Python text."""
    try:
        return msgspec.json.encode(value).decode()[:60]
    except (TypeError, msgspec.EncodeError):
        return "a value that is not JSON"


Check = Callable[[str, Any], Any]


def _text(name: str, value: Any) -> str:
    if type(value) is str and 0 < len(value) <= MAX_TEXT:
        return value
    raise BadEvent(f"{name} must be a non-empty text, got {_shown(value)}")


def _number(low: int, high: int) -> Check:
    def check(name: str, value: Any) -> int:
        if type(value) is int and low <= value <= high:
            return value
        raise BadEvent(f"{name} must be a whole number from {low} to {high}, got {_shown(value)}")

    return check


def _card(name: str, value: Any) -> str:
    card = _text(name, value)
    try:
        CardKey.parse(card)
    except ValueError:
        raise BadEvent(f"{name} {_shown(card)} is not a card id") from None
    return card


def _mode(name: str, value: Any) -> str:
    if value in LOG_MODES:
        return cast(str, value)
    raise BadEvent(f"{name} must be one of {', '.join(LOG_MODES)}, got {_shown(value)}")


def _typed(name: str, value: Any) -> str:
    if type(value) is str and len(value) <= MAX_TEXT:
        return value
    raise BadEvent(f"{name} must be a text, got {_shown(value)}")


def _flag(name: str, value: Any) -> bool:
    if type(value) is bool:
        return value
    raise BadEvent(f"{name} must be true or false, got {_shown(value)}")


def _object(name: str, value: Any) -> dict[str, Any]:
    if type(value) is dict:
        return value
    raise BadEvent(f"{name} must be an object")


def _settings(name: str, value: Any) -> dict[str, Any]:
    if type(value) is not dict or not value:
        raise BadEvent(f"{name} must be an object naming at least one setting")
    unknown = sorted(set(value) - SETTING_NAMES)
    if unknown:
        raise BadEvent(f"unknown setting {_shown(unknown[0])}")
    try:
        SchedulerSettings.from_dict(value)
    except (ValueError, TypeError) as exc:
        raise BadEvent(f"bad settings: {exc}") from None
    return dict(value)


_time, _count = _number(0, _LATEST_MS), _number(0, 2**62)
#: The check of each field after the head.
_CHECKS: dict[str, Check] = {"card": _card, "grade": _number(1, 4), "mode": _mode, "ms": _count}
_CHECKS |= {"typed": _typed, "correct": _flag, "over": _flag, "params": _text, "review": _text}
_CHECKS |= {"due": _time, "anki": _object, "target": _text, "until": _time, "values": _settings}


def _fields(cls: type[Event], **special: Check) -> tuple[tuple[str, Check, bool], ...]:
    """``cls``'s fields after the head: name, check, and whether it may be left out."""
    names = cls.__struct_fields__
    first_optional = len(names) - len(cls.__struct_defaults__)
    return tuple(
        (name, special.get(name, _CHECKS[name]), at >= first_optional)
        for at, name in enumerate(names[4:], 4)
    )


#: Each kind's fields (a practice answer's mode is any text: cram, match...).
_FIELDS = {cls: _fields(cls) for cls in OPS.values()} | {Practice: _fields(Practice, mode=_text)}


def from_dict(data: Mapping[str, Any]) -> AnyEvent:
    """The typed event of a log line's object; :class:`BadEvent` says what is wrong."""
    if not isinstance(data, Mapping):
        raise BadEvent("an event must be a JSON object")
    op = data.get("op")
    cls = OPS.get(op) if type(op) is str else None
    if cls is None:
        raise BadEvent(f"unknown op {_shown(op)}")
    dev, seq = _text("dev", data.get("dev")), _count("seq", data.get("seq"))
    if data.get("id") != f"{dev}-{seq}":
        raise BadEvent(f"id {_shown(data.get('id'))} is not {dev}-{seq}")
    values: dict[str, Any] = {}
    for name, check, optional in _FIELDS[cls]:
        value = data.get(name)
        if value is not None or not optional:
            values[name] = check(name, value)
    return cast(AnyEvent, cls(f"{dev}-{seq}", dev, seq, _time("at", data.get("at")), **values))
