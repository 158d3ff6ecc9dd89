"""What the learner chose to study: a deck, a direction between two languages, a quiz mode."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from quizzer.cards.card import Pair
from quizzer.concepts.languages import LANGUAGE_NAMES
from quizzer.scheduling.review import MODES

#: The settings key under which the home screen remembers the last choice.
SETTINGS_KEY = "ui.last_choice"


@dataclass(frozen=True, slots=True)
class StudyChoice:
    """A deck id, a :class:`Pair` and a mode (flip, choice, typed or learn)."""

    deck: str
    pair: Pair
    mode: str = "flip"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")

    @property
    def pair_label(self) -> str:
        """``"Russian term → English definition"``."""
        p = self.pair
        return (
            f"{LANGUAGE_NAMES[p.prompt_lang]} {p.prompt_side} → "
            f"{LANGUAGE_NAMES[p.answer_lang]} {p.answer_side}"
        )

    def to_dict(self) -> dict[str, Any]:
        """For the store's settings."""
        return {"deck": self.deck, "pair": self.pair.code, "mode": self.mode}

    @classmethod
    def from_dict(cls, data: Any) -> StudyChoice | None:
        """Inverse of :meth:`to_dict`; ``None`` for anything unreadable (an old or edited file)."""
        try:
            return cls(str(data["deck"]), Pair.parse(str(data["pair"])), str(data["mode"]))
        except (KeyError, TypeError, ValueError):
            return None


def default_pair() -> Pair:
    """The first-run direction: read an English definition, recall the term."""
    return Pair("en", "definition", "en", "term")
