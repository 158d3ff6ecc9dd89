"""What the store's writing methods return: :class:`Bury` and :class:`RecordOutcome`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quizzer.progress.journal_events import BuryData
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

    def to_dict(self) -> BuryData:
        """JSON-ready form (ISO 8601 UTC times), as kept in the journal and the undo stack."""
        return {
            "id": self.id,
            "card_id": self.card_id,
            "at": self.buried_at.isoformat(),
            "until": self.until.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: BuryData) -> Bury:
        """Inverse of :meth:`to_dict`."""
        return cls(
            id=data["id"],
            card_id=data["card_id"],
            buried_at=datetime.fromisoformat(data["at"]),
            until=datetime.fromisoformat(data["until"]),
        )


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
