"""What the store's writing methods return: :class:`Bury` and :class:`RecordOutcome`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review


@dataclass(frozen=True, slots=True)
class Bury:
    """One bury: ``card_id`` hidden at ``buried_at`` until ``until`` (the next study day).

    What :meth:`Store.bury` returns and :meth:`Store.undo` returns when it takes a bury back.
    """

    id: str
    card_id: str
    buried_at: datetime
    until: datetime


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """What :meth:`Store.record_outcome` did with one answer.

    ``review`` is the logged answer (what :meth:`Store.record` returns);
    ``state`` the card's state after it (a copy). ``leech`` is true when this
    answer made the card a leech (its ``leech_threshold``-th lapse, then every
    ``leech_every`` more); ``suspended`` when the answer suspended it (leech
    action ``suspend``) — a UI shows a notice and moves on to the next card.
    """

    review: Review
    state: CardState
    leech: bool = False
    suspended: bool = False
