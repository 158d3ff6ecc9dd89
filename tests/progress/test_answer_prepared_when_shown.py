"""An answer recorded after its card was shown (``Store.preview``, as the study screen asks
for the grade buttons) is the scheduler's answer, fuzz seeded by the answer's id, as every
other device replays it: the FSRS steps and the fuzz generator the preview prepared are
taken only when they are exactly what the answer would compute (same card, settings, zone
and study day), whatever the time between (seconds, hours, past the study day's start)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import fsrs
import pytest

from quizzer.cards.card import CardKey
from quizzer.progress import open_store
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.scheduler import answer

PARIS = ZoneInfo("Europe/Paris")
#: 03:59:50 in Paris: ten seconds before the study day starts (at 4).
T0 = datetime(2026, 3, 10, 3, 59, 50, tzinfo=PARIS)
CARDS = [CardKey.parse(f"demo/c{i}|en:term>fr:definition") for i in range(3)]
DAY = 86_400
#: (card, grade, when it is shown: seconds after T0, seconds from then to the answer)
ANSWERS: list[tuple[int, Grade, int, int]] = [
    (0, 3, 0, 2),
    (0, 3, 6, 6),  # shown at 03:59:56, answered at 04:00:02: a study day later
    (1, 1, 30, 30),
    (0, 3, 3 * DAY - 5, 20),  # in review now: shown before 4, answered after
    (0, 4, 12 * DAY, 3),
    (1, 3, 12 * DAY + 60, 2),
    (0, 1, 40 * DAY, 4),  # a lapse: relearning, no fuzz
    (0, 3, 40 * DAY + 900, 8),
    (2, 2, 41 * DAY, 1),
    (0, 3, 45 * DAY + 50_000, 7200),  # shown in the evening, answered two hours later
    (0, 3, 60 * DAY, 4),  # another card buried between its preview and its answer
]


def test_answers_after_their_preview_are_the_schedulers_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(tmp_path / "p", tz=PARIS, now=T0) as store:
        for card, grade, after, thinking in ANSWERS:
            key, shown = CARDS[card], T0 + timedelta(seconds=after)
            before = store.card(key) or CardState.new(key, shown)
            store.preview(key, shown)
            if after == 60 * DAY:  # the event the preview expected to come next is the bury
                store.bury(CARDS[1], shown)
            now = shown + timedelta(seconds=thinking)
            review = store.record(key, grade, now)
            fuzz = random.Random(review.id)
            want = answer(before, grade, now, store.settings, fuzz, tz=PARIS).state
            got = store.card(key)
            assert got is not None and got.to_dict() == want.to_dict()
            assert review.due == want.due and review.stability == want.stability
        states = {key.id: store.card(key).to_dict() for key in CARDS}  # type: ignore[union-attr]
    # Another machine (its own identity, no cache) replays the log from nothing: the same.
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path / "other-cache"))
    monkeypatch.setenv("QUIZZER_STATE", str(tmp_path / "other-state"))
    with open_store(tmp_path / "p", tz=PARIS, read_only=True) as other:
        assert {key.id: other.card(key).to_dict() for key in CARDS} == states  # type: ignore[union-attr]


def test_an_answer_after_its_preview_does_not_step_fsrs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[fsrs.Rating] = []
    real = fsrs.Scheduler.review_card

    def counted(
        self: fsrs.Scheduler, card: fsrs.Card, rating: fsrs.Rating, at: datetime | None = None
    ) -> tuple[fsrs.Card, fsrs.ReviewLog]:
        steps.append(rating)
        return real(self, card, rating, at)

    monkeypatch.setattr(fsrs.Scheduler, "review_card", counted)
    key, later = CARDS[0], T0 + timedelta(hours=2)
    with open_store(tmp_path / "p", tz=PARIS, now=T0) as store:
        store.record(key, 3, T0)
        store.preview(key, later)
        assert len(steps) == 5  # the answer, then the four grades shown
        store.record(key, 3, later + timedelta(seconds=6))
        assert len(steps) == 5  # the step shown for Good, moved six seconds on
        store.preview(key, later + timedelta(minutes=1))
        store.record(key, 3, later + timedelta(days=1))  # a study day later: stepped again
        assert len(steps) == 10
