"""A synthetic learner for statistics and optimizer tests (deterministic for a given seed).

Cards are scheduled by the real FSRS scheduler (``fsrs.Scheduler``, default
parameters, no fuzz), as the app schedules them. Whether the learner recalls a
card is drawn from a *different* memory model: FSRS with :data:`LEARNER_PARAMS`
(a learner who forgets faster at first than the defaults assume). So fitting
parameters to this history has something real to find.

Answers happen at random local times within the study day that starts at 4 AM,
including after midnight (00:00-03:59 belongs to the previous study day).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

import fsrs
import fsrs_rs_python

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review

TZ = ZoneInfo("Asia/Dhaka")  # UTC+6 all year: local 04:00 is 22:00 UTC the day before
DAY_START = 4
DECK_ID = "synth"
CONCEPTS = tuple(f"c{i:02d}" for i in range(12))
PAIRS = (
    Pair("en", "term", "bn", "term"),
    Pair("ru", "term", "bn", "definition"),
    Pair("ar", "definition", "en", "term"),
    Pair("fr", "term", "ru", "term"),
    Pair("bn", "term", "ar", "term"),
)
LEARNER_PARAMS = list(fsrs_rs_python.DEFAULT_PARAMETERS)
LEARNER_PARAMS[0:4] = [0.1, 0.4, 0.9, 3.0]  # initial stabilities well below the defaults
LEARNER_PARAMS[8] = 1.2  # stability grows more slowly after a success
LEARNER_PARAMS[20] = 0.4  # a steeper forgetting curve
GRADES = ("again", "hard", "good", "easy")


def make_deck(deck_id: str = DECK_ID, concepts: tuple[str, ...] = CONCEPTS) -> Deck:
    """A small deck with every language, texts containing markup-like characters."""
    prov = Provenance("authored")
    built = []
    for cid in concepts:
        entries = {
            lang: Entry(Text(f"{cid} [b]{lang}[/b] term", prov), Text(f"{cid} {lang} def", prov))
            for lang in ("en", "bn", "ar", "ru", "fr")
        }
        built.append(Concept(id=cid, deck=deck_id, entries=entries))
    return Deck(id=deck_id, name="Synthetic", concepts=tuple(built))


@dataclass
class History:
    """The generated log, the final card states and the clock it ends at."""

    reviews: list[Review]
    cards: list[CardState]
    fsrs_cards: dict[str, fsrs.Card]
    now: datetime
    tz: tzinfo = TZ


def _moment(day: date, rng: random.Random) -> datetime:
    """A random instant in study ``day``: 04:30 to 03:30 the next morning, local time."""
    start = datetime.combine(day, time(DAY_START), tzinfo=TZ) + timedelta(minutes=30)
    return (start + timedelta(minutes=rng.randrange(0, 23 * 60))).astimezone(UTC)


def _day(moment: datetime) -> date:
    return (moment.astimezone(TZ) - timedelta(hours=DAY_START)).date()


def make_history(
    seed: int,
    n_cards: int = 40,
    days: int = 90,
    end: date = date(2026, 3, 31),
    suspend: int = 2,
) -> History:
    """Simulate ``n_cards`` cards studied over ``days`` study days ending at study day ``end``.

    ``now`` is 12:00 local on ``end``; answers after ``now`` are not made.
    """
    rng = random.Random(seed)
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    truth = fsrs_rs_python.FSRS(LEARNER_PARAMS)
    now = datetime.combine(end, time(12), tzinfo=TZ).astimezone(UTC)
    first_day = end - timedelta(days=days - 1)
    keys = [CardKey(f"{DECK_ID}/{c}", p) for c in CONCEPTS for p in PAIRS][:n_cards]
    reviews: list[Review] = []
    snapshots: list[CardState] = []
    fsrs_cards: dict[str, fsrs.Card] = {}
    for index, key in enumerate(keys):
        card = fsrs.Card(card_id=key.int_id)
        intro = first_day + timedelta(days=rng.randrange(0, max(1, days * 2 // 3)))
        moment = _moment(intro, rng)
        true_state = None
        last_day: date | None = None
        lapses = 0
        n = 0
        while moment <= now:
            delta = 0 if last_day is None else (_day(moment) - last_day).days
            if true_state is None:
                grade = rng.choices((1, 2, 3, 4), (0.25, 0.15, 0.5, 0.1))[0]
            else:
                if delta == 0:
                    p = 0.8
                else:
                    factor = 0.9 ** (1 / -LEARNER_PARAMS[20]) - 1
                    p = (1 + factor * delta / true_state.stability) ** -LEARNER_PARAMS[20]
                grade = 1 if rng.random() > p else rng.choices((2, 3, 4), (0.1, 0.8, 0.1))[0]
            true_state = getattr(
                truth.next_states(true_state, 0.9, delta), GRADES[grade - 1]
            ).memory
            phase = (
                "new"
                if n == 0
                else {
                    fsrs.State.Learning: "learning",
                    fsrs.State.Review: "review",
                    fsrs.State.Relearning: "relearning",
                }[card.state]
            )
            last_interval = (
                (card.due - card.last_review).total_seconds() / 86400
                if phase == "review" and card.last_review
                else 0.0
            )
            if phase == "review" and grade == 1:
                lapses += 1
            card, _log = scheduler.review_card(card, fsrs.Rating(grade), moment)
            mode = rng.choice(("flip", "choice", "typed"))
            reviews.append(
                Review(
                    id=f"r{index:03d}-{n:03d}",
                    card_id=key.id,
                    reviewed_at=moment,
                    grade=grade,  # type: ignore[arg-type]
                    mode=mode,  # type: ignore[arg-type]
                    duration_ms=rng.randrange(1500, 20000),
                    phase=phase,  # type: ignore[arg-type]
                    last_interval_days=round(last_interval, 4),
                    interval_days=round((card.due - moment).total_seconds() / 86400, 4),
                    due=card.due,
                    stability=card.stability,
                    difficulty=card.difficulty,
                    typed="ответ" if mode == "typed" else None,
                    correct=grade > 1 if mode != "flip" else None,
                )
            )
            n += 1
            last_day = _day(moment)
            if card.state == fsrs.State.Review:
                moment = max(_moment(_day(card.due), rng), card.due)
            else:
                moment = card.due + timedelta(minutes=rng.randrange(0, 5))
        if n == 0:  # introduced after ``now``: still new
            snapshots.append(CardState.studied(key.id, "new", now))
            continue
        snapshots.append(
            CardState(
                card_id=key.id,
                card=card,
                reps=n,
                lapses=lapses,
                suspended=index < suspend,
                leech=lapses >= 3,
            )
        )
        fsrs_cards[key.id] = card
    reviews.sort(key=lambda r: r.reviewed_at)
    return History(reviews, snapshots, fsrs_cards, now)
