"""The names an answer is made of: grades, quiz modes and the card phases FSRS names.

Apart from :mod:`quizzer.scheduling.review` (which uses them) so that what needs only
a name (the home screen's mode list, a card state's phase) doesn't build the review
dataclass: nothing is reviewed before the first answer.
"""

from __future__ import annotations

from typing import Literal

Grade = Literal[1, 2, 3, 4]
GRADE_NAMES: dict[int, str] = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}

Mode = Literal["flip", "choice", "typed", "learn", "anki"]
#: The quiz modes a session runs in.
MODES: tuple[str, ...] = ("flip", "choice", "typed", "learn")
#: Where a logged answer was given: a quiz mode, or ``anki`` (brought back by ``quizzer merge``).
LOG_MODES: tuple[str, ...] = (*MODES, "anki")

#: Card state before the answer, as FSRS names it (plus ``new`` for a first sight).
CardPhase = Literal["new", "learning", "review", "relearning"]
