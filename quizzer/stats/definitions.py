"""What the statistics mean: the definitions, the constants and the small helpers they share.

Everything here takes the clock (``now``, a UTC datetime), the learner's time
zone (``tz``) and the hour their study day starts (``day_start_hour``, 4 by
default, as in Anki) as arguments; nothing reads the clock or the store.

Definitions (those of Anki's statistics, unless said otherwise):

- A *study day* runs from ``day_start_hour`` local time to the same hour the
  next day, so an answer at 02:30 on Tuesday counts for Monday.
- A review *passes* unless it was graded Again.
- *True retention* is the pass rate of answers given to cards in the review
  phase (learning and relearning steps are left out); an answer is *young*
  when the interval it was answered on was under 21 days, *mature* otherwise.
- A card in review state is *young* when its current interval is under 21 days.
- *Mastery* of a concept in a language is the mean FSRS retrievability now of
  the concept's cards whose answer is in that language — what the learner can
  recall *in* that language.
- A *lapse* is an Again given in the review phase.
- An answer's *source* is where it was given: a quiz mode (flip, choice, typed,
  learn) or Anki (``anki``, brought back by ``quizzer merge``). Every figure
  counts answers from every source alike; only the sources figure tells them apart.
"""

from __future__ import annotations

from functools import lru_cache

from quizzer.cards.card import CardKey

#: Anki's line between young and mature cards, in days.
MATURE_DAYS = 21
#: The retention windows reported, in study days (today included).
RETENTION_WINDOWS: tuple[int, ...] = (7, 30, 365)
HEATMAP_DAYS = 365
#: The recent window of the answers-by-source figure, in study days (today included).
RECENT_SOURCE_DAYS = 30
FORECAST_DAYS = 30
HARDEST_LIMIT = 10


def pass_rate(passed: int, total: int) -> float | None:
    """``passed / total``, ``None`` without answers."""
    return None if total == 0 else passed / total


@lru_cache(maxsize=1 << 16)
def card_key(card_id: str) -> CardKey | None:
    """The parsed key of ``card_id`` (cached: the log repeats ids), ``None`` if it doesn't parse."""
    try:
        return CardKey.parse(card_id)
    except ValueError:
        return None


def deck_of(card_id: str) -> str:
    """The deck id a card id starts with."""
    return card_id.split("/", 1)[0]
