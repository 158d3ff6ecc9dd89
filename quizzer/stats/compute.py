"""All the statistics at once (:func:`compute_stats`), from the review log and the card states.

Everything here takes the clock (``now``, a UTC datetime), the learner's time
zone (``tz``) and the hour their study day starts (``day_start_hour``, 4 by
default, as in Anki) as arguments; nothing reads the clock or the store. What the
figures mean is in :mod:`quizzer.stats.definitions`; each has a module of its own
(:mod:`~quizzer.stats.activity`, :mod:`~quizzer.stats.retention`,
:mod:`~quizzer.stats.cards`, :mod:`~quizzer.stats.mastery`,
:mod:`~quizzer.stats.hardest`, :mod:`~quizzer.stats.groups`,
:mod:`~quizzer.stats.sources`) and its dataclass in
:mod:`~quizzer.stats.figures`; :mod:`~quizzer.stats.digest` puts those of one study day
together, and this module adds the decks' part.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta, tzinfo

from quizzer.concepts.deck import Deck
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR, study_day
from quizzer.stats.digest import digest_of, stats_of
from quizzer.stats.figures import Stats
from quizzer.stats.tally import Tally, tally_of


def timezone_label(tz: tzinfo | None, now: datetime) -> str:
    """A readable name for ``tz``: its IANA key (``Europe/Paris``) when it has one,
    ``UTC`` for UTC, else the offset at ``now`` as ``UTC+HH:MM`` (never a Python repr).

    ``tz=None`` is the system's zone, named by its offset here; adapters that can
    find the system's IANA name pass it to :func:`compute_stats` instead.
    """
    key = getattr(tz, "key", None)  # zoneinfo.ZoneInfo (and pytz-like zones)
    if isinstance(key, str) and key:
        return key
    offset = now.astimezone(tz).utcoffset() or timedelta(0)
    if not offset:
        return "UTC"
    sign = "+" if offset >= timedelta(0) else "-"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def compute_stats(
    reviews: Iterable[Review],
    cards: Iterable[CardState],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    decks: Sequence[Deck] = (),
    deck_ids: Collection[str] | None = None,
    unseen_new: int = 0,
    parameters: Sequence[float] | None = None,
    timezone_name: str | None = None,
) -> Stats:
    """All figures at once, from the review log and the card states.

    ``decks`` give the concept order and names of the mastery table;
    ``deck_ids`` (if given) keeps only cards and answers of those decks;
    ``parameters`` are the FSRS parameters in use (defaults if ``None``);
    ``timezone_name`` names ``tz`` in the report (default :func:`timezone_label`).
    The log is summed into a :class:`~quizzer.stats.tally.Tally` first
    (:func:`stats_from_tally` gives the same figures from a tally kept up to date).
    """
    _check_clock(now, day_start_hour)
    return stats_from_tally(
        tally_of(reviews, tz, day_start_hour, study_day(now, tz, day_start_hour)),
        cards,
        now,
        tz,
        day_start_hour,
        decks=decks,
        deck_ids=deck_ids,
        unseen_new=unseen_new,
        parameters=parameters,
        timezone_name=timezone_name,
    )


def _check_clock(now: datetime, day_start_hour: int) -> None:
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware (UTC)")
    if not 0 <= day_start_hour <= 23:
        raise ValueError(f"day_start_hour must be 0-23, got {day_start_hour}")


def stats_from_tally(
    tally: Tally,
    cards: Iterable[CardState],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    decks: Sequence[Deck] = (),
    deck_ids: Collection[str] | None = None,
    unseen_new: int = 0,
    parameters: Sequence[float] | None = None,
    timezone_name: str | None = None,
) -> Stats:
    """:func:`compute_stats` from the log's :class:`~quizzer.stats.tally.Tally` (counted in
    ``tz`` from ``day_start_hour``); :class:`~quizzer.stats.tally.TallyGap` when the tally
    can't tell today's distinct cards (a ``now`` before its newest answers)."""
    _check_clock(now, day_start_hour)
    digest = digest_of(tally, cards, now, tz, day_start_hour, deck_ids, parameters)
    return stats_of(
        digest,
        now,
        day_start_hour,
        timezone_name or timezone_label(tz, now),
        decks,
        deck_ids,
        unseen_new,
    )
