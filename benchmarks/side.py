"""What runs inside one checkout's own process: its fixtures built and its answers timed.

``run.py`` starts this file with the checkout's root first on ``PYTHONPATH``, so every
``quizzer`` import below is that checkout's. It touches only quizzer's public entry points
(``quizzer.progress.open_store`` and the store's public methods, the records' ``from_dict``),
so a checkout whose internals moved still runs it.

    side.py store PATH CARDS ANSWERS_PER_CARD   a store of the bench deck's cards, compacted
    side.py answer PATH                         record one answer (before a stats run)
    side.py record PATH                         answer cards read from stdin, timing each
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

#: The five languages of the bench deck, and its 25 directions (term → definition).
LANGUAGES = ("en", "bn", "ar", "ru", "fr")
DIRECTIONS = [f"{a}:term>{b}:definition" for a in LANGUAGES for b in LANGUAGES]
#: The moment every fixture's history ends: a week before the run, so all cards are due.
END = datetime.now(UTC).replace(microsecond=0) - timedelta(days=7)


def card_id(index: int) -> str:
    """The ``index``-th card of the bench deck: concept ``index // 25`` in one direction."""
    return f"bench/concept-{index // len(DIRECTIONS)}|{DIRECTIONS[index % len(DIRECTIONS)]}"


#: One answer of the generated history: (when, card, its number on the card, grade, interval
#: before, interval after), in days for the intervals.
Answer = tuple[float, int, int, int, float, float]
_MODES = ("flip", "choice", "typed", "learn")


def history(cards: int, per_card: int) -> tuple[list[Answer], list[dict[str, Any]]]:
    """``per_card`` answers for each of ``cards`` cards over the two years before :data:`END`
    (12% Again, intervals doubling on a pass up to 60 days), oldest first, and the review
    state each card is left in, due by :data:`END`. Deterministic. The answers are small
    tuples (:data:`Answer`): a million of them fit in a few hundred MB."""
    rng = random.Random(12)
    answers: list[Answer] = []
    states: list[dict[str, Any]] = []
    end = END.timestamp()
    start = end - 730 * 86400
    for i in range(cards):
        moment = start + rng.randrange(0, 86400 * 60)
        step = (end - 86400 - moment) / per_card
        interval, lapses, first = 0.0, 0, moment
        for j in range(per_card):
            grade = rng.choices((1, 2, 3, 4), (0.12, 0.1, 0.68, 0.1))[0]
            after = 0.0 if grade == 1 else min(max(1.0, interval * 2.0), 60.0)
            lapses += grade == 1 and interval >= 1
            answers.append((moment, i, j, grade, interval, after))
            interval, last = after, moment
            moment += step * rng.uniform(0.6, 1.0)
        states.append(
            {
                "card_id": card_id(i),
                "state": 2,
                "step": None,
                "stability": max(interval, 0.5),
                "difficulty": 5.0,
                "due": END.isoformat(),
                "last_review": datetime.fromtimestamp(last, UTC).isoformat(),
                "reps": per_card,
                "lapses": lapses,
                "first_review": datetime.fromtimestamp(first, UTC).isoformat(),
            }
        )
    answers.sort()
    return answers, states


def review(answer: Answer) -> dict[str, Any]:
    """The review record of one generated answer, as the store writes it."""
    moment, i, j, grade, interval, after = answer
    at = datetime.fromtimestamp(moment, UTC)
    return {
        "id": f"b{i:06d}-{j:02d}",
        "card_id": card_id(i),
        "reviewed_at": at.isoformat(),
        "grade": grade,
        "mode": _MODES[(i + j) % len(_MODES)],
        "duration_ms": 1000 + (i * 7919 + j * 104729) % 11000,
        "phase": "new" if j == 0 else ("review" if interval >= 1 else "learning"),
        "last_interval_days": interval,
        "interval_days": max(after, 1.0),
        "due": (at + timedelta(days=max(after, 1.0))).isoformat(),
        "stability": max(after, 0.5),
        "difficulty": 5.0,
    }


def build_store(path: Path, cards: int, per_card: int) -> None:
    """A store of ``cards`` cards with ``per_card`` answers each, added through the store's
    bulk path (``merge_batch``, what ``quizzer merge`` uses), then opened and closed once, so
    it is compacted and indexed as a learner's store is after a session. The answers go in
    batches of 250,000 in time order (each batch touches a few months of the log), the
    cards' states with the last, to keep the builder's memory small."""
    from quizzer.progress import open_store
    from quizzer.scheduling.card_state import CardState
    from quizzer.scheduling.review import Review

    answers, states = history(cards, per_card)
    batch = 250_000
    with open_store(path, tz=UTC) as store:
        for first in range(0, len(answers), batch):
            last = first + batch >= len(answers)
            store.merge_batch(
                [Review.from_dict(review(a)) for a in answers[first : first + batch]],
                [CardState.from_dict(s) for s in states] if last else [],
            )
    with open_store(path, tz=UTC):
        pass


def answer_one(path: Path) -> None:
    """Record one answer now and close the store, as a study session ends."""
    from quizzer.progress import open_store

    with open_store(path) as store:
        store.record(card_id(random.randrange(1000)), 3, datetime.now(UTC))


def record_loop(path: Path) -> None:
    """Answer the cards named on stdin (``index grade``), one line each: the card is shown
    first (``preview``, untimed, as the study screen asks it for the grade buttons), then
    ``record`` is timed, from the key to the durable answer. Prints each answer's seconds."""
    from quizzer.progress import open_store

    store = open_store(path, tz=UTC, rng=random.Random(3))
    now = datetime.now(UTC)
    print("ready", flush=True)
    for line in sys.stdin:
        index, grade = (int(word) for word in line.split())
        now += timedelta(seconds=7)
        store.preview(card_id(index), now - timedelta(seconds=4))
        start = time.perf_counter()
        store.record(card_id(index), grade, now)  # type: ignore[arg-type]
        print(time.perf_counter() - start, flush=True)
    store.close()


def main(argv: list[str]) -> None:
    """Dispatch one of the commands in this module's docstring."""
    command, path = argv[0], Path(argv[1])
    if command == "store":
        build_store(path, int(argv[2]), int(argv[3]))
    elif command == "answer":
        answer_one(path)
    elif command == "record":
        record_loop(path)
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
