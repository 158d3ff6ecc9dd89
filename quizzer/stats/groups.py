"""Summaries per answer language and per language pair: cards, answers, pass rate, recall."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Any

from quizzer.cards.card import CardKey
from quizzer.concepts.languages import LANGUAGES
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR
from quizzer.stats.definitions import MATURE_DAYS, card_key, pass_rate
from quizzer.stats.figures import GroupSummary
from quizzer.stats.mastery import recalls
from quizzer.stats.totals import CardTotals, card_totals


def group_summaries(
    totals: Mapping[str, CardTotals],
    cards: Sequence[CardState],
    now: datetime,
    group: Any,
    parameters: Sequence[float] | None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    card_recall: Mapping[str, float] | None = None,
) -> tuple[GroupSummary, ...]:
    """Figures per group; ``group`` names a card key's group (:func:`by_answer_lang`, ...);
    recall counts study days in ``tz`` from ``day_start_hour`` (``card_recall``: each card's,
    :func:`~quizzer.stats.mastery.recalls`, when already counted)."""
    if card_recall is None:
        card_recall = recalls(cards, now, parameters, tz=tz, day_start_hour=day_start_hour)
    card_sets: dict[str, set[str]] = defaultdict(set)
    n_reviews: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    time_ms: Counter[str] = Counter()
    recall: dict[str, list[float]] = defaultdict(list)
    mature: Counter[str] = Counter()
    for card_id, t in totals.items():
        key = card_key(card_id)
        if key is None:
            continue
        g = group(key)
        card_sets[g].add(card_id)
        n_reviews[g] += t.reviews
        passed[g] += t.passed
        time_ms[g] += t.time_ms
    for card in cards:
        key = card_key(card.card_id)
        if key is None or (card.is_new and card.last_review is None):
            continue
        g = group(key)
        card_sets[g].add(card.card_id)
        value = card_recall.get(card.card_id)
        if value is not None:
            recall[g].append(value)
        if not card.suspended and card.phase == "review" and card.scheduled_days >= MATURE_DAYS:
            mature[g] += 1
    return tuple(
        GroupSummary(
            key=g,
            cards=len(card_sets[g]),
            reviews=n_reviews[g],
            passed=passed[g],
            correct_rate=pass_rate(passed[g], n_reviews[g]),
            recall=(sum(recall[g]) / len(recall[g])) if recall[g] else None,
            mature=mature[g],
            time_ms=time_ms[g],
        )
        for g in sorted(card_sets, key=_group_order)
    )


def by_answer_lang(key: CardKey) -> str:
    """The group of a card by answer language: ``"bn"``."""
    return key.pair.answer_lang


def by_pair(key: CardKey) -> str:
    """The group of a card by language pair: ``"ru>bn"``."""
    return f"{key.pair.prompt_lang}>{key.pair.answer_lang}"


def _group_order(key: str) -> tuple[int, ...]:
    parts = key.split(">")
    return tuple(LANGUAGES.index(p) if p in LANGUAGES else len(LANGUAGES) for p in parts)


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
