"""Learning statistics: pure functions from the review log and card states to figures.

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
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any, Literal

from fsrs.scheduler import DEFAULT_PARAMETERS as FSRS_DEFAULT_PARAMETERS

from quizzer.cards.card import CardKey
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import LANGUAGES
from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR, study_day

#: Anki's line between young and mature cards, in days.
MATURE_DAYS = 21
#: The retention windows reported, in study days (today included).
RETENTION_WINDOWS: tuple[int, ...] = (7, 30, 365)
HEATMAP_DAYS = 365
FORECAST_DAYS = 30
HARDEST_LIMIT = 10

CardStateName = Literal["new", "learning", "review", "relearning"]


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class CardSnapshot:
    """What statistics need to know about one card's current state.

    ``interval_days`` is the current scheduled interval (0 while learning);
    ``stability`` is FSRS's, in days; ``leech`` whether the card was marked a
    leech (it may also be ``suspended``). Adapters build these from the store.
    """

    card_id: str
    state: CardStateName
    due: datetime | None = None
    stability: float | None = None
    difficulty: float | None = None
    last_review: datetime | None = None
    interval_days: float = 0.0
    lapses: int = 0
    suspended: bool = False
    leech: bool = False


# --------------------------------------------------------------------------- helpers


def retrievability(
    stability: float, elapsed_days: float, parameters: Sequence[float] | None = None
) -> float:
    """FSRS-6 probability of recall after ``elapsed_days`` for a memory of ``stability`` days.

    The forgetting curve of ``fsrs.Scheduler.get_card_retrievability``:
    ``R = (1 + FACTOR * t / S) ** DECAY`` with ``DECAY = -w[20]`` and
    ``FACTOR = 0.9 ** (1 / DECAY) - 1`` (so that R = 0.9 when t = S).
    """
    params = FSRS_DEFAULT_PARAMETERS if parameters is None else parameters
    decay = -float(params[20])
    factor = 0.9 ** (1 / decay) - 1
    if stability <= 0:
        return 0.0
    return (1 + factor * max(0.0, elapsed_days) / stability) ** decay


def card_retrievability(
    card: CardSnapshot, now: datetime, parameters: Sequence[float] | None = None
) -> float | None:
    """A card's retrievability at ``now``; ``None`` for a card never reviewed.

    Elapsed time counts whole days, as ``fsrs.Scheduler`` does.
    """
    if card.stability is None or card.last_review is None:
        return None
    elapsed = max(0, (now - card.last_review).days)
    return retrievability(card.stability, elapsed, parameters)


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


def _rate(passed: int, total: int) -> float | None:
    return None if total == 0 else passed / total


@lru_cache(maxsize=1 << 16)
def _parse(card_id: str) -> CardKey | None:
    try:
        return CardKey.parse(card_id)
    except ValueError:
        return None


def _deck_of(card_id: str) -> str:
    return card_id.split("/", 1)[0]


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True, slots=True)
class Today:
    """Today's study: distinct cards, answers, pass rate, time spent."""

    day: date
    cards: int
    reviews: int
    passed: int
    correct_rate: float | None
    time_ms: int


@dataclass(frozen=True, slots=True)
class Streak:
    """Consecutive study days.

    ``current`` counts back from today, or from yesterday when nothing has been
    studied yet today (the streak is still alive until today ends).
    """

    current: int
    longest: int
    studied_today: bool
    days_studied: int


@dataclass(frozen=True, slots=True)
class StateCounts:
    """Cards by state. Suspended cards are counted only as ``suspended``;
    ``leeches`` overlaps the others (a leech may be suspended or only flagged)."""

    new: int = 0
    learning: int = 0
    young: int = 0
    mature: int = 0
    relearning: int = 0
    suspended: int = 0
    leeches: int = 0

    @property
    def total(self) -> int:
        """Every card once (leeches are already in another count)."""
        return (
            self.new + self.learning + self.young + self.mature + self.relearning + self.suspended
        )


@dataclass(frozen=True, slots=True)
class PassCount:
    """Passed and failed answers and the pass rate (``None`` without answers)."""

    passed: int = 0
    failed: int = 0

    @property
    def total(self) -> int:
        """Passed plus failed answers."""
        return self.passed + self.failed

    @property
    def rate(self) -> float | None:
        """The pass rate in 0..1, ``None`` without answers."""
        return _rate(self.passed, self.total)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, with the total and rate included."""
        return {
            "passed": self.passed,
            "failed": self.failed,
            "total": self.total,
            "rate": self.rate,
        }


@dataclass(frozen=True, slots=True)
class Retention:
    """True retention over the last ``days`` study days (today included)."""

    days: int
    young: PassCount
    mature: PassCount

    @property
    def all(self) -> PassCount:
        """Young and mature answers together."""
        return PassCount(
            self.young.passed + self.mature.passed, self.young.failed + self.mature.failed
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with the young, mature and combined counts."""
        return {
            "days": self.days,
            "young": self.young.to_dict(),
            "mature": self.mature.to_dict(),
            "all": self.all.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class DayCount:
    """Answers given on one study day, and the time they took."""

    day: date
    reviews: int
    time_ms: int = 0


@dataclass(frozen=True, slots=True)
class Forecast:
    """Cards due per study day, from today (index 0) on.

    ``days[0]`` includes the ``overdue`` cards, as a learner sees them today.
    """

    start: date
    days: tuple[int, ...]
    overdue: int

    @property
    def total(self) -> int:
        """Cards due over the whole forecast, overdue ones included."""
        return sum(self.days)


@dataclass(frozen=True, slots=True)
class MasteryCell:
    """Mean retrievability of a concept's studied cards answered in one language."""

    recall: float | None
    cards: int


@dataclass(frozen=True, slots=True)
class MasteryRow:
    """One concept's mastery per language (only languages with studied cards have cells)."""

    concept_uid: str
    cells: Mapping[str, MasteryCell]

    @property
    def recall(self) -> float | None:
        """The concept's mean retrievability over all its studied cards."""
        total = sum(c.cards for c in self.cells.values() if c.recall is not None)
        if not total:
            return None
        return sum(c.recall * c.cards for c in self.cells.values() if c.recall is not None) / total


@dataclass(frozen=True, slots=True)
class HardConcept:
    """A concept with lapses: how many, over how many answers."""

    concept_uid: str
    lapses: int
    again: int
    reviews: int


@dataclass(frozen=True, slots=True)
class GroupSummary:
    """Cards, answers, pass rate, mean recall and mature cards for a language or a pair."""

    key: str
    cards: int
    reviews: int
    passed: int
    correct_rate: float | None
    recall: float | None
    mature: int
    time_ms: int


@dataclass(frozen=True, slots=True)
class Stats:
    """Every figure of ``quizzer stats``; :meth:`to_dict` is the ``--json`` form."""

    generated_at: datetime
    timezone: str
    day_start_hour: int
    decks: tuple[str, ...]
    today: Today
    streak: Streak
    states: StateCounts
    retention: tuple[Retention, ...]
    heatmap: tuple[DayCount, ...]
    forecast: Forecast
    mastery_languages: tuple[str, ...]
    mastery: tuple[MasteryRow, ...]
    hardest: tuple[HardConcept, ...]
    languages: tuple[GroupSummary, ...]
    pairs: tuple[GroupSummary, ...]
    total_reviews: int
    total_cards: int
    concept_names: Mapping[str, str] = field(default_factory=dict)

    def retention_for(self, days: int) -> Retention | None:
        """The retention window of ``days`` days, if computed."""
        return next((r for r in self.retention if r.days == days), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: dates as ISO strings, rates as fractions 0-1 or ``null``."""
        return {
            "generated_at": self.generated_at.astimezone(UTC).isoformat(),
            "timezone": self.timezone,
            "day_start_hour": self.day_start_hour,
            "decks": list(self.decks),
            "totals": {"reviews": self.total_reviews, "cards": self.total_cards},
            "today": {**asdict(self.today), "day": self.today.day.isoformat()},
            "streak": asdict(self.streak),
            "states": {**asdict(self.states), "total": self.states.total},
            "retention": {str(r.days): r.to_dict() for r in self.retention},
            "reviews_per_day": [
                {"day": d.day.isoformat(), "reviews": d.reviews, "time_ms": d.time_ms}
                for d in self.heatmap
            ],
            "forecast": {
                "start": self.forecast.start.isoformat(),
                "overdue": self.forecast.overdue,
                "days": list(self.forecast.days),
                "total": self.forecast.total,
            },
            "mastery": {
                "languages": list(self.mastery_languages),
                "concepts": [
                    {
                        "concept": row.concept_uid,
                        "name": self.concept_names.get(row.concept_uid, row.concept_uid),
                        "recall": row.recall,
                        "languages": {
                            lang: {"recall": cell.recall, "cards": cell.cards}
                            for lang, cell in row.cells.items()
                        },
                    }
                    for row in self.mastery
                ],
            },
            "hardest": [
                {
                    **asdict(h),
                    "concept": h.concept_uid,
                    "name": self.concept_names.get(h.concept_uid, h.concept_uid),
                }
                for h in self.hardest
            ],
            "languages": [_summary_dict(s) for s in self.languages],
            "pairs": [_summary_dict(s) for s in self.pairs],
        }


def _summary_dict(summary: GroupSummary) -> dict[str, Any]:
    return asdict(summary)


# --------------------------------------------------------------------------- computations

#: A review with its study day, computed once (time-zone conversion is the costly part).
Dated = tuple[Review, date]


_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_DAY_S = 86400


def _offset_s(tz: tzinfo | None, timestamp: int) -> int:
    """UTC offset of ``tz`` at a POSIX ``timestamp``, in seconds."""
    offset = datetime.fromtimestamp(timestamp, UTC).astimezone(tz).utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def _dated(reviews: Iterable[Review], tz: tzinfo | None, day_start_hour: int) -> list[Dated]:
    """Each review with its study day: :func:`study_day`'s rule, computed faster.

    Converting every answer to local time is most of the cost of the statistics
    (more so with the system zone, which asks the C library each time). The
    offset is looked up once per UTC day instead, and used for the whole day
    when it is the same at both ends of it; a day with a change of offset
    (daylight saving time) falls back to :func:`study_day` for each answer.
    """
    offsets: dict[int, int | None] = {}
    days: dict[int, date] = {}
    shift = day_start_hour * 3600
    dated: list[Dated] = []
    for r in reviews:
        moment = r.reviewed_at
        if moment.tzinfo is None:  # study_day says what's wrong with it
            dated.append((r, study_day(moment, tz, day_start_hour)))
            continue
        stamp = moment.timestamp()
        utc_day = int(stamp // _DAY_S)
        if utc_day in offsets:
            offset = offsets[utc_day]
        else:
            first = _offset_s(tz, utc_day * _DAY_S)
            offset = first if first == _offset_s(tz, utc_day * _DAY_S + _DAY_S - 1) else None
            offsets[utc_day] = offset
        if offset is None:
            dated.append((r, study_day(moment, tz, day_start_hour)))
        else:
            local_day = int((stamp + offset - shift) // _DAY_S)
            day = days.get(local_day)
            if day is None:
                day = days[local_day] = date.fromordinal(_EPOCH_ORDINAL + local_day)
            dated.append((r, day))
    return dated


def today_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Today:
    """Cards studied, answers, pass rate and time spent on the current study day."""
    return _today(_dated(reviews, tz, day_start_hour), study_day(now, tz, day_start_hour))


def _today(dated: Iterable[Dated], day: date) -> Today:
    cards: set[str] = set()
    count = passed = time_ms = 0
    for r, d in dated:
        if d != day:
            continue
        cards.add(r.card_id)
        count += 1
        passed += r.passed
        time_ms += r.duration_ms
    return Today(day, len(cards), count, passed, _rate(passed, count), time_ms)


def streak_stats(
    reviews: Iterable[Review], now: datetime, tz: tzinfo | None, day_start_hour: int
) -> Streak:
    """Current and longest run of consecutive study days with at least one answer."""
    return _streak(_dated(reviews, tz, day_start_hour), study_day(now, tz, day_start_hour))


def _streak(dated: Iterable[Dated], today: date) -> Streak:
    days = {d for _, d in dated if d <= today}  # answers "from the future" don't extend a streak
    studied_today = today in days
    current = 0
    cursor = today if studied_today else today - timedelta(days=1)
    while cursor in days:
        current += 1
        cursor -= timedelta(days=1)
    longest = run = 0
    previous: date | None = None
    for d in sorted(days):
        run = run + 1 if previous is not None and d - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = d
    return Streak(current, longest, studied_today, len(days))


def state_counts(cards: Iterable[CardSnapshot], unseen_new: int = 0) -> StateCounts:
    """Cards by state; ``unseen_new`` adds cards that exist in decks but not yet in the store."""
    counts: Counter[str] = Counter()
    for card in cards:
        if card.leech:
            counts["leeches"] += 1
        if card.suspended:
            counts["suspended"] += 1
        elif card.state == "review":
            counts["mature" if card.interval_days >= MATURE_DAYS else "young"] += 1
        else:
            counts[card.state] += 1
    return StateCounts(
        new=counts["new"] + unseen_new,
        learning=counts["learning"],
        young=counts["young"],
        mature=counts["mature"],
        relearning=counts["relearning"],
        suspended=counts["suspended"],
        leeches=counts["leeches"],
    )


def true_retention(
    reviews: Iterable[Review],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    windows: Sequence[int] = RETENTION_WINDOWS,
) -> tuple[Retention, ...]:
    """Pass rate of review-phase answers in each window of study days, young vs mature."""
    dated = _dated((r for r in reviews if r.phase == "review"), tz, day_start_hour)
    return _retention(dated, study_day(now, tz, day_start_hour), windows)


def _retention(
    dated: Iterable[Dated], today: date, windows: Sequence[int] = RETENTION_WINDOWS
) -> tuple[Retention, ...]:
    tallies = {w: {"young": [0, 0], "mature": [0, 0]} for w in windows}
    for r, d in dated:
        if r.phase != "review":
            continue
        age = (today - d).days
        kind = "mature" if r.last_interval_days >= MATURE_DAYS else "young"
        for w in windows:
            if 0 <= age < w:
                tallies[w][kind][0 if r.passed else 1] += 1
    return tuple(
        Retention(w, PassCount(*tallies[w]["young"]), PassCount(*tallies[w]["mature"]))
        for w in windows
    )


def reviews_per_day(
    reviews: Iterable[Review],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    days: int = HEATMAP_DAYS,
) -> tuple[DayCount, ...]:
    """One entry per study day for the last ``days`` days, oldest first, today last."""
    return _per_day(_dated(reviews, tz, day_start_hour), study_day(now, tz, day_start_hour), days)


def _per_day(dated: Iterable[Dated], today: date, days: int = HEATMAP_DAYS) -> tuple[DayCount, ...]:
    first = today - timedelta(days=days - 1)
    count: Counter[date] = Counter()
    time_ms: Counter[date] = Counter()
    for r, d in dated:
        if first <= d <= today:
            count[d] += 1
            time_ms[d] += r.duration_ms
    return tuple(
        DayCount(d, count[d], time_ms[d]) for d in (first + timedelta(days=i) for i in range(days))
    )


def due_forecast(
    cards: Iterable[CardSnapshot],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    days: int = FORECAST_DAYS,
) -> Forecast:
    """Cards falling due on each of the next ``days`` study days (overdue ones count today).

    New and suspended cards have no due date for this purpose and are left out.
    """
    today = study_day(now, tz, day_start_hour)
    buckets = [0] * days
    overdue = 0
    for card in cards:
        if card.suspended or card.state == "new" or card.due is None:
            continue
        offset = (study_day(card.due, tz, day_start_hour) - today).days
        if offset < 0:
            overdue += 1
            offset = 0
        if offset < days:
            buckets[offset] += 1
    return Forecast(today, tuple(buckets), overdue)


def mastery(
    cards: Iterable[CardSnapshot],
    now: datetime,
    concept_uids: Sequence[str] = (),
    parameters: Sequence[float] | None = None,
) -> tuple[tuple[str, ...], tuple[MasteryRow, ...]]:
    """Concept × answer-language table of mean retrievability now.

    Rows follow ``concept_uids`` (concepts never studied get empty rows), then any
    other concept seen in ``cards`` in sorted order. Returns (languages, rows),
    the languages being those with at least one studied card, in canonical order.
    """
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for card in cards:
        key = _parse(card.card_id)
        if key is None:
            continue
        r = card_retrievability(card, now, parameters)
        if r is None:
            continue
        sums[key.concept_uid][key.pair.answer_lang].append(r)
    langs = tuple(lang for lang in LANGUAGES if any(lang in row for row in sums.values()))
    order = list(dict.fromkeys(concept_uids))
    order += sorted(set(sums) - set(order))
    rows = tuple(
        MasteryRow(
            uid,
            {
                lang: MasteryCell(sum(vals) / len(vals), len(vals))
                for lang in LANGUAGES
                if (vals := sums.get(uid, {}).get(lang))
            },
        )
        for uid in order
    )
    return langs, rows


@dataclass(slots=True)
class _CardTotals:
    """One card's answers, summed in one pass over the log."""

    reviews: int = 0
    passed: int = 0
    time_ms: int = 0
    again: int = 0
    lapses: int = 0


def _card_totals(reviews: Iterable[Review]) -> dict[str, _CardTotals]:
    """Answers per card: the lifetime figures (hardest, summaries) need only these sums."""
    totals: dict[str, _CardTotals] = {}
    for r in reviews:
        t = totals.get(r.card_id)
        if t is None:
            t = totals[r.card_id] = _CardTotals()
        t.reviews += 1
        t.time_ms += r.duration_ms
        if r.grade == 1:
            t.again += 1
            if r.phase == "review":
                t.lapses += 1
        else:
            t.passed += 1
    return totals


def hardest_concepts(
    reviews: Iterable[Review], limit: int = HARDEST_LIMIT
) -> tuple[HardConcept, ...]:
    """Concepts with the most lapses (then most Agains), at most ``limit``, none without lapses."""
    return _hardest(_card_totals(reviews), limit)


def _hardest(
    totals: Mapping[str, _CardTotals], limit: int = HARDEST_LIMIT
) -> tuple[HardConcept, ...]:
    lapses: Counter[str] = Counter()
    again: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for card_id, t in totals.items():
        key = _parse(card_id)
        uid = key.concept_uid if key else card_id.split("|", 1)[0]
        total[uid] += t.reviews
        again[uid] += t.again
        lapses[uid] += t.lapses
    ranked = sorted(
        (uid for uid in lapses if lapses[uid] > 0),
        key=lambda uid: (-lapses[uid], -again[uid], uid),
    )
    return tuple(HardConcept(uid, lapses[uid], again[uid], total[uid]) for uid in ranked[:limit])


def _summaries(
    totals: Mapping[str, _CardTotals],
    cards: Sequence[CardSnapshot],
    now: datetime,
    group: Any,
    parameters: Sequence[float] | None,
) -> tuple[GroupSummary, ...]:
    card_sets: dict[str, set[str]] = defaultdict(set)
    n_reviews: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    time_ms: Counter[str] = Counter()
    recall: dict[str, list[float]] = defaultdict(list)
    mature: Counter[str] = Counter()
    for card_id, t in totals.items():
        key = _parse(card_id)
        if key is None:
            continue
        g = group(key)
        card_sets[g].add(card_id)
        n_reviews[g] += t.reviews
        passed[g] += t.passed
        time_ms[g] += t.time_ms
    for card in cards:
        key = _parse(card.card_id)
        if key is None or (card.state == "new" and card.last_review is None):
            continue
        g = group(key)
        card_sets[g].add(card.card_id)
        value = card_retrievability(card, now, parameters)
        if value is not None:
            recall[g].append(value)
        if card.state == "review" and card.interval_days >= MATURE_DAYS and not card.suspended:
            mature[g] += 1
    return tuple(
        GroupSummary(
            key=g,
            cards=len(card_sets[g]),
            reviews=n_reviews[g],
            passed=passed[g],
            correct_rate=_rate(passed[g], n_reviews[g]),
            recall=(sum(recall[g]) / len(recall[g])) if recall[g] else None,
            mature=mature[g],
            time_ms=time_ms[g],
        )
        for g in sorted(card_sets, key=_group_order)
    )


def _by_answer_lang(key: CardKey) -> str:
    return key.pair.answer_lang


def _by_pair(key: CardKey) -> str:
    return f"{key.pair.prompt_lang}>{key.pair.answer_lang}"


def _group_order(key: str) -> tuple[int, ...]:
    parts = key.split(">")
    return tuple(LANGUAGES.index(p) if p in LANGUAGES else len(LANGUAGES) for p in parts)


def language_summaries(
    reviews: Sequence[Review],
    cards: Sequence[CardSnapshot],
    now: datetime,
    parameters: Sequence[float] | None = None,
) -> tuple[GroupSummary, ...]:
    """Per answer language (what the learner recalls)."""
    return _summaries(_card_totals(reviews), cards, now, _by_answer_lang, parameters)


def pair_summaries(
    reviews: Sequence[Review],
    cards: Sequence[CardSnapshot],
    now: datetime,
    parameters: Sequence[float] | None = None,
) -> tuple[GroupSummary, ...]:
    """Per language pair ``"prompt>answer"`` (sides merged: ``ru>bn`` covers both sides)."""
    return _summaries(_card_totals(reviews), cards, now, _by_pair, parameters)


def compute_stats(
    reviews: Iterable[Review],
    cards: Iterable[CardSnapshot],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    decks: Sequence[Deck] = (),
    deck_ids: Collection[str] | None = None,
    unseen_new: int = 0,
    parameters: Sequence[float] | None = None,
    timezone_name: str | None = None,
) -> Stats:
    """All figures at once.

    ``decks`` give the concept order and names of the mastery table;
    ``deck_ids`` (if given) keeps only cards and answers of those decks;
    ``parameters`` are the FSRS parameters in use (defaults if ``None``);
    ``timezone_name`` names ``tz`` in the report (default :func:`timezone_label`).
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware (UTC)")
    if not 0 <= day_start_hour <= 23:
        raise ValueError(f"day_start_hour must be 0-23, got {day_start_hour}")
    review_list = [r for r in reviews if deck_ids is None or _deck_of(r.card_id) in deck_ids]
    card_list = [c for c in cards if deck_ids is None or _deck_of(c.card_id) in deck_ids]
    shown_decks = [d for d in decks if deck_ids is None or d.id in deck_ids]
    concept_uids = [c.uid for d in shown_decks for c in d.concepts]
    names = {
        c.uid: (c.acronym or c.text("en", "term") or c.id) for d in shown_decks for c in d.concepts
    }
    langs, rows = mastery(card_list, now, concept_uids, parameters)
    dated = _dated(review_list, tz, day_start_hour)
    totals = _card_totals(review_list)
    today = study_day(now, tz, day_start_hour)
    studied = set(totals) | {c.card_id for c in card_list if c.last_review is not None}
    return Stats(
        generated_at=now.astimezone(UTC),
        timezone=timezone_name or timezone_label(tz, now),
        day_start_hour=day_start_hour,
        decks=tuple(d.id for d in shown_decks)
        or tuple(sorted(deck_ids or {_deck_of(c) for c in studied})),
        today=_today(dated, today),
        streak=_streak(dated, today),
        states=state_counts(card_list, unseen_new),
        retention=_retention(dated, today),
        heatmap=_per_day(dated, today),
        forecast=due_forecast(card_list, now, tz, day_start_hour),
        mastery_languages=langs,
        mastery=rows,
        hardest=_hardest(totals),
        languages=_summaries(totals, card_list, now, _by_answer_lang, parameters),
        pairs=_summaries(totals, card_list, now, _by_pair, parameters),
        total_reviews=len(review_list),
        total_cards=len(studied),
        concept_names=names,
    )
