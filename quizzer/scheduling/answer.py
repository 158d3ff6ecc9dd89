"""One answer as the learner gave it, and the review entry it becomes.

:class:`Answer` is what every ``record`` takes besides the card, the grade and the
moment: the quiz mode, the thinking time, what was typed, whether it was judged right
and whether the learner overrode the verdict. :func:`review_id` is the one way a
review (or bury) gets its id, and :func:`answered_review` the one way an answer and
the scheduler's outcome become a :class:`~quizzer.scheduling.review.Review`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from hashlib import blake2b
from typing import TYPE_CHECKING

from quizzer.scheduling.grades import Grade, Mode
from quizzer.scheduling.review import Review

if TYPE_CHECKING:
    from quizzer.scheduling.scheduler import Outcome


@dataclass(frozen=True, slots=True)
class Answer:
    """How a card was answered, besides its grade.

    ``duration_ms`` is the thinking time, ``typed`` what the learner typed (typed mode),
    ``correct`` whether the answer was judged right (choice and typed), ``overridden``
    whether the learner said "I was right".
    """

    mode: Mode = "flip"
    duration_ms: int = 0
    typed: str | None = None
    correct: bool | None = None
    overridden: bool = False


def review_id(card_id: str, at: datetime, salt: object = 0) -> str:
    """The id of the review (or bury) of ``card_id`` at ``at``.

    Milliseconds since the epoch, then 8 hex digits hashed from the card, the moment and
    ``salt``: ids sort by time, and the same inputs always give the same id. A caller
    that may record the same card twice in one millisecond passes a different ``salt``
    (the store a random token, a session the number of answers so far).
    """
    raw = f"{card_id}|{at.isoformat()}|{salt}".encode()
    digest = blake2b(raw, digest_size=4).hexdigest()
    return f"{int(at.timestamp() * 1000):013d}-{digest}"


def answered_review(
    review_id: str,
    card_id: str,
    grade: Grade,
    now: datetime,
    answer: Answer,
    outcome: Outcome,
) -> Review:
    """The review log entry for ``answer`` graded ``grade`` at ``now``, given the FSRS outcome.

    Intervals are kept to six decimals (what the journal keeps), so a review reads back
    equal to the one recorded.
    """
    state = outcome.state
    return Review(
        id=review_id,
        card_id=card_id,
        reviewed_at=now,
        grade=grade,
        mode=answer.mode,
        duration_ms=int(answer.duration_ms),
        phase=outcome.phase,
        last_interval_days=round(outcome.last_interval_days, 6),
        interval_days=round(outcome.interval_days, 6),
        due=state.due,
        stability=state.stability,
        difficulty=state.difficulty,
        typed=answer.typed,
        correct=answer.correct,
        overridden=answer.overridden,
    )
