"""Every value the store reads back is checked where it is read.

A record that parses but holds a value no quizzer writes (``"grade": 9``, a time
that is not a time, a renamed key, a naive ``due``) is damage, named with its file
and record, never a ``KeyError`` or ``TypeError`` in whatever command touches it.
The checks build the real objects (:class:`Review`, :class:`CardState`), so they
accept exactly what the code that uses the values accepts.

A problem is said in plain words: the record by what names it (an answer by its id and
card, a card state by its card), then what is wrong, with the value as the file holds it
(JSON, cut short), never a Python ``repr``: ``answer r1 of card deck/c1|en:term>fr:term
is invalid: grade is 9, not 1 to 4``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import fsrs

from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.queue import QueueFacts
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

#: What reading a malformed record may raise (a wrong type, a missing key, a bad value).
BAD_VALUE = (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError)


def shown_value(value: Any, width: int = 40) -> str:
    """``value`` as the file holds it (JSON), cut to ``width`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = str(value)  # not from a JSON file
    return text if len(text) <= width else text[: width - 1] + "…"


def reason_of(exc: BaseException) -> str:
    """What a failed read of a record (or of a file's bytes) says is wrong, in plain words."""
    if isinstance(exc, json.JSONDecodeError):
        # json's messages end in "… starting at" / "… at" (it appends the place itself).
        what = exc.msg.removesuffix(" starting at").removesuffix(" at")
        where = f"line {exc.lineno}, column {exc.colno}, byte {exc.pos}"
        return f"invalid JSON at {where}: {what[:1].lower() + what[1:]}"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 at byte {exc.start}"
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    if isinstance(exc, KeyError):
        return f"{exc.args[0]} is missing" if exc.args else "a key is missing"
    if isinstance(exc, TypeError | AttributeError):
        return "a value is of the wrong kind"  # Python's own words name its types
    return str(exc) or type(exc).__name__


def _text(value: Any) -> str:
    """An id or card id (a text) in a message, cut to 80 characters."""
    text = str(value)
    return text if len(text) <= 80 else text[:79] + "…"


def _texts(*values: Any) -> bool:
    return all(isinstance(v, str) and v for v in values)


def _answer_name(data: Any) -> str:
    """How a message names a logged answer: by its id and card, as far as they are texts."""
    get = data.get if isinstance(data, dict) else {}.get
    rid, card = get("id"), get("card_id")
    name = f"answer {_text(rid)}" if _texts(rid) else "an answer"
    return f"{name} of card {_text(card)}" if _texts(card) else name


def _card_name(data: Any) -> str:
    card = data.get("card_id") if isinstance(data, dict) else None
    return f"the state of card {_text(card)}" if _texts(card) else "a card state"


def _of_card(data: dict[str, Any]) -> str:
    card = data.get("card_id")
    return f" of card {_text(card)}" if _texts(card) else ""


def _object(data: Any) -> None:
    if not isinstance(data, dict):
        raise ValueError(f"it is {shown_value(data)}, not an object")


def _exact_int(value: Any, name: str, low: int, high: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} is not a whole number: {shown_value(value)}")
    if value < low or (high is not None and value > high):
        wanted = f"less than {low}" if high is None else f"not {low} to {high}"
        raise ValueError(f"{name} is {value}, {wanted}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _converts(convert: Any, value: Any, name: str, kind: str) -> None:
    """``convert(value)`` works, as the code reading the value calls it."""
    try:
        convert(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} is not {kind}: {shown_value(value)}") from None


def _id(value: Any, name: str) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{name} is not a text: {shown_value(value)}")
    if not value:
        raise ValueError(f"{name} is empty")


def _card_id(value: Any, name: str = "card_id") -> None:
    _id(value, name)
    try:
        CardKey.parse(value)
    except ValueError:
        raise ValueError(f"{name} is not a card id: {shown_value(value)}") from None


def aware_time(text: Any, name: str) -> datetime:
    """An ISO 8601 time with its UTC offset, or ``ValueError`` naming ``name``."""
    if not isinstance(text, str):
        raise ValueError(f"{name} is not a time: {shown_value(text)}")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{name} is not a time: {shown_value(text)}") from None
    if moment.tzinfo is None:
        raise ValueError(f"{name} has no UTC offset: {shown_value(text)}")
    return moment


def _review_reason(data: Any) -> None:
    """``ValueError`` (or a :data:`BAD_VALUE`) saying why ``data`` is no logged answer."""
    _object(data)
    _id(data["id"], "id")
    _card_id(data["card_id"])
    _exact_int(data["grade"], "grade", 1, 4)
    aware_time(data["reviewed_at"], "reviewed_at")
    if data.get("due") is not None:
        aware_time(data["due"], "due")
    for name in ("stability", "difficulty", "last_interval_days", "interval_days"):
        value = data.get(name)
        if value is not None and not _is_number(value):
            raise ValueError(f"{name} is not a number: {shown_value(value)}")
    try:
        Review.from_dict(data)
    except (TypeError, ValueError, OverflowError):
        _converts(int, data["duration_ms"], "duration_ms", "a whole number")  # said plainly
        raise


def review_problem(data: Any) -> str | None:
    """Why ``data`` is not a logged answer as quizzer writes it (``None``: it is one)."""
    try:
        _review_reason(data)
    except BAD_VALUE as exc:
        return f"{_answer_name(data)} is invalid: {reason_of(exc)}"
    return None


def card_problem(data: Any) -> str | None:
    """Why ``data`` is not a card state as quizzer writes it (``None``: it is one)."""
    return checked_card(data)[1]


def _phase(value: Any) -> fsrs.State:
    """The learning phase a stored state number stands for, as :meth:`CardState.from_dict`
    reads it."""
    phase = _PHASE_OF.get(value)
    if phase is None:
        try:
            phase = fsrs.State(int(value))
        except (TypeError, ValueError, OverflowError):
            numbers = ", ".join(map(str, _PHASE_OF))
            raise ValueError(f"state is {shown_value(value)}, not one of {numbers}") from None
    return phase


def _card_reason(data: Any) -> None:
    """``ValueError`` (or a :data:`BAD_VALUE`) for what :meth:`CardState.from_dict` lets
    through (a time without its offset, a count or step that is no whole number)."""
    _object(data)
    aware_time(data["due"], "due")
    for name in ("last_review", "buried_until", "first_review"):
        if data.get(name) is not None:
            aware_time(data[name], name)
    for name in ("reps", "lapses"):
        if name in data:
            _exact_int(data[name], name, 0)
    if data.get("step") is not None:  # the scheduler compares it with its steps' count
        _exact_int(data["step"], "step", 0)


def _card_state(data: Any) -> CardState:
    _card_reason(data)
    try:
        return CardState.from_dict(data)
    except (TypeError, ValueError, OverflowError):
        # What it refused, said plainly (checked only now: the card id is parsed once).
        _card_id(data["card_id"])
        _phase(data.get("state", 1))
        for name in ("stability", "difficulty"):
            if data.get(name) is not None:
                _converts(float, data[name], name, "a number")
        raise


def checked_card(data: Any) -> tuple[CardState | None, str | None]:
    """``data`` read as a card state, or ``None`` and why it is not one as quizzer writes it
    (read once: checking it builds the state anyway)."""
    try:
        return _card_state(data), None
    except BAD_VALUE as exc:
        return None, f"{_card_name(data)} is invalid: {reason_of(exc)}"


def checked_facts(data: Any) -> tuple[QueueFacts | None, str | None]:
    """What the due queue reads of a stored card state (:class:`QueueFacts`), each of those
    values checked as :func:`checked_card` checks it, or ``None`` and why one is wrong.

    A queue over a deck's thousands of cards reads these few fields of each; the card
    states it queues are then read whole, through :func:`checked_card`.
    """
    try:
        if not isinstance(data, dict):
            _object(data)
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
        if type(reps) is not int or reps < 0:
            _exact_int(reps, "reps", 0)
        phase = _PHASE_OF.get(get("state", 1)) or _phase(get("state", 1))
        suspended = bool(get("suspended", False))
        return QueueFacts(reps == 0, phase is fsrs.State.Review, due, last, suspended, buried), None
    except BAD_VALUE as exc:
        return None, f"{_card_name(data)} is invalid: {reason_of(exc)}"


#: The stored state numbers, as :meth:`CardState.from_dict` reads them.
_PHASE_OF = {int(state.value): state for state in fsrs.State}


def _inner(check: Any, data: Any, what: str) -> None:
    """``check(data)``, its reason said as being ``what``'s (``in its answer, …``)."""
    try:
        check(data)
    except BAD_VALUE as exc:
        raise ValueError(f"in {what}, {reason_of(exc)}") from None


def _undo_name(entry: Any) -> str:
    if not isinstance(entry, dict):
        return "an undo entry"
    if _texts(entry.get("bury_id")):
        return f"the undo entry for bury {_text(entry['bury_id'])}{_of_card(entry)}"
    if _texts(entry.get("review_id")):
        return f"the undo entry for answer {_text(entry['review_id'])}{_of_card(entry)}"
    return "an undo entry"


def undo_problem(entry: Any) -> str | None:
    """Why an undo-stack entry can't be taken back (``None``: it can)."""
    try:
        _object(entry)
        if entry.get("before") is not None:
            _inner(_card_state, entry["before"], "its state before")
        if "bury_id" in entry:
            _id(entry["bury_id"], "bury_id")
            _inner(_bury_reason, entry["bury"], "its bury")
            return None
        _id(entry["review_id"], "review_id")
        _card_id(entry["card_id"])
        _inner(_review_reason, entry["review"], "its answer")
    except BAD_VALUE as exc:
        return f"{_undo_name(entry)} is invalid: {reason_of(exc)}"
    return None


def recent_problem(entry: Any) -> str | None:
    """Why an entry of ``meta.recent`` (``[review id, card id, time, phase]``) is wrong."""
    try:
        if not isinstance(entry, list) or len(entry) < 4:
            raise ValueError(f"it is {shown_value(entry)}, not [answer id, card id, time, phase]")
        if not all(isinstance(v, str) for v in entry[:4]):
            raise ValueError(f"its first four values are not all texts: {shown_value(entry)}")
        aware_time(entry[2], "the answer time")
    except BAD_VALUE as exc:
        named = isinstance(entry, list) and entry and _texts(entry[0])
        name = f"recent answer {_text(entry[0])}" if named else "a recent answer"
        if named and len(entry) > 1 and _texts(entry[1]):
            name += f" of card {_text(entry[1])}"
        return f"{name} is invalid: {reason_of(exc)}"
    return None


def undone_problem(entry: Any) -> str | None:
    """Why an entry of ``meta.undone`` (``[answer id, card id, time]``) is wrong."""
    try:
        if not isinstance(entry, list) or len(entry) != 3:
            raise ValueError(f"it is {shown_value(entry)}, not [answer id, card id, time]")
        _id(entry[0], "its answer id")
        _card_id(entry[1])
        aware_time(entry[2], "the answer time")
    except BAD_VALUE as exc:
        return f"undone answer {shown_value(entry)} is invalid: {reason_of(exc)}"
    return None


def _card_or_none(data: Any, what: str) -> None:
    if data is not None:
        _inner(_card_state, data, what)


def _bury_reason(bury: Any) -> None:
    _object(bury)
    _id(bury["id"], "id")
    _card_id(bury["card_id"])
    aware_time(bury["at"], "at")
    aware_time(bury["until"], "until")


def _event_name(event: Any) -> str:
    """How a message names a journal event: its op, and the answer, bury or card it is of."""
    if not isinstance(event, dict) or not _texts(event.get("op")):
        return "a journal event"
    op = event["op"]
    name = f"journal event {shown_value(op, 20)}"
    if op in ("record", "review"):
        review = event.get("review")
        return f"{name} for {_answer_name(review)}" if isinstance(review, dict) else name
    bury = event.get("bury")
    if op == "bury" and isinstance(bury, dict) and _texts(bury.get("id")):
        return f"{name} for bury {_text(bury['id'])}{_of_card(bury)}"
    key, what = ("review_id", "answer") if op == "undo" else ("bury_id", "bury")
    if op in ("undo", "unbury") and _texts(event.get(key)):
        return f"{name} for {what} {_text(event[key])}{_of_card(event)}"
    return name + _of_card(event) if op in ("undo", "unbury", "state") else name


def event_problem(event: Any) -> str | None:
    """Why a journal event whose checksum verifies can't be replayed (``None``: it can)."""
    try:
        _object(event)
        op = event["op"]
        if "seq" in event:
            _exact_int(event["seq"], "seq", 0)
        if op in ("record", "review"):
            _inner(_review_reason, event["review"], "its answer")
            if op == "record":
                _exact_int(event["card"]["state"], "card.state", 0, 3)
                if event["card"].get("step") is not None:
                    _exact_int(event["card"]["step"], "card.step", 0)
        elif op in ("undo", "unbury", "state"):
            _card_id(event["card_id"])
            if op == "state":
                if event["state"] is None:
                    raise ValueError("state is missing")
                _card_or_none(event["state"], "its state")
            else:
                _card_or_none(event.get("restore"), "the state it restores")
                key = "review_id" if op == "undo" else "bury_id"
                _id(event[key], key)
                if op == "undo" and event.get("at") is not None:
                    aware_time(event["at"], "at")
        elif op == "bury":
            _inner(_bury_reason, event["bury"], "its bury")
        elif op == "settings":
            _inner(SchedulerSettings.from_dict, event["settings"], "its settings")
        elif op == "header":
            _exact_int(event["gen"], "gen", 0)
        else:
            raise ValueError(f"op {shown_value(op, 20)} is no event quizzer writes")
    except BAD_VALUE as exc:
        return f"{_event_name(event)} is invalid: {reason_of(exc)}"
    return None
