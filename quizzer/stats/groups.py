"""Summaries per answer language and per language pair: cards, answers, pass rate, recall."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, tzinfo

from quizzer.cards.card import Pair
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR
from quizzer.stats.cardfacts import bucket_of, in_summaries, mean, recalls
from quizzer.stats.definitions import card_key, pass_rate
from quizzer.stats.figures import GroupSummary
from quizzer.stats.totals import CardTotals, card_totals


def group_summaries(
    totals: Mapping[str, CardTotals],
    cards: Sequence[CardState],
    now: datetime,
    group: Callable[[Pair], str],
    parameters: Sequence[float] | None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    card_recall: Mapping[str, float] | None = None,
) -> tuple[GroupSummary, ...]:
    """Figures per group; ``group`` names a language pair's group (:func:`by_answer_lang`, ...);
    recall counts study days in ``tz`` from ``day_start_hour`` (``card_recall``: each card's,
    :func:`~quizzer.stats.cardfacts.recalls`, when already counted)."""
    if card_recall is None:
        card_recall = recalls(cards, now, parameters, tz=tz, day_start_hour=day_start_hour)
    return summaries_by(totals, cards, card_recall, (group,))[0]


def summaries_by(
    totals: Mapping[str, CardTotals],
    cards: Sequence[CardState],
    card_recall: Mapping[str, float],
    groups: Sequence[Callable[[Pair], str]],
) -> tuple[tuple[GroupSummary, ...], ...]:
    """:func:`group_summaries` for each of ``groups`` at once: the cards are counted per
    language pair first (each card looked at once), then each group sums its pairs'."""
    listed = {card.card_id: bucket_of(card) == "mature" for card in cards if in_summaries(card)}
    return summaries_of(totals, listed, card_recall, groups)


def summaries_of(
    totals: Mapping[str, CardTotals],
    listed: Mapping[str, bool],
    card_recall: Mapping[str, float],
    groups: Sequence[Callable[[Pair], str]],
) -> tuple[tuple[GroupSummary, ...], ...]:
    """:func:`summaries_by` from the cards listed in the summaries (card id -> whether it
    is mature; see :class:`~quizzer.stats.cardfacts.CardFact`) and their recall now."""
    pairs: dict[Pair, _PairCounts] = {}
    for card_id, t in totals.items():
        key = card_key(card_id)
        if key is None:
            continue
        counts = pairs.get(key.pair) or pairs.setdefault(key.pair, _PairCounts())
        counts.card_ids.add(card_id)
        counts.reviews += t.reviews
        counts.passed += t.passed
        counts.time_ms += t.time_ms
    for card_id, mature in listed.items():
        key = card_key(card_id)
        if key is None:
            continue
        counts = pairs.get(key.pair) or pairs.setdefault(key.pair, _PairCounts())
        counts.card_ids.add(card_id)
        value = card_recall.get(card_id)
        if value is not None:
            counts.recall.append(value)
        counts.mature += mature
    return tuple(_summaries(pairs, group) for group in groups)


class _PairCounts:
    """One language pair's cards (a card is of one pair: the pairs' cards never overlap)."""

    __slots__ = ("card_ids", "mature", "passed", "recall", "reviews", "time_ms")

    def __init__(self) -> None:
        self.card_ids: set[str] = set()
        self.reviews = self.passed = self.time_ms = self.mature = 0
        self.recall: list[float] = []


def _summaries(
    pairs: Mapping[Pair, _PairCounts], group: Callable[[Pair], str]
) -> tuple[GroupSummary, ...]:
    grouped: dict[str, list[_PairCounts]] = defaultdict(list)
    for pair, counts in pairs.items():
        grouped[group(pair)].append(counts)
    out = []
    for g in sorted(grouped, key=_group_order):  # by tag: languages come as a set here
        parts = grouped[g]
        reviews = sum(c.reviews for c in parts)
        passed = sum(c.passed for c in parts)
        recall = [r for c in parts for r in c.recall]
        out.append(
            GroupSummary(
                key=g,
                cards=sum(len(c.card_ids) for c in parts),
                reviews=reviews,
                passed=passed,
                correct_rate=pass_rate(passed, reviews),
                recall=mean(recall) if recall else None,
                mature=sum(c.mature for c in parts),
                time_ms=sum(c.time_ms for c in parts),
            )
        )
    return tuple(out)


def by_answer_lang(pair: Pair) -> str:
    """The group of a card by answer language: ``"bn"``."""
    return pair.answer_lang


def by_pair(pair: Pair) -> str:
    """The group of a card by language pair: ``"ru>bn"``."""
    return f"{pair.prompt_lang}>{pair.answer_lang}"


def _group_order(key: str) -> tuple[str, ...]:
    return tuple(key.split(">"))


def language_summaries(
    reviews: Sequence[Review],
    cards: Sequence[CardState],
    now: datetime,
    parameters: Sequence[float] | None = None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
) -> tuple[GroupSummary, ...]:
    """Per answer language (what the learner recalls)."""
    return group_summaries(
        card_totals(reviews),
        cards,
        now,
        by_answer_lang,
        parameters,
        tz=tz,
        day_start_hour=day_start_hour,
    )


def pair_summaries(
    reviews: Sequence[Review],
    cards: Sequence[CardState],
    now: datetime,
    parameters: Sequence[float] | None = None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
) -> tuple[GroupSummary, ...]:
    """Per language pair ``"prompt>answer"`` (sides merged: ``ru>bn`` covers both sides)."""
    return group_summaries(
        card_totals(reviews), cards, now, by_pair, parameters, tz=tz, day_start_hour=day_start_hour
    )
