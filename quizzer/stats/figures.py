"""The figures of ``quizzer stats``: one frozen dataclass per figure, and :class:`Stats` for all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from quizzer.stats.definitions import pass_rate


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
        return pass_rate(self.passed, self.total)

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
class SourceCount:
    """One source's answers: all time, in the recent window, and how many passed."""

    mode: str
    reviews: int
    recent: int
    passed: int

    @property
    def correct_rate(self) -> float | None:
        """The pass rate of the source's answers, ``None`` without any."""
        return pass_rate(self.passed, self.reviews)


@dataclass(frozen=True, slots=True)
class AnswerSources:
    """Answers per source (quiz mode or Anki), all time and over the last ``days`` study days.

    ``counts`` has every known source, in a fixed order, even those without answers.
    """

    days: int
    counts: tuple[SourceCount, ...]

    @property
    def total(self) -> int:
        """Every answer, whatever its source."""
        return sum(c.reviews for c in self.counts)

    @property
    def recent_total(self) -> int:
        """Every answer of the last ``days`` study days."""
        return sum(c.recent for c in self.counts)

    @property
    def used(self) -> tuple[SourceCount, ...]:
        """The sources with at least one answer."""
        return tuple(c for c in self.counts if c.reviews)

    def share(self, count: SourceCount) -> float | None:
        """``count``'s share of all answers (``None`` without answers)."""
        return count.reviews / self.total if self.total else None

    def recent_share(self, count: SourceCount) -> float | None:
        """``count``'s share of the recent answers (``None`` without any)."""
        return count.recent / self.recent_total if self.recent_total else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: per source, its answers and shares, all time and recent."""
        return {
            "recent_days": self.days,
            "total": self.total,
            "recent_total": self.recent_total,
            "by_source": {
                c.mode: {
                    "answers": c.reviews,
                    "share": self.share(c),
                    "recent_answers": c.recent,
                    "recent_share": self.recent_share(c),
                    "passed": c.passed,
                    "correct_rate": c.correct_rate,
                }
                for c in self.counts
            },
        }


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
    sources: AnswerSources
    concept_names: Mapping[str, str] = field(default_factory=dict)
    #: Practice answers per mode (cram, match): they changed no schedule, and no other
    #: figure counts them.
    practice: tuple[SourceCount, ...] = ()

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
            "sources": self.sources.to_dict(),
            "practice": {
                c.mode: {"answers": c.reviews, "recent": c.recent, "passed": c.passed}
                for c in self.practice
            },
        }


def _summary_dict(summary: GroupSummary) -> dict[str, Any]:
    return asdict(summary)
