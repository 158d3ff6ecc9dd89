"""One FSRS-6 step: answer a card (with fuzz, lapses and leeches), preview the four grades.

What FSRS decides (the ``fsrs`` package): stability, difficulty and the next due
time of one card. What this module adds, like Anki does: lapse counting, leeches,
fuzz drawn from the caller's generator, interval previews and their button labels.
The rest of scheduling has a module each: :mod:`~quizzer.scheduling.settings`
(:class:`SchedulerSettings`), :mod:`~quizzer.scheduling.card_state`
(:class:`CardState`), :mod:`~quizzer.scheduling.queue` (the due queue, sibling
burying, :func:`bury_until`, :func:`next_due`) and :mod:`~quizzer.scheduling.limits`
(:class:`TodayCounts`, :func:`count_today`); import each name from its home.

Everything is pure: ``now`` (UTC), the learner's time zone and a
``random.Random`` for fuzz are arguments (the steps a preview made are kept for the
answer that follows, and taken only when they are what it would compute). Fuzz is
applied here with that generator (FSRS's own fuzz uses the global one), so tests are
reproducible.

**Elapsed time is counted in study days** (:func:`elapsed_study_days`), the one rule
the scheduler, the optimizer, the statistics and the Anki export share, and the one
Anki uses: a review at 21:00 and the next at 08:00 the following morning are one day
apart (the day starts at ``day_start_hour``), 05:00 and 23:00 the same day are 0 days
apart. py-fsrs counts whole 24-hour periods instead (``(now - last_review).days``).
:func:`fsrs_view` hands py-fsrs the card with its last review moved to exactly that
many days before ``now``, so that py-fsrs's count *is* the study-day count. This is
the cleanest correct way: py-fsrs stays the single implementation of FSRS-6's formulas,
learning steps and states (no copy of them here to drift), and ``last_review`` is the
only input from which it derives elapsed time (short-term stability when it is 0, the
retrievability of the long-term formulas otherwise); everything else it computes from
``now``. The answered card's ``last_review`` is the true moment again.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

import fsrs
from fsrs.scheduler import STABILITY_MIN

from quizzer.scheduling.card_state import CardState, copy_card
from quizzer.scheduling.grades import CardPhase, Grade
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.scheduling.studyday import day_bounds, days_between, to_utc

#: FSRS's fuzz ranges (same numbers as fsrs.scheduler.FUZZ_RANGES).
_FUZZ_RANGES: tuple[tuple[float, float, float], ...] = (
    (2.5, 7.0, 0.15),
    (7.0, 20.0, 0.1),
    (20.0, math.inf, 0.05),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one answer did: the new state and the numbers the review log keeps."""

    state: CardState
    phase: CardPhase
    last_interval_days: float
    interval_days: float
    became_leech: bool


def _fuzz_days(days: int, maximum: int, rng: random.Random) -> int:
    """FSRS's fuzz (a few % around the interval), drawn from ``rng``."""
    if days < 2.5:
        return days
    delta = 1.0
    for start, end, factor in _FUZZ_RANGES:
        delta += factor * max(min(float(days), end) - start, 0.0)
    lo = max(2, round(days - delta))
    hi = min(round(days + delta), maximum)
    lo = min(lo, hi)
    return min(round(rng.random() * (hi - lo + 1) + lo), maximum)


def elapsed_study_days(
    last_review: datetime | None, now: datetime, tz: tzinfo | None, day_start_hour: int
) -> int:
    """Study days from ``last_review`` to ``now`` in ``tz`` (0 on the same study day or
    when ``now`` is earlier; 0 for a card never reviewed): Anki's ``delta_t``."""
    if last_review is None:
        return 0
    return max(0, days_between(last_review, now, tz, day_start_hour))


def fsrs_view(card: fsrs.Card, now: datetime, tz: tzinfo, day_start_hour: int) -> fsrs.Card:
    """``card`` as py-fsrs must see it at ``now`` so that it counts study days.

    A copy whose ``last_review`` lies exactly :func:`elapsed_study_days` days before
    ``now``: py-fsrs's ``(now - last_review).days`` is then the study-day count, for
    both the short-term test (``< 1``) and the retrievability. See the module docstring.
    """
    if card.last_review is None:
        return card
    view = copy_card(card)
    view.last_review = now - timedelta(
        days=elapsed_study_days(card.last_review, now, tz, day_start_hour)
    )
    return view


@dataclass(frozen=True, slots=True)
class _Shown:
    """The four steps :func:`preview` made last, at ``at``, for the answer that follows."""

    card: fsrs.Card
    fields: tuple[object, ...]
    settings: SchedulerSettings
    tz: tzinfo
    day: tuple[datetime, datetime]
    at: datetime
    steps: dict[int, fsrs.Card]


#: Like Anki, which computes a card's next states when it is shown and only applies the
#: chosen one when it is answered: the answer that follows a preview takes its step from
#: here, moved to its own moment. FSRS's step depends on ``now`` only through the study
#: days elapsed (:func:`fsrs_view`), so within the same study day the step at ``now`` is
#: the previewed one with its due and last review moved by the time between. With the fuzz
#: generator seeded at the preview too (``Store.preview``), recording an answer takes 12%
#: less time (p50 of ``benchmarks/run.py``'s recording, 327 to 289 us in one run).
_shown: list[_Shown] = []


def _fields(card: fsrs.Card) -> tuple[object, ...]:
    return (card.state, card.step, card.stability, card.difficulty, card.due, card.last_review)


def _step(
    card: fsrs.Card, grade: Grade, now: datetime, settings: SchedulerSettings, tz: tzinfo
) -> fsrs.Card:
    """``card`` answered ``grade`` at ``now`` (UTC), by FSRS, before fuzz."""
    shown = _shown[0] if _shown else None
    if (
        shown is not None
        and shown.card is card
        and shown.settings is settings
        and shown.tz is tz
        and shown.day[0] <= now < shown.day[1]
        and shown.fields == _fields(card)
    ):
        done = copy_card(shown.steps[grade])
        done.due, done.last_review = now + (done.due - shown.at), now
        return done
    scheduler = settings.fsrs_scheduler()
    view = with_memory(fsrs_view(card, now, tz, settings.day_start_hour), scheduler, now)
    return scheduler.review_card(view, fsrs.Rating(grade), now)[0]


def with_memory(card: fsrs.Card, scheduler: fsrs.Scheduler, now: datetime) -> fsrs.Card:
    """``card``, or a copy with a memory state FSRS can step from.

    A card in review or relearning can come without stability or difficulty, and one in
    relearning without its step (:meth:`CardState.studied` from another tool's log,
    :meth:`~quizzer.progress.store.Store.merge_batch`, a snapshot written by another
    tool): py-fsrs asserts all three. Like Anki for a card with no memory state, start
    from what is known: its scheduled interval as the stability (FSRS's stability is the
    interval recalled at 90%), else a first Good's; a first Good's difficulty; the first
    relearning step.
    """
    learning = card.state is fsrs.State.Learning
    no_step = card.step is None and card.state is fsrs.State.Relearning
    if learning or (card.stability is not None and card.difficulty is not None and not no_step):
        return card
    full = copy_card(card)
    if no_step:
        full.step = 0
    if full.stability is not None and full.difficulty is not None:
        return full
    first_good, _ = scheduler.review_card(fsrs.Card(card_id=card.card_id), fsrs.Rating.Good, now)
    if full.stability is None:
        interval = None
        if full.last_review is not None and full.due > full.last_review:
            interval = (full.due - full.last_review).total_seconds() / 86400
        full.stability = max(interval, STABILITY_MIN) if interval else first_good.stability
    if full.difficulty is None:
        full.difficulty = first_good.difficulty
    return full


def answer(
    state: CardState,
    grade: Grade,
    now: datetime,
    settings: SchedulerSettings,
    rng: random.Random | None = None,
    *,
    tz: tzinfo = UTC,
) -> Outcome:
    """Apply one answer (1 Again, 2 Hard, 3 Good, 4 Easy) at ``now``; ``state`` is not changed.

    ``tz`` is the learner's time zone: with ``settings.day_start_hour`` it says how
    many study days have passed since the card's last review (callers with a learner
    pass it; the UTC default is for tests and tools without one).

    Counts lapses (Again on a card in review) and marks leeches: at
    ``leech_threshold`` lapses and again every ``leech_every`` more, the card is
    suspended or flagged as configured. ``rng`` draws the fuzz; without one (or
    with fuzz off) intervals are exact.
    """
    if grade not in (1, 2, 3, 4):
        raise ValueError(f"grade must be 1-4, got {grade!r}")
    now = to_utc(now)
    phase = state.phase
    last_interval = state.scheduled_days
    card = _step(state.card, grade, now, settings, tz)
    if settings.fuzz and rng is not None and card.state == fsrs.State.Review:
        whole = round((card.due - now).total_seconds() / 86400)
        card.due = now + timedelta(days=_fuzz_days(whole, settings.maximum_interval_days, rng))
    # The state with the answer's changes (``dataclasses.replace`` does the same, slowly).
    new = CardState(
        card_id=state.card_id,
        card=card,
        reps=state.reps + 1,
        lapses=state.lapses,
        leech=state.leech,
        flagged=state.flagged,
        suspended=state.suspended,
        buried_until=None,  # answering a card ends its bury
        first_review=state.first_review or now,
    )
    became_leech = False
    if grade == 1 and phase == "review":
        new.lapses += 1
        over = new.lapses - settings.leech_threshold
        if over >= 0 and over % settings.leech_every == 0:
            became_leech = True
            new.leech = True
            if settings.leech_action == "suspend":
                new.suspended = True
            else:
                new.flagged = True
    interval = (card.due - now).total_seconds() / 86400
    return Outcome(new, phase, last_interval, interval, became_leech)


def preview(
    state: CardState, now: datetime, settings: SchedulerSettings, *, tz: tzinfo = UTC
) -> dict[int, timedelta]:
    """The interval each grade (1-4) would give at ``now``, without fuzz (for button labels);
    ``tz`` as for :func:`answer`."""
    now = to_utc(now)
    _shown.clear()
    steps = {grade: _step(state.card, grade, now, settings, tz) for grade in (1, 2, 3, 4)}
    day = day_bounds(now, tz, settings.day_start_hour)
    _shown.append(_Shown(state.card, _fields(state.card), settings, tz, day, now, steps))
    return {grade: card.due - now for grade, card in steps.items()}


def format_interval(delta: timedelta) -> str:
    """A short button label for an interval: ``"1m"``, ``"3h"``, ``"4d"``, ``"2.5mo"``."""
    seconds = max(0.0, delta.total_seconds())
    if seconds < 3600:
        return f"{max(1, round(seconds / 60))}m"
    if seconds < 86400:
        return f"{round(seconds / 3600)}h"
    days = seconds / 86400
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo".replace(".0mo", "mo")
    return f"{days / 365:.1f}y".replace(".0y", "y")
