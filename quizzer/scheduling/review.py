"""The review log entry: one answer a learner gave. Never deleted except by an explicit undo."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from quizzer.scheduling.grades import LOG_MODES, CardPhase, Grade, Mode
from quizzer.scheduling.studyday import to_utc


@dataclass(frozen=True, slots=True)
class Review:
    """One answer.

    ``phase`` is the card's state before the answer; ``last_interval_days`` the
    scheduled interval it was answered on (0 for new/learning), ``interval_days``
    the interval the answer gave; ``stability``/``difficulty`` are FSRS's after
    the answer. ``typed`` holds what the learner typed (typed mode), ``correct``
    whether the answer was judged right (choice/typed), ``overridden`` whether the
    learner said "I was right".
    """

    id: str
    card_id: str
    reviewed_at: datetime
    grade: Grade
    mode: Mode
    duration_ms: int
    phase: CardPhase = "new"
    last_interval_days: float = 0.0
    interval_days: float = 0.0
    due: datetime | None = None
    stability: float | None = None
    difficulty: float | None = None
    typed: str | None = None
    correct: bool | None = None
    overridden: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "reviewed_at", to_utc(self.reviewed_at, "reviewed_at"))
        if self.due is not None:
            object.__setattr__(self, "due", to_utc(self.due, "due"))
        if self.grade not in (1, 2, 3, 4):
            raise ValueError(f"grade must be 1-4, got {self.grade!r}")
        if self.mode not in LOG_MODES:
            raise ValueError(f"mode must be one of {', '.join(LOG_MODES)}, got {self.mode!r}")
        if isinstance(self.duration_ms, bool) or not isinstance(self.duration_ms, int):
            raise ValueError(f"duration_ms must be a whole number, got {self.duration_ms!r}")
        if self.duration_ms < 0:
            raise ValueError(f"duration_ms can't be negative, got {self.duration_ms}")

    @property
    def passed(self) -> bool:
        """Anything but Again counts as a pass (Anki's definition of retention)."""
        return self.grade != 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (ISO 8601 UTC times)."""
        return {
            "id": self.id,
            "card_id": self.card_id,
            "reviewed_at": self.reviewed_at.isoformat(),
            "grade": self.grade,
            "mode": self.mode,
            "duration_ms": self.duration_ms,
            "phase": self.phase,
            "last_interval_days": self.last_interval_days,
            "interval_days": self.interval_days,
            "due": self.due.isoformat() if self.due else None,
            "stability": self.stability,
            "difficulty": self.difficulty,
            "typed": self.typed,
            "correct": self.correct,
            "overridden": self.overridden,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        """Inverse of :meth:`to_dict`."""
        return cls(
            id=data["id"],
            card_id=data["card_id"],
            reviewed_at=datetime.fromisoformat(data["reviewed_at"]),
            grade=data["grade"],
            mode=data["mode"],
            duration_ms=int(data["duration_ms"]),
            phase=data.get("phase", "new"),
            last_interval_days=float(data.get("last_interval_days", 0.0)),
            interval_days=float(data.get("interval_days", 0.0)),
            due=datetime.fromisoformat(data["due"]) if data.get("due") else None,
            stability=data.get("stability"),
            difficulty=data.get("difficulty"),
            typed=data.get("typed"),
            correct=data.get("correct"),
            overridden=bool(data.get("overridden", False)),
        )
