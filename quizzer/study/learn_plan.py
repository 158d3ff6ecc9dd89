"""Learn mode's plan: which new concepts to learn, split into rounds of about :data:`ROUND_SIZE`.

Only never-studied cards are learn mode's business: the due queue's ``new`` (its
daily limit already applied). Each round is then played by a
:class:`~quizzer.study.learn.LearnRound`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence

from quizzer.cards.card import CardKey
from quizzer.concepts.concept import Concept
from quizzer.scheduling.queue import DueQueue

#: Concepts per round, about.
ROUND_SIZE = 7


def plan_rounds(
    concepts: Sequence[Concept], size: int = ROUND_SIZE
) -> tuple[tuple[Concept, ...], ...]:
    """Split ``concepts`` (in order) into rounds of about ``size``, sizes differing by at most one.

    16 concepts with size 7 give rounds of 6, 5 and 5 rather than 7, 7 and 2.
    """
    if size < 1:
        raise ValueError("round size must be at least 1")
    items = list(concepts)
    if not items:
        return ()
    count = math.ceil(len(items) / size)
    base, extra = divmod(len(items), count)
    rounds: list[tuple[Concept, ...]] = []
    start = 0
    for index in range(count):
        end = start + base + (1 if index < extra else 0)
        rounds.append(tuple(items[start:end]))
        start = end
    return tuple(rounds)


def new_concepts(
    new_cards: Iterable[CardKey], concepts: Iterable[Concept], skip: Collection[str] = ()
) -> tuple[Concept, ...]:
    """The concepts to learn: those of ``new_cards``, in that order, each once.

    ``new_cards`` is a due queue's ``new`` (:attr:`DueQueue.new`: never-studied
    cards, today's new-card limit already applied); cards due for review or in
    learning are not learn mode's business. ``skip`` holds card ids to leave out
    (cards buried during this run). Cards of concepts not in ``concepts`` are
    ignored.
    """
    by_uid = {c.uid: c for c in concepts}
    out: list[Concept] = []
    seen: set[str] = set()
    for card in new_cards:
        concept = by_uid.get(card.concept_uid)
        if concept is None or card.id in skip or concept.uid in seen:
            continue
        seen.add(concept.uid)
        out.append(concept)
    return tuple(out)


def learn_rounds(
    queue: DueQueue,
    concepts: Iterable[Concept],
    size: int = ROUND_SIZE,
    skip: Collection[str] = (),
) -> tuple[tuple[Concept, ...], ...]:
    """Rounds of about ``size`` over the *new* concepts of ``queue`` (see :func:`new_concepts`).

    ``queue`` is what the store or :meth:`FsrsScheduler.due_queue
    <quizzer.study.session_scheduler.FsrsScheduler.due_queue>` says is due now for the deck
    and pair; due reviews stay for flip, choice and typed modes.
    """
    return plan_rounds(new_concepts(queue.new, concepts, skip), size)
