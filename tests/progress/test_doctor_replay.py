"""`quizzer doctor` checks card states against their review log and rebuilds them.

Real stores on disk; the snapshot file is edited by hand the way a bug or an old rule
would have left it, and the doctor must tell and undo exactly that.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import doctor, open_store
from quizzer.progress.doctor_replay import compare
from quizzer.scheduling.answer import Answer

START = datetime(2026, 3, 2, 8, tzinfo=UTC)
KEYS = [CardKey(f"deck/c{i}", Pair("en", "term", "fr", "term")) for i in range(3)]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "progress.json"
    with open_store(path, tz=UTC) as store:
        for day in range(6):
            for n, key in enumerate(KEYS):
                grade = (3, 1, 4)[(day + n) % 3]
                store.record(key, grade, START + timedelta(days=day, hours=13 * (n % 2)))  # type: ignore[arg-type]
        store.set_suspended(KEYS[2], True, START + timedelta(days=7))
    return path


def _edit_card(path, key: CardKey, **changes) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    (record,) = [r for r in doc["cards"].values() if r["card_id"] == key.id]
    record.update(changes)
    path.write_text(json.dumps(doc), encoding="utf-8")


def _state(path, key: CardKey):
    with open_store(path, read_only=True, tz=UTC) as store:
        return store.card(key)


def test_a_store_answered_normally_agrees_with_its_log(db, capsys) -> None:
    assert doctor.check(db).healthy
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    assert ": ok (3 cards" in capsys.readouterr().out


def test_check_reports_a_state_its_log_does_not_give_and_doctor_rebuilds_it(db, capsys) -> None:
    good = _state(db, KEYS[0])
    assert good is not None and good.stability is not None
    _edit_card(db, KEYS[0], stability=good.stability * 3, lapses=good.lapses + 2)
    _edit_card(db, KEYS[2], difficulty=1.5)
    assert main(["doctor", "--check", "--db", str(db)]) == 3
    out = capsys.readouterr().out
    assert "2 of 3 card states differ from what their review log gives" in out
    assert f"{KEYS[0].id}: lapses is {good.lapses + 2}, its log gives {good.lapses}" in out
    assert f"{KEYS[0].id}" in out and "stability is" in out
    assert _state(db, KEYS[0]).stability == pytest.approx(good.stability * 3)

    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "repaired: rebuilt 2 of 3 card states from their review log" in out
    fixed = _state(db, KEYS[0])
    assert fixed is not None
    assert fixed.to_dict() == good.to_dict()
    suspended = _state(db, KEYS[2])
    assert suspended is not None and suspended.suspended  # carried over, not replayed away
    assert suspended.difficulty != 1.5
    assert main(["doctor", "--check", "--db", str(db)]) == 0


def test_a_card_with_answers_missing_from_the_log_is_left_alone(db) -> None:
    with open_store(db, read_only=True, tz=UTC) as store:
        reviews = store.reviews()
        kept = {c.card_id: c for c in store.cards()}
        settings = store.settings
    lost = next(r for r in reviews if r.card_id == KEYS[1].id)  # gone with a damaged month
    mine = [r for r in reviews if r is not lost]
    assert len(mine) == len(reviews) - 1
    cmp = compare(mine, kept, settings, UTC)
    assert cmp.unlogged == [KEYS[1].id]
    assert cmp.lines == [] and cmp.checked == 2


def test_a_card_only_the_log_knows_gets_its_state(db) -> None:
    with open_store(db, read_only=True, tz=UTC) as store:
        reviews = store.reviews()
        kept = {c.card_id: c for c in store.cards() if c.card_id != KEYS[1].id}
        settings = store.settings
    cmp = compare(reviews, kept, settings, UTC)
    assert [s.card_id for s in cmp.fixed] == [KEYS[1].id]
    assert cmp.lines == [f"{KEYS[1].id}: no state kept for it"]
    assert cmp.fixed[0].reps == sum(r.card_id == KEYS[1].id for r in reviews)


def test_answers_after_a_rebuild_go_on_from_the_rebuilt_state(db) -> None:
    _edit_card(db, KEYS[1], stability=99.0)
    report = doctor.repair(db)
    assert report.healthy and any("rebuilt 1 of 3" in a for a in report.actions)
    with open_store(db, tz=UTC) as store:
        store.record(KEYS[1], 3, START + timedelta(days=9), Answer())
    assert doctor.check(db).healthy


def test_new_parameters_recompute_every_state_from_the_log(db) -> None:
    before = _state(db, KEYS[0])
    assert before is not None
    with open_store(db, tz=UTC) as store:
        w = list(store.settings.parameters)
        w[2] *= 1.5  # what `quizzer optimize` might adopt
        store.set_settings(replace(store.settings, parameters=tuple(w)))
        assert store.card(KEYS[0]).stability != pytest.approx(before.stability)  # type: ignore[union-attr]
        store.set_settings(replace(store.settings, new_per_day=5))  # nothing to recompute
    assert doctor.check(db).healthy
    after = _state(db, KEYS[0])
    assert after is not None and after.due == before.due and after.reps == before.reps
