"""Schema 3 → 4: card states recomputed from the log with elapsed study days.

A real store answered mornings and evenings is turned back into what a schema-3
quizzer left: `meta.schema` 3 and each card's memory state as py-fsrs computes it from
wall-clock 24-hour periods. Opening it migrates: a byte-for-byte backup, then every
studied card's state is its log replayed under the study-day rule.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import fsrs
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import SCHEMA_VERSION, doctor, open_store

START = datetime(2026, 3, 2, 20, tzinfo=UTC)
KEYS = [CardKey(f"deck/c{i}", Pair("en", "term", "fr", "term")) for i in range(4)]


def _old_rule_states(reviews, settings) -> dict[str, tuple[float | None, float | None]]:
    """What a schema-3 store kept: py-fsrs fed wall-clock times (24-hour periods)."""
    scheduler = settings.fsrs_scheduler()
    out = {}
    for key in KEYS:
        card = fsrs.Card(card_id=key.int_id)
        for r in (r for r in reviews if r.card_id == key.id):
            card, _ = scheduler.review_card(card, fsrs.Rating(r.grade), r.reviewed_at)
        out[key.id] = (card.stability, card.difficulty)
    return out


@pytest.fixture
def v3_store(tmp_path):
    db = tmp_path / "progress.json"
    with open_store(db, tz=UTC) as store:
        for day in range(8):
            for n, key in enumerate(KEYS):
                # 20:00 one day, 09:00 the next: 13 hours, one study day apart
                at = START + timedelta(days=day, hours=13 * ((day + n) % 2))
                store.record(key, (3, 3, 1, 4)[(day * n) % 4], at)
        reviews = store.reviews()
        new_rule = {key.id: store.card(key).to_dict() for key in KEYS}  # type: ignore[union-attr]
        old = _old_rule_states(reviews, store.settings)
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["meta"]["1"]["schema"] = 3
    for record in doc["cards"].values():
        record["stability"], record["difficulty"] = old[record["card_id"]]
    db.write_text(json.dumps(doc), encoding="utf-8")
    return db, new_rule, old


def test_opening_a_schema_3_store_recomputes_every_state_with_a_backup(v3_store) -> None:
    db, new_rule, old = v3_store
    original = db.read_bytes()
    differing = [
        k.id for k in KEYS if old[k.id][0] != pytest.approx(new_rule[k.id]["stability"], rel=1e-3)
    ]
    assert len(differing) == len(KEYS)  # the old rule really left other states
    found = doctor.check(db)
    assert not found.healthy and any("old schema version 3" in p for p in found.problems)
    with open_store(db, tz=UTC) as store:
        for key in KEYS:
            assert store.card(key).to_dict() == new_rule[key.id]  # type: ignore[union-attr]
    assert (db.parent / "progress.json.v3.bak").read_bytes() == original
    assert json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["schema"] == SCHEMA_VERSION
    assert doctor.check(db).healthy


def test_doctor_migrates_a_schema_3_store_the_same_way(v3_store) -> None:
    db, new_rule, _old = v3_store
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert any("migrated from schema 3" in a for a in report.actions)
    with open_store(db, read_only=True, tz=UTC) as store:
        for key in KEYS:
            state = store.card(key)
            assert state is not None
            assert state.stability == pytest.approx(new_rule[key.id]["stability"], rel=1e-9)
            assert state.due.isoformat() == new_rule[key.id]["due"]  # the date given stays
