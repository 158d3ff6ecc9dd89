"""The journal's events and the undo stack's entries, as typed dicts (the JSON kept on disk).

Each journal line (:mod:`quizzer.progress.journal`) is one :data:`Event`, told
apart by its ``"op"``; :meth:`~quizzer.progress.state.State.apply` folds them in.
Writers build them without ``"seq"``: the store adds it last, just before the
line is written, so it ends each line. The undo stack (``meta.undo`` in the
snapshot) holds :data:`UndoEntry` dicts, an answer's or a bury's.

The dicts inside are the layouts of :meth:`Review.to_dict
<quizzer.scheduling.review.Review.to_dict>` (:class:`ReviewData`),
:meth:`CardState.to_dict <quizzer.scheduling.scheduler.CardState.to_dict>`
(:class:`CardData`), :func:`~quizzer.progress.state.slim_state` (:class:`SlimCard`)
and :meth:`Bury.to_dict <quizzer.progress.outcomes.Bury.to_dict>` (:class:`BuryData`).
Keys an older store may lack are ``NotRequired``. The classes are ``final`` so
that ``"bury_id" in entry`` tells mypy which kind of undo entry it is.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, NotRequired, Required, TypedDict, TypeGuard, cast, final


@final
class ReviewData(TypedDict):
    """One logged answer, as :meth:`Review.to_dict` writes it (journal and month files)."""

    id: str
    card_id: str
    reviewed_at: str
    grade: int
    mode: str
    duration_ms: int
    phase: NotRequired[str]
    last_interval_days: NotRequired[float]
    interval_days: NotRequired[float]
    due: NotRequired[str | None]
    stability: NotRequired[float | None]
    difficulty: NotRequired[float | None]
    typed: NotRequired[str | None]
    correct: NotRequired[bool | None]
    overridden: NotRequired[bool]


@final
class CardData(TypedDict):
    """One card's state, as :meth:`CardState.to_dict` writes it (snapshot, undo, journal)."""

    card_id: str
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: str
    last_review: str | None
    reps: int
    lapses: int
    leech: bool
    flagged: bool
    suspended: bool
    buried_until: str | None
    first_review: str | None


@final
class SlimCard(TypedDict, total=False):
    """A card's state after an answer minus what its review says (flags only when set)."""

    state: Required[int]
    step: int | None
    reps: int
    lapses: int
    leech: bool
    flagged: bool
    suspended: bool
    buried_until: str | None


@final
class BuryData(TypedDict):
    """One bury: ``card_id`` hidden at ``at`` until ``until`` (ISO 8601 UTC)."""

    id: str
    card_id: str
    at: str
    until: str


@final
class HeaderEvent(TypedDict):
    """The first line of a journal: the generation it belongs to."""

    op: Literal["header"]
    gen: int


@final
class RecordEvent(TypedDict):
    """An answer: the review and the part of the card's new state it doesn't say."""

    op: Literal["record"]
    review: ReviewData
    card: SlimCard
    seq: NotRequired[int]


@final
class ReviewEvent(TypedDict):
    """An imported answer (schema-1 migration): history only, no card state."""

    op: Literal["review"]
    review: ReviewData
    seq: NotRequired[int]


@final
class UndoEvent(TypedDict):
    """An answer taken back: the card's state before it, and when it was given."""

    op: Literal["undo"]
    review_id: str
    card_id: str
    restore: CardData | None
    #: The answer's time: which month file holds it, if it was already folded in.
    at: NotRequired[str]
    seq: NotRequired[int]


@final
class BuryEvent(TypedDict):
    """A card buried until the next study day."""

    op: Literal["bury"]
    bury: BuryData
    seq: NotRequired[int]


@final
class UnburyEvent(TypedDict):
    """A bury taken back: the card's state before it (``None``: never studied)."""

    op: Literal["unbury"]
    bury_id: str
    card_id: str
    restore: CardData | None
    seq: NotRequired[int]


@final
class SettingsEvent(TypedDict):
    """New scheduler settings (:meth:`SchedulerSettings.to_dict`)."""

    op: Literal["settings"]
    settings: dict[str, Any]
    seq: NotRequired[int]


@final
class StateEvent(TypedDict):
    """A card's state set as a whole (suspended or resumed)."""

    op: Literal["state"]
    card_id: str
    state: CardData
    seq: NotRequired[int]


#: What a store appends to its journal (:meth:`~quizzer.progress.opening.OpenedStore._append`).
Change = RecordEvent | UndoEvent | BuryEvent | UnburyEvent | SettingsEvent | StateEvent
#: One journal line: a change, the header, or an imported answer.
Event = HeaderEvent | ReviewEvent | Change


@final
class AnswerUndo(TypedDict):
    """An answer on the undo stack: the card's state before it and the review."""

    review_id: str
    card_id: str
    before: CardData | None
    review: ReviewData


@final
class BuryUndo(TypedDict):
    """A bury on the undo stack: the card's state before it and the bury."""

    bury_id: str
    card_id: str
    before: CardData | None
    bury: BuryData


#: One entry of the undo stack (told apart by ``"bury_id" in entry``).
UndoEntry = AnswerUndo | BuryUndo


def has_review(event: Event) -> TypeGuard[RecordEvent | ReviewEvent]:
    """Whether ``event`` logs an answer (recorded, or imported by a migration)."""
    return event.get("op") in ("record", "review")


def is_undo(event: Event) -> TypeGuard[UndoEvent]:
    """Whether ``event`` takes an answer back."""
    return event.get("op") == "undo"


def as_event(data: dict[str, Any]) -> Event:
    """A decoded journal line taken as an event (its ``op`` is checked when it is applied)."""
    return cast("Event", data)


def review_data(data: dict[str, Any]) -> ReviewData:
    """:meth:`Review.to_dict` output (or a stored review) as :class:`ReviewData`."""
    return cast(ReviewData, data)


def card_data(data: dict[str, Any]) -> CardData:
    """:meth:`CardState.to_dict` output (or a stored state) as :class:`CardData`."""
    return cast(CardData, data)


def plain(data: ReviewData | CardData) -> dict[str, Any]:
    """A typed dict where the scheduling code takes a plain one (``Review.from_dict``)."""
    return cast(dict[str, Any], data)


def timestamp(reviewed_at: str) -> datetime:
    """An answer's ISO time as an aware UTC datetime (naive ones are taken as UTC)."""
    moment = datetime.fromisoformat(reviewed_at)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
