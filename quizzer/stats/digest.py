"""What ``quizzer stats`` shows that the decks don't change, for one study day: a :class:`Digest`.

The costly part of the statistics at scale is per card: each card state's recall,
due day and state, each card's totals, grouped by concept, language and pair. None
of it reads the clock but through the study day (recall counts whole study days,
the forecast starts today), and none of it needs the decks: they only give the
mastery table's order and names and the New count of cards not studied yet. So
:func:`digest_of` counts once what a study day's figures are, and :func:`stats_of`
adds what the decks say; a digest can be kept as plain data (:meth:`Digest.to_data`)
for the rest of the day, while the card states and the log stay as they were (see
:mod:`quizzer.progress.statecache`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, tzinfo
from typing import Any

from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import order_languages
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.studyday import study_day
from quizzer.stats.activity import per_day, streak_on, today_on
from quizzer.stats.cardfacts import CardFact, bucket_counts, facts_of, forecast_on, recalls_on
from quizzer.stats.definitions import deck_of
from quizzer.stats.figures import (
    AnswerSources,
    DayCount,
    Forecast,
    GroupSummary,
    HardConcept,
    MasteryCell,
    MasteryRow,
    PassCount,
    Retention,
    SourceCount,
    StateCounts,
    Stats,
    Streak,
    Today,
)
from quizzer.stats.groups import by_answer_lang, by_pair, summaries_of
from quizzer.stats.hardest import hardest_of
from quizzer.stats.mastery import mastery_of
from quizzer.stats.retention import retention_on
from quizzer.stats.sources import answer_sources
from quizzer.stats.tally import Tally

#: A concept's mastery cells: answer language -> cell, in the languages' order.
Cells = Mapping[str, MasteryCell]


@dataclass(frozen=True, slots=True)
class Digest:
    """The figures of one study day (``day``) that don't depend on the decks (module docstring)."""

    day: date
    today: Today
    streak: Streak
    #: Cards by state, without the cards of the decks not studied yet (``stats_of`` adds them).
    states: StateCounts
    retention: tuple[Retention, ...]
    heatmap: tuple[DayCount, ...]
    forecast: Forecast
    mastery_languages: tuple[str, ...]
    #: Concept uid -> its cells, for every concept with a studied card.
    mastery: Mapping[str, Cells]
    hardest: tuple[HardConcept, ...]
    languages: tuple[GroupSummary, ...]
    pairs: tuple[GroupSummary, ...]
    total_reviews: int
    total_cards: int
    sources: AnswerSources
    #: The decks of the cards answered or with a state, sorted.
    studied_decks: tuple[str, ...]
    #: Deck id -> the ids of its cards that have a state (what the New count leaves out).
    state_ids: Mapping[str, tuple[str, ...]]

    def to_data(self) -> dict[str, Any]:
        """As JSON-ready data (:meth:`from_data` reads it back; dates as ordinals)."""
        return {
            "day": self.day.toordinal(),
            "today": _flat(self.today),
            "streak": _flat(self.streak),
            "states": _flat(self.states),
            "retention": [
                [r.days, r.young.passed, r.young.failed, r.mature.passed, r.mature.failed]
                for r in self.retention
            ],
            "heatmap": [[d.day.toordinal(), d.reviews, d.time_ms] for d in self.heatmap],
            "forecast": [
                self.forecast.start.toordinal(),
                self.forecast.overdue,
                list(self.forecast.days),
            ],
            "mastery_languages": list(self.mastery_languages),
            "mastery": {
                uid: [[lang, c.recall, c.cards] for lang, c in cells.items()]
                for uid, cells in self.mastery.items()
            },
            "hardest": [_flat(h) for h in self.hardest],
            "languages": [_flat(g) for g in self.languages],
            "pairs": [_flat(g) for g in self.pairs],
            "totals": [self.total_reviews, self.total_cards],
            "sources": [self.sources.days, [_flat(c) for c in self.sources.counts]],
            "studied_decks": list(self.studied_decks),
            # One text per deck: read back faster than a list of thousands of strings.
            "state_ids": {deck: "\n".join(ids) for deck, ids in self.state_ids.items()},
        }

    @classmethod
    def from_data(cls, data: Any) -> Digest:
        """Back from :meth:`to_data`; ``ValueError``, ``TypeError``, ``KeyError`` (and the like)
        if ``data`` isn't a digest."""
        today_day, *today_fields = data["today"]
        start, overdue, forecast_days = data["forecast"]
        sources_days, source_counts = data["sources"]
        total_reviews, total_cards = data["totals"]
        digest = cls(
            day=date.fromordinal(data["day"]),
            today=Today(date.fromordinal(today_day), *today_fields),
            streak=Streak(*data["streak"]),
            states=StateCounts(*data["states"]),
            retention=tuple(
                Retention(w, PassCount(yp, yf), PassCount(mp, mf))
                for w, yp, yf, mp, mf in data["retention"]
            ),
            heatmap=tuple(DayCount(date.fromordinal(d), n, t) for d, n, t in data["heatmap"]),
            forecast=Forecast(date.fromordinal(start), tuple(forecast_days), overdue),
            mastery_languages=tuple(data["mastery_languages"]),
            mastery={
                uid: {lang: MasteryCell(recall, n) for lang, recall, n in cells}
                for uid, cells in data["mastery"].items()
            },
            hardest=tuple(HardConcept(*h) for h in data["hardest"]),
            languages=tuple(GroupSummary(*g) for g in data["languages"]),
            pairs=tuple(GroupSummary(*g) for g in data["pairs"]),
            total_reviews=total_reviews,
            total_cards=total_cards,
            sources=AnswerSources(sources_days, tuple(SourceCount(*c) for c in source_counts)),
            studied_decks=tuple(data["studied_decks"]),
            state_ids={
                deck: tuple(ids.split("\n")) if ids else ()
                for deck, ids in data["state_ids"].items()
            },
        )
        if not all(isinstance(n, int) for n in (*_flat(digest.states), total_reviews, total_cards)):
            raise ValueError("a digest's counts are not counts")
        return digest


def _flat(value: Any) -> list[Any]:
    """A figure's fields in order (its dataclass's positional form), dates as ordinals."""
    return [
        v.toordinal() if isinstance(v, date) else v
        for v in (getattr(value, name) for name in value.__slots__)
    ]


def digest_of(
    tally: Tally,
    cards: Iterable[CardState],
    now: datetime,
    tz: tzinfo | None,
    day_start_hour: int,
    deck_ids: Collection[str] | None = None,
    parameters: Sequence[float] | None = None,
) -> Digest:
    """The digest of the study day of ``now``: from the log's ``tally`` (counted in ``tz``
    from ``day_start_hour``) and the card states, for the decks ``deck_ids`` (``None``: all).

    :class:`~quizzer.stats.tally.TallyGap` when the tally can't tell that day's distinct
    cards (a ``now`` before its newest answers)."""
    facts = facts_of(cards, tz, day_start_hour)
    return digest_from(tally, facts, study_day(now, tz, day_start_hour), deck_ids, parameters)


def digest_from(
    tally: Tally,
    facts: Mapping[str, CardFact],
    today: date,
    deck_ids: Collection[str] | None = None,
    parameters: Sequence[float] | None = None,
) -> Digest:
    """:func:`digest_of` from each card's fact (:mod:`~quizzer.stats.cardfacts`, by card
    id, study days in the tally's zone and day start), on study day ``today``."""
    state_ids: dict[str, list[str]] = {}
    for card_id in facts:
        state_ids.setdefault(deck_of(card_id), []).append(card_id)
    shown = {
        card_id: fact
        for card_id, fact in facts.items()
        if deck_ids is None or deck_of(card_id) in deck_ids
    }
    recall = recalls_on(shown, today, parameters)
    langs, rows = mastery_of(recall)
    counts = tally.deck(deck_ids)
    totals = counts.cards
    studied = set(totals) | {c for c, f in shown.items() if f.last_day is not None}
    listed = {c: f.bucket == "mature" for c, f in shown.items() if f.listed}
    languages, pairs = summaries_of(totals, listed, recall, (by_answer_lang, by_pair))
    return Digest(
        day=today,
        today=today_on(tally, counts, today, deck_ids),
        streak=streak_on(counts, today),
        states=bucket_counts((f.bucket, f.leech) for f in shown.values()),
        retention=retention_on(counts, today),
        heatmap=per_day(counts, today),
        forecast=forecast_on((f.due_day for f in shown.values()), today),
        mastery_languages=langs,
        mastery={row.concept_uid: row.cells for row in rows},
        hardest=hardest_of(totals),
        languages=languages,
        pairs=pairs,
        total_reviews=sum(d.reviews for d in counts.days.values()),
        total_cards=len(studied),
        sources=answer_sources(counts, today),
        studied_decks=tuple(sorted({deck_of(c) for c in studied})),
        state_ids={deck: tuple(ids) for deck, ids in state_ids.items()},
    )


def stats_of(
    digest: Digest,
    now: datetime,
    day_start_hour: int,
    timezone_name: str,
    decks: Sequence[Deck] = (),
    deck_ids: Collection[str] | None = None,
    unseen_new: int = 0,
) -> Stats:
    """Every figure: ``digest`` (of the study day of ``now``) with what the decks say.

    ``decks`` give the mastery table's order (their concepts first, those never studied
    with empty rows, then any other concept studied, sorted) and the concepts' names;
    ``unseen_new`` is the New count of cards not studied yet.
    """
    shown_decks = [d for d in decks if deck_ids is None or d.id in deck_ids]
    concept_uids = [c.uid for d in shown_decks for c in d.concepts]
    order = list(dict.fromkeys(concept_uids))
    order += sorted(set(digest.mastery) - set(order))
    empty: Cells = {}
    return Stats(
        generated_at=now.astimezone(UTC),
        timezone=timezone_name,
        day_start_hour=day_start_hour,
        decks=tuple(d.id for d in shown_decks) or tuple(sorted(deck_ids or digest.studied_decks)),
        today=digest.today,
        streak=digest.streak,
        states=replace(digest.states, new=digest.states.new + unseen_new),
        retention=digest.retention,
        heatmap=digest.heatmap,
        forecast=digest.forecast,
        mastery_languages=_in_deck_order(digest.mastery_languages, shown_decks),
        mastery=tuple(MasteryRow(uid, dict(digest.mastery.get(uid, empty))) for uid in order),
        hardest=digest.hardest,
        languages=digest.languages,
        pairs=digest.pairs,
        total_reviews=digest.total_reviews,
        total_cards=digest.total_cards,
        sources=digest.sources,
        concept_names={c.uid: c.label for d in shown_decks for c in d.concepts},
    )


def _in_deck_order(languages: Sequence[str], decks: Sequence[Deck]) -> tuple[str, ...]:
    """``languages`` in the order the decks list them; any the decks lack after, by tag."""
    order = {
        lang: i
        for i, lang in enumerate(order_languages(lang for deck in decks for lang in deck.languages))
    }
    return tuple(sorted(languages, key=lambda lang: (order.get(lang, len(order)), lang)))
