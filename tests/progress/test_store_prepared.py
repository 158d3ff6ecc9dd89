"""A store that previews each card when it shows records the very answers of one that doesn't.

:meth:`Store.preview` keeps the card's FSRS step for each grade, and :meth:`Store.record`
takes it when it still applies. Two stores given the same answers,
one previewing every card some seconds before it is answered (sometimes across the start
of a study day, sometimes with the settings changed in between), must end with the same
card states and the same review log, and the log must replay to the states kept.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.progress.doctor_replay import compare
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.scheduler import Prepared
from quizzer.scheduling.settings import SchedulerSettings
from tests.progress.conftest import OpenDb

PAIR = Pair("ru", "term", "bn", "definition")
KEYS = [CardKey(f"demo/c{i}", PAIR) for i in range(6)]
START = datetime(2026, 3, 10, 2, 0, tzinfo=UTC)  # two hours before the study day starts


def _answers(n: int) -> list[tuple[CardKey, Grade, datetime, datetime]]:
    """``n`` answers: card, grade, moment, and when the card showed (a fifth of them the
    study day before: shown at 03:59, the day starting at 04:00)."""
    rng = random.Random(11)
    at = START
    out: list[tuple[CardKey, Grade, datetime, datetime]] = []
    grades: list[Grade] = [1, 2, 3, 3, 4]
    for _ in range(n):
        at += timedelta(seconds=rng.choice([20, 300, 3600, 5 * 3600, 26 * 3600]))
        shown = at - timedelta(seconds=rng.choice([0, 8, 600]))
        if rng.random() < 0.2:
            day = at if at.hour >= 4 else at - timedelta(days=1)
            shown = day.replace(hour=3, minute=59)
        out.append((rng.choice(KEYS), rng.choice(grades), at, shown))
    return out


def _log(store) -> list[tuple[str, dict[str, Any]]]:
    # Review ids carry a random salt: everything else must match.
    return [(r.card_id, r.to_dict() | {"id": ""}) for r in store.reviews()]


def _count_taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often a kept step was taken (``[count]``, counted as answers are recorded)."""
    taken = [0]
    step = Prepared.step

    def counted(self, *args):
        card = step(self, *args)
        taken[0] += card is not None
        return card

    monkeypatch.setattr(Prepared, "step", counted)
    return taken


def test_previewing_before_each_answer_records_the_same(
    tmp_path: Path, open_db: OpenDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, shown = tmp_path / "plain" / "p.json", tmp_path / "shown" / "p.json"
    answers = _answers(120)
    taken = _count_taken(monkeypatch)
    with open_db(plain) as a, open_db(shown) as b:
        for number, (key, grade, at, shown_at) in enumerate(answers):
            b.preview(key, shown_at)
            if number == 60:  # new settings between showing a card and answering it
                for store in (a, b):
                    store.set_settings(SchedulerSettings(desired_retention=0.85))
            a.record(key, grade, at, Answer(duration_ms=900))
            b.record(key, grade, at, Answer(duration_ms=900))
        states_a = {k.id: a.card(k) for k in KEYS}
        states_b = {k.id: b.card(k) for k in KEYS}
        assert {k: s.to_dict() for k, s in states_a.items() if s} == {
            k: s.to_dict() for k, s in states_b.items() if s
        }
        assert _log(a) == _log(b)
        replayed = compare(b.reviews(), {k: s for k, s in states_b.items() if s}, b.settings, b.tz)
        assert replayed.lines == [] and replayed.checked == len(KEYS)
    # Taken most of the time; not after a new day began or the settings changed.
    assert 60 < taken[0] < len(answers) - 5
    with open_db(shown, read_only=True) as again:  # and it is what was saved
        assert {k.id: again.card(k).to_dict() for k in KEYS} == {  # type: ignore[union-attr]
            k: s.to_dict() for k, s in states_b.items() if s
        }


def test_a_preview_of_another_card_is_not_taken(tmp_path: Path, open_db: OpenDb) -> None:
    plain, shown = tmp_path / "plain" / "p.json", tmp_path / "shown" / "p.json"
    with open_db(plain) as a, open_db(shown) as b:
        for store in (a, b):
            store.record(KEYS[0], 3, START, Answer())
            store.record(KEYS[1], 4, START, Answer())
        later = START + timedelta(minutes=15)
        b.preview(KEYS[1], later)
        a.record(KEYS[0], 3, later, Answer())
        b.record(KEYS[0], 3, later, Answer())
        assert a.card(KEYS[0]).to_dict() == b.card(KEYS[0]).to_dict()  # type: ignore[union-attr]
        assert b._prepared is not None and b._prepared[0] == KEYS[1].id


def test_undo_then_answer_again_after_a_preview_records_the_same(
    tmp_path: Path, open_db: OpenDb
) -> None:
    plain, shown = tmp_path / "plain" / "p.json", tmp_path / "shown" / "p.json"
    with open_db(plain) as a, open_db(shown) as b:
        b.preview(KEYS[2], START)
        for store in (a, b):
            store.record(KEYS[2], 3, START + timedelta(seconds=5), Answer())
            store.undo()
            store.record(KEYS[2], 1, START + timedelta(seconds=9), Answer())
        assert a.card(KEYS[2]).to_dict() == b.card(KEYS[2]).to_dict()  # type: ignore[union-attr]
        assert _log(a) == _log(b)
