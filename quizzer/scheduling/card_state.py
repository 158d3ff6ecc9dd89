"""A card's scheduling state: the ``fsrs.Card`` plus what FSRS doesn't track.

The one card-state type: the scheduler answers it, the store keeps it
(:meth:`CardState.to_dict`), statistics and the Anki exporter read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import fsrs

from quizzer.cards.card import CardKey
from quizzer.scheduling.grades import CardPhase
from quizzer.scheduling.studyday import to_utc

#: fsrs.State → the phase names used in the review log.
_PHASES: dict[fsrs.State, CardPhase] = {
    fsrs.State.Learning: "learning",
    fsrs.State.Review: "review",
    fsrs.State.Relearning: "relearning",
}

#: The phase names of a studied card → fsrs.State.
_FSRS_STATES: dict[CardPhase, fsrs.State] = {phase: state for state, phase in _PHASES.items()}


def copy_card(card: fsrs.Card) -> fsrs.Card:
    """A copy of ``card`` (its fields are immutable values, so a shallow copy is a full one)."""
    return fsrs.Card(
        card_id=card.card_id,
        state=card.state,
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        last_review=card.last_review,
    )


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


@dataclass(slots=True)
class CardState:
    """A card's scheduling state: the ``fsrs.Card`` plus what FSRS doesn't track.

    ``reps`` counts answers, ``lapses`` Again answers on a card in review;
    ``leech`` is set after ``leech_threshold`` lapses; a ``suspended`` card is
    never due; ``buried_until`` hides it until that instant. ``first_review``
    is when the card was first studied (``None`` while new).
    """

    card_id: str
    card: fsrs.Card
    reps: int = 0
    lapses: int = 0
    leech: bool = False
    flagged: bool = False
    suspended: bool = False
    buried_until: datetime | None = None
    first_review: datetime | None = None

    @classmethod
    def new(cls, key: CardKey, now: datetime) -> CardState:
        """A card never studied, due at ``now``."""
        return cls(card_id=key.id, card=fsrs.Card(card_id=key.int_id, due=to_utc(now)))

    @classmethod
    def studied(
        cls,
        card_id: str,
        phase: CardPhase,
        due: datetime,
        *,
        last_review: datetime | None = None,
        stability: float | None = None,
        difficulty: float | None = None,
        reps: int | None = None,
        lapses: int = 0,
        leech: bool = False,
        suspended: bool = False,
        first_review: datetime | None = None,
    ) -> CardState:
        """A state from the figures a review log or a report keeps, rather than from FSRS.

        ``phase`` ``"new"`` gives a card never answered (``reps`` 0); any other phase
        a card answered ``reps`` times (default 1), in that FSRS state. Its scheduled
        interval is ``due - last_review``. A card id that doesn't parse (a damaged log)
        is kept as it is, with fsrs card id 0: reports count it, nothing schedules it.
        Raises ``ValueError`` for a studied phase with no answer.
        """
        reps = (0 if phase == "new" else 1) if reps is None else reps
        if (phase == "new") != (reps == 0):
            raise ValueError(f"{card_id}: a {phase} card can't have {reps} answers")
        try:
            fsrs_id = CardKey.parse(card_id).int_id
        except ValueError:
            fsrs_id = 0
        card = fsrs.Card(
            card_id=fsrs_id,
            state=_FSRS_STATES.get(phase, fsrs.State.Learning),
            stability=stability,
            difficulty=difficulty,
            due=to_utc(due),
            last_review=last_review,
        )
        return cls(
            card_id=card_id,
            card=card,
            reps=reps,
            lapses=lapses,
            leech=leech,
            suspended=suspended,
            first_review=first_review,
        )

    @property
    def key(self) -> CardKey:
        """The parsed card key."""
        return CardKey.parse(self.card_id)

    @property
    def is_new(self) -> bool:
        """Never answered."""
        return self.reps == 0

    @property
    def phase(self) -> CardPhase:
        """``new``, ``learning``, ``review`` or ``relearning``."""
        return "new" if self.reps == 0 else _PHASES[self.card.state]

    @property
    def due(self) -> datetime:
        """When FSRS wants the card back (UTC)."""
        return self.card.due

    @property
    def last_review(self) -> datetime | None:
        """When the card was last answered (UTC)."""
        return self.card.last_review

    @property
    def stability(self) -> float | None:
        """FSRS stability in days."""
        return self.card.stability

    @property
    def difficulty(self) -> float | None:
        """FSRS difficulty, 1-10."""
        return self.card.difficulty

    @property
    def scheduled_days(self) -> float:
        """The interval the card is currently scheduled on (0 while new or learning)."""
        if self.card.last_review is None or self.phase != "review":
            return 0.0
        return (self.card.due - self.card.last_review).total_seconds() / 86400

    def copy(self) -> CardState:
        """An independent copy (the fsrs card is mutable; its fields are immutable values)."""
        # Field by field: ``dataclasses.replace`` does the same, slowly (a tenth of an answer).
        return CardState(
            card_id=self.card_id,
            card=copy_card(self.card),
            reps=self.reps,
            lapses=self.lapses,
            leech=self.leech,
            flagged=self.flagged,
            suspended=self.suspended,
            buried_until=self.buried_until,
            first_review=self.first_review,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (ISO 8601 UTC times)."""
        c = self.card
        return {
            "card_id": self.card_id,
            "state": int(c.state.value),
            "step": c.step,
            "stability": c.stability,
            "difficulty": c.difficulty,
            "due": c.due.isoformat(),
            "last_review": _iso(c.last_review),
            "reps": self.reps,
            "lapses": self.lapses,
            "leech": self.leech,
            "flagged": self.flagged,
            "suspended": self.suspended,
            "buried_until": _iso(self.buried_until),
            "first_review": _iso(self.first_review),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardState:
        """Inverse of :meth:`to_dict`; the fsrs card id is rederived from the card id."""
        card_id = data["card_id"]
        key = CardKey.parse(card_id)
        stability = data.get("stability")
        difficulty = data.get("difficulty")
        card = fsrs.Card(
            card_id=key.int_id,
            state=fsrs.State(int(data.get("state", 1))),
            step=data.get("step"),
            stability=float(stability) if stability is not None else None,
            difficulty=float(difficulty) if difficulty is not None else None,
            due=datetime.fromisoformat(data["due"]),
            last_review=_dt(data.get("last_review")),
        )
        return cls(
            card_id=card_id,
            card=card,
            reps=int(data.get("reps", 0)),
            lapses=int(data.get("lapses", 0)),
            leech=bool(data.get("leech", False)),
            flagged=bool(data.get("flagged", False)),
            suspended=bool(data.get("suspended", False)),
            buried_until=_dt(data.get("buried_until")),
            first_review=_dt(data.get("first_review")),
        )
