"""Mastery: what the learner can recall now, by concept and answer language.

The mean FSRS retrievability of the cards answered in each language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, tzinfo

from quizzer.concepts.languages import sorted_languages
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.scheduler import elapsed_study_days
from quizzer.scheduling.studyday import DEFAULT_DAY_START_HOUR
from quizzer.stats.cardfacts import mean, recalls, retrievability
from quizzer.stats.definitions import card_key
from quizzer.stats.figures import MasteryCell, MasteryRow


def card_retrievability(
    card: CardState,
    now: datetime,
    parameters: Sequence[float] | None = None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
) -> float | None:
    """A card's retrievability at ``now``; ``None`` for a card never reviewed.

    Elapsed time counts study days in ``tz`` (``None``: the system's zone) from
    ``day_start_hour``, the scheduler's rule (:func:`elapsed_study_days`).
    """
    if card.stability is None or card.last_review is None:
        return None
    elapsed = elapsed_study_days(card.last_review, now, tz, day_start_hour)
    return retrievability(card.stability, elapsed, parameters)


def mastery(
    cards: Iterable[CardState],
    now: datetime,
    concept_uids: Sequence[str] = (),
    parameters: Sequence[float] | None = None,
    *,
    tz: tzinfo | None,
    day_start_hour: int = DEFAULT_DAY_START_HOUR,
    card_recall: Mapping[str, float] | None = None,
) -> tuple[tuple[str, ...], tuple[MasteryRow, ...]]:
    """Concept × answer-language table of mean retrievability now (study days in ``tz``).

    ``card_recall`` is :func:`recalls` of ``cards`` when already counted.
    Rows follow ``concept_uids`` (concepts never studied get empty rows), then any
    other concept seen in ``cards`` in sorted order. Returns (languages, rows),
    the languages being those with at least one studied card, sorted by tag.
    """
    cards = list(cards)
    if card_recall is None:
        card_recall = recalls(cards, now, parameters, tz=tz, day_start_hour=day_start_hour)
    return mastery_of(card_recall, concept_uids)


def mastery_of(
    card_recall: Mapping[str, float], concept_uids: Sequence[str] = ()
) -> tuple[tuple[str, ...], tuple[MasteryRow, ...]]:
    """:func:`mastery` from each answered card's recall now, by card id."""
    sums: dict[str, dict[str, list[float]]] = {}
    for card_id, r in card_recall.items():
        key = card_key(card_id)
        if key is None:
            continue
        row = sums.get(key.concept_uid)
        if row is None:
            row = sums[key.concept_uid] = {}
        lang = key.pair.answer_lang
        vals = row.get(lang)
        if vals is None:
            row[lang] = [r]
        else:
            vals.append(r)
    used = {lang for row in sums.values() for lang in row}
    langs = sorted_languages(used)
    order = list(dict.fromkeys(concept_uids))
    order += sorted(set(sums) - set(order))
    empty: dict[str, list[float]] = {}
    rows = []
    for uid in order:
        row = sums.get(uid, empty)
        cells = {lang: MasteryCell(mean(v), len(v)) for lang in langs if (v := row.get(lang))}
        rows.append(MasteryRow(uid, cells))
    return langs, tuple(rows)
