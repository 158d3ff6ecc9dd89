"""Every value the store reads back is checked where it is read (issue 14.7).

A record that parses but holds a value no quizzer writes (``"grade": 9``, a time
that is not a time, a renamed key, a naive ``due``) is damage, named with its file
and record, never a ``KeyError`` or ``TypeError`` in whatever command touches it.
The checks build the real objects (:class:`Review`, :class:`CardState`), so they
accept exactly what the code that uses the values accepts.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import fsrs

from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.queue import QueueFacts
from quizzer.scheduling.review import Review

#: What reading a malformed record may raise (a wrong type, a missing key, a bad value).
BAD_VALUE = (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError)


def _exact_int(value: Any, name: str, low: int, high: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} is not a whole number: {value!r:.40}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} is out of range: {value}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def aware_time(text: Any, name: str) -> datetime:
    """An ISO 8601 time with its UTC offset, or ``ValueError`` naming ``name``."""
    if not isinstance(text, str):
        raise ValueError(f"{name} is not a time: {text!r:.40}")
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"{name} has no UTC offset: {text!r:.40}")
    return moment


def review_problem(data: Any) -> str | None:
    """Why ``data`` is not a logged answer as quizzer writes it (``None``: it is one)."""
    try:
        if not isinstance(data, dict):
            raise ValueError("not an object")
        if not isinstance(data["id"], str) or not data["id"]:
            raise ValueError(f"id is not a text: {data['id']!r:.40}")
        CardKey.parse(data["card_id"])
        _exact_int(data["grade"], "grade", 1, 4)
        aware_time(data["reviewed_at"], "reviewed_at")
        if data.get("due") is not None:
            aware_time(data["due"], "due")
        for name in ("stability", "difficulty", "last_interval_days", "interval_days"):
            value = data.get(name)
            if value is not None and not _is_number(value):
                raise ValueError(f"{name} is not a number: {value!r:.40}")
        Review.from_dict(data)
    except BAD_VALUE as exc:
        return f"review {_short(data)} is invalid ({_reason(exc)})"
    return None


def card_problem(data: Any) -> str | None:
    """Why ``data`` is not a card state as quizzer writes it (``None``: it is one)."""
    return checked_card(data)[1]


def checked_card(data: Any) -> tuple[CardState | None, str | None]:
    """``data`` read as a card state, or ``None`` and why it is not one as quizzer writes it
    (read once: checking it builds the state anyway)."""
    try:
        if not isinstance(data, dict):
            raise ValueError("not an object")
        aware_time(data["due"], "due")
        for name in ("last_review", "buried_until", "first_review"):
            if data.get(name) is not None:
                aware_time(data[name], name)
        for name in ("reps", "lapses"):
            if name in data:
                _exact_int(data[name], name, 0)
        return CardState.from_dict(data), None
    except BAD_VALUE as exc:
        return None, f"card state {_short(data)} is invalid ({_reason(exc)})"


def checked_facts(data: Any) -> tuple[QueueFacts | None, str | None]:
    """What the due queue reads of a stored card state (:class:`QueueFacts`), each of those
    values checked as :func:`checked_card` checks it, or ``None`` and why one is wrong.

    A queue over a deck's thousands of cards reads these few fields of each; the card
    states it queues are then read whole, through :func:`checked_card`.
    """
    try:
        if not isinstance(data, dict):
            raise ValueError("not an object")
        get = data.get
        due = aware_time(data["due"], "due")
        # One call per value, no loop: a queue reads these of a deck's every card.
        last = get("last_review")
        if last is not None:
            last = aware_time(last, "last_review")
        buried = get("buried_until")
        if buried is not None:
            buried = aware_time(buried, "buried_until")
        reps = get("reps", 0)
        if type(reps) is not int:
            _exact_int(reps, "reps", 0)
        elif reps < 0:
            raise ValueError(f"reps is out of range: {reps}")
        phase = _PHASE_OF.get(get("state", 1))
        if phase is None:  # not a stored state number as quizzer writes it: as from_dict reads it
            phase = fsrs.State(int(get("state", 1)))
        suspended = bool(get("suspended", False))
        return QueueFacts(reps == 0, phase is fsrs.State.Review, due, last, suspended, buried), None
    except BAD_VALUE as exc:
        return None, f"card state {_short(data)} is invalid ({_reason(exc)})"


#: The stored state numbers, as :meth:`CardState.from_dict` reads them.
_PHASE_OF = {int(state.value): state for state in fsrs.State}


def undo_problem(entry: Any) -> str | None:
    """Why an undo-stack entry can't be taken back (``None``: it can)."""
    try:
        if not isinstance(entry, dict):
            raise ValueError("not an object")
        if entry.get("before") is not None and card_problem(entry["before"]):
            raise ValueError(card_problem(entry["before"]))
        if "bury_id" in entry:
            if not isinstance(entry["bury_id"], str):
                raise ValueError("bury_id is not a text")
            _bury_ok(entry["bury"])
            return None
        if not isinstance(entry["review_id"], str):
            raise ValueError("review_id is not a text")
        CardKey.parse(entry["card_id"])
        problem = review_problem(entry["review"])
        if problem:
            raise ValueError(problem)
    except BAD_VALUE as exc:
        return f"undo entry {_short(entry)} is invalid ({_reason(exc)})"
    return None


def recent_problem(entry: Any) -> str | None:
    """Why an entry of ``meta.recent`` (``[review id, card id, time, phase]``) is wrong."""
    try:
        if not isinstance(entry, list) or len(entry) < 4:
            raise ValueError("not a list of four")
        if not all(isinstance(v, str) for v in entry[:4]):
            raise ValueError("not four texts")
        aware_time(entry[2], "the time")
    except BAD_VALUE as exc:
        return f"recent answer {_short(entry)} is invalid ({_reason(exc)})"
    return None


def _short(data: Any) -> str:
    return f"{data!r:.80}"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}" if exc.args else "a key is missing"
    return str(exc) or type(exc).__name__


def _card_or_none(data: Any, name: str) -> None:
    if data is not None:
        problem = card_problem(data)
        if problem:
            raise ValueError(f"{name}: {problem}")


def _bury_ok(bury: Any) -> None:
    if not isinstance(bury, dict) or not isinstance(bury["id"], str):
        raise ValueError("the bury is not a record")
    CardKey.parse(bury["card_id"])
    aware_time(bury["at"], "bury.at")
    aware_time(bury["until"], "bury.until")


def event_problem(event: Any) -> str | None:
    """Why a journal event whose checksum verifies can't be replayed (``None``: it can)."""
    from quizzer.scheduling.settings import SchedulerSettings

    try:
        op = event["op"]
        if "seq" in event:
            _exact_int(event["seq"], "seq", 0)
        if op in ("record", "review"):
            problem = review_problem(event["review"])
            if problem:
                raise ValueError(problem)
            if op == "record":
                _exact_int(event["card"]["state"], "card.state", 0, 3)
        elif op in ("undo", "unbury", "state"):
            CardKey.parse(event["card_id"])
            if op == "state":
                _card_or_none(event["state"], "state")
                if event["state"] is None:
                    raise ValueError("state is missing")
            else:
                _card_or_none(event.get("restore"), "restore")
                key = "review_id" if op == "undo" else "bury_id"
                if not isinstance(event[key], str):
                    raise ValueError(f"{key} is not a text")
                if op == "undo" and event.get("at") is not None:
                    aware_time(event["at"], "at")
        elif op == "bury":
            _bury_ok(event["bury"])
        elif op == "settings":
            SchedulerSettings.from_dict(event["settings"])
        elif op == "header":
            _exact_int(event["gen"], "gen", 0)
        else:
            raise ValueError(f"unknown op {op!r:.20}")
    except BAD_VALUE as exc:
        return f"journal event {_short(event)} is invalid ({_reason(exc)})"
    return None
