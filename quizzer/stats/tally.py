"""What the statistics need from the review log, summed: a :class:`Tally` per deck and study day.

Every figure that reads the log (today, the streak, true retention, the heatmap,
the sources, the hardest concepts, the summaries, the totals) needs only these
sums, never the answers themselves, so a tally can be kept up to date one answer
at a time (:meth:`Tally.add`, :meth:`Tally.remove` for an undo) and stored
between runs as plain data (:meth:`Tally.to_data`). Study days depend on the
learner's time zone and day start: a tally is only good for the zone and hour it
was counted in.

Practice answers (cram sessions, Match games: no schedule changed) are counted apart, per
deck, mode and study day (:meth:`Tally.add_practice`): no other figure counts them.

One figure needs more than sums: today's *distinct* cards. A tally keeps which
cards were answered on its two newest study days (:attr:`Tally.newest` and the day
before); asking for another day that has answers is a :class:`TallyGap` (the
caller counts from the log instead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, tzinfo
from typing import Any

from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import study_day
from quizzer.stats.days import dated_reviews
from quizzer.stats.definitions import MATURE_DAYS, deck_of
from quizzer.stats.totals import CardTotals

#: How many of the newest study days keep their distinct cards (today and the day before).
CARD_DAYS = 2


class TallyGap(LookupError):
    """The tally can't tell the distinct cards of a study day (older than its newest two)."""


@dataclass(slots=True)
class DayTally:
    """One deck's answers on one study day."""

    reviews: int = 0
    passed: int = 0
    time_ms: int = 0
    #: Review-phase answers by the interval they were answered on: [passed, failed].
    young: list[int] = field(default_factory=lambda: [0, 0])
    mature: list[int] = field(default_factory=lambda: [0, 0])
    #: Answers per source (quiz mode, or ``anki``).
    modes: Counter[str] = field(default_factory=Counter)

    def add(self, review: Review, sign: int) -> None:
        """Count ``review`` in (``sign`` 1) or out (-1)."""
        self.reviews += sign
        self.passed += sign * review.passed
        self.time_ms += sign * review.duration_ms
        if review.phase == "review":
            kind = self.mature if review.last_interval_days >= MATURE_DAYS else self.young
            kind[0 if review.passed else 1] += sign
        self.modes[review.mode] += sign
        if not self.modes[review.mode]:
            del self.modes[review.mode]

    def merge(self, other: DayTally) -> None:
        """Add ``other``'s counts to these."""
        self.reviews += other.reviews
        self.passed += other.passed
        self.time_ms += other.time_ms
        for mine, theirs in ((self.young, other.young), (self.mature, other.mature)):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.modes.update(other.modes)

    def to_data(self) -> list[Any]:
        """As JSON-ready data."""
        return [self.reviews, self.passed, self.time_ms, *self.young, *self.mature, self.modes]

    @classmethod
    def from_data(cls, data: Any) -> DayTally:
        """Back from :meth:`to_data` (``ValueError`` / ``TypeError`` if it isn't that)."""
        reviews, passed, time_ms, yp, yf, mp, mf, modes = data
        day = cls(reviews, passed, time_ms, [yp, yf], [mp, mf], Counter(modes))
        numbers = [reviews, passed, time_ms, yp, yf, mp, mf, *day.modes.values()]
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers):
            raise ValueError(f"a day's counts are not counts: {data!r:.80}")
        if not all(isinstance(m, str) for m in day.modes):
            raise ValueError(f"a day's sources are not names: {data!r:.80}")
        return day


@dataclass(slots=True)
class DeckTally:
    """One deck's answers: per study day (keyed by ordinal), per source, per card."""

    days: dict[int, DayTally] = field(default_factory=dict)
    #: source -> [answers, passed], over the whole log.
    modes: dict[str, list[int]] = field(default_factory=dict)
    cards: dict[str, CardTotals] = field(default_factory=dict)

    def add(self, review: Review, day: int, sign: int) -> None:
        """Count ``review``, answered on study day ordinal ``day``, in (1) or out (-1)."""
        tally = self.days.get(day)
        if tally is None:
            tally = self.days[day] = DayTally()
        tally.add(review, sign)
        if not tally.reviews:
            del self.days[day]
        mode = self.modes.setdefault(review.mode, [0, 0])
        mode[0] += sign
        mode[1] += sign * review.passed
        if not mode[0]:
            del self.modes[review.mode]
        totals = self.cards.get(review.card_id)
        if totals is None:
            totals = self.cards[review.card_id] = CardTotals()
        totals.reviews += sign
        totals.time_ms += sign * review.duration_ms
        if review.grade == 1:
            totals.again += sign
            if review.phase == "review":
                totals.lapses += sign
        else:
            totals.passed += sign
        if not totals.reviews:
            del self.cards[review.card_id]

    def merge(self, other: DeckTally) -> None:
        """Add ``other``'s counts to these."""
        for day, theirs in other.days.items():
            mine = self.days.get(day)
            if mine is None:
                mine = self.days[day] = DayTally()
            mine.merge(theirs)
        for mode, (total, passed) in other.modes.items():
            counts = self.modes.setdefault(mode, [0, 0])
            counts[0] += total
            counts[1] += passed
        for card_id, t in other.cards.items():
            mine_t = self.cards.get(card_id)
            if mine_t is None:
                mine_t = self.cards[card_id] = CardTotals()
            mine_t.reviews += t.reviews
            mine_t.passed += t.passed
            mine_t.time_ms += t.time_ms
            mine_t.again += t.again
            mine_t.lapses += t.lapses

    def to_data(self) -> dict[str, Any]:
        """As JSON-ready data."""
        return {
            "days": {str(d): t.to_data() for d, t in self.days.items()},
            "modes": self.modes,
            "cards": {
                c: [t.reviews, t.passed, t.time_ms, t.again, t.lapses]
                for c, t in self.cards.items()
            },
        }

    @classmethod
    def from_data(cls, data: Any) -> DeckTally:
        """Back from :meth:`to_data` (``ValueError`` / ``TypeError`` if it isn't that)."""
        days = {int(d): DayTally.from_data(t) for d, t in data["days"].items()}
        modes = {str(m): [int(n), int(p)] for m, (n, p) in data["modes"].items()}
        cards = {str(c): CardTotals(*map(int, t)) for c, t in data["cards"].items()}
        if any(len(t) != 5 for t in data["cards"].values()):
            raise ValueError("a card's totals are not five counts")
        return cls(days, modes, cards)


@dataclass(slots=True)
class Tally:
    """The whole log's answers, summed per deck (see the module's docstring)."""

    decks: dict[str, DeckTally] = field(default_factory=dict)
    #: The newest study day ordinal ever counted (``None``: nothing counted yet).
    newest: int | None = None
    #: Study day ordinal -> card id -> answers, for the :data:`CARD_DAYS` newest days.
    card_days: dict[int, Counter[str]] = field(default_factory=dict)
    #: One more study day ordinal whose distinct cards are kept, however old (not stored).
    keep_day: int | None = None
    #: Practice answers: (deck, mode, study day ordinal) -> [answers, passed].
    practice: dict[tuple[str, str, int], list[int]] = field(default_factory=dict)

    def add(self, review: Review, day: date) -> None:
        """Count ``review``, answered on study day ``day``."""
        self._count(review, day.toordinal(), 1)

    def remove(self, review: Review, day: date) -> None:
        """Take ``review`` (answered on ``day``) out again: an undo."""
        self._count(review, day.toordinal(), -1)

    def add_practice(self, card_id: str, mode: str, grade: int, day: date, sign: int = 1) -> None:
        """Count a practice answer to ``card_id`` in ``mode`` with ``grade``, given on study
        day ``day``, in (``sign`` 1) or out (-1: an undo)."""
        key = (deck_of(card_id), mode, day.toordinal())
        counts = self.practice.setdefault(key, [0, 0])
        counts[0] += sign
        counts[1] += sign * (grade > 1)
        if not counts[0]:
            del self.practice[key]

    def _count(self, review: Review, day: int, sign: int) -> None:
        deck = deck_of(review.card_id)
        tally = self.decks.get(deck)
        if tally is None:
            tally = self.decks[deck] = DeckTally()
        tally.add(review, day, sign)
        if not tally.days:
            del self.decks[deck]
        if self.newest is None or day > self.newest:
            self.newest = day
            self.card_days = {
                d: c for d, c in self.card_days.items() if d > day - CARD_DAYS or d == self.keep_day
            }
        if day > self.newest - CARD_DAYS or day == self.keep_day:
            cards = self.card_days.setdefault(day, Counter())
            cards[review.card_id] += sign
            if not cards[review.card_id]:
                del cards[review.card_id]

    def deck(self, deck_ids: Collection[str] | None = None) -> DeckTally:
        """The counts of the decks ``deck_ids`` (every deck if ``None``) summed as one."""
        wanted = [t for d, t in self.decks.items() if deck_ids is None or d in deck_ids]
        if len(wanted) == 1:
            return wanted[0]
        total = DeckTally()
        for tally in wanted:
            total.merge(tally)
        return total

    def cards_on(self, day: date, deck_ids: Collection[str] | None = None) -> int:
        """Distinct cards of ``deck_ids`` answered on ``day``; :class:`TallyGap` if not kept."""
        ordinal = day.toordinal()
        cards = self.card_days.get(ordinal)
        if cards is None:
            if self.newest is None or ordinal > self.newest - CARD_DAYS or ordinal == self.keep_day:
                return 0  # a day this recent with answers would be kept
            raise TallyGap(day)
        return sum(1 for c in cards if deck_ids is None or deck_of(c) in deck_ids)

    def to_data(self) -> dict[str, Any]:
        """As JSON-ready data (:meth:`from_data` reads it back)."""
        return {
            "newest": self.newest,
            "card_days": {str(d): dict(c) for d, c in self.card_days.items()},
            "decks": {d: t.to_data() for d, t in self.decks.items()},
            "practice": [[*key, *counts] for key, counts in self.practice.items()],
        }

    @classmethod
    def from_data(cls, data: Any) -> Tally:
        """Back from :meth:`to_data`; ``ValueError`` (or ``TypeError``, ``KeyError``,
        ``AttributeError``) if ``data`` isn't such a tally."""
        newest = data["newest"]
        if newest is not None and (isinstance(newest, bool) or not isinstance(newest, int)):
            raise ValueError(f"newest day is not a day: {newest!r:.40}")
        card_days = {int(d): Counter(c) for d, c in data["card_days"].items()}
        if any(not isinstance(n, int) for c in card_days.values() for n in c.values()):
            raise ValueError("a day's cards are not counts")
        decks = {str(d): DeckTally.from_data(t) for d, t in data["decks"].items()}
        practice = {
            (str(d), str(m), int(day)): [int(n), int(p)] for d, m, day, n, p in data["practice"]
        }
        return cls(decks, newest, card_days, practice=practice)


def tally_of(
    reviews: Iterable[Review], tz: tzinfo | None, day_start_hour: int, today: date | None = None
) -> Tally:
    """The tally of ``reviews``, study days counted in ``tz`` from ``day_start_hour``
    (keeping the distinct cards of ``today`` too, whenever it is)."""
    tally = Tally(keep_day=today.toordinal() if today else None)
    for review, day in dated_reviews(reviews, tz, day_start_hour):
        tally.add(review, day)
    return tally


def add_one(
    tally: Tally, review: Review, tz: tzinfo | None, day_start_hour: int, sign: int = 1
) -> None:
    """Count one answer in (``sign`` 1) or out (-1), its study day in ``tz``."""
    day = study_day(review.reviewed_at, tz, day_start_hour)
    (tally.add if sign > 0 else tally.remove)(review, day)
