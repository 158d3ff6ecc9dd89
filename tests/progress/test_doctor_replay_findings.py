"""What the doctor reports of card states against their review log, and what it rebuilds."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.progress.doctor import rebuild_states as rebuild
from quizzer.progress.doctor import replay_findings as findings
from quizzer.progress.doctor_findings import Report
from quizzer.progress.doctor_replay import compare
from quizzer.progress.files import journal_path
from quizzer.scheduling.answer import review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

START = datetime(2026, 3, 2, 8, tzinfo=UTC)
KEYS = [CardKey(f"deck/c{i:02d}", Pair("en", "term", "fr", "term")) for i in range(22)]


def test_more_differing_cards_than_are_listed_end_with_a_count(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        for n, key in enumerate(KEYS):
            store.record(key, 3, START + timedelta(minutes=n))
    doc = json.loads(db.read_text(encoding="utf-8"))
    for record in doc["cards"].values():
        record["lapses"] = 5  # none of them ever lapsed
        record["reps"] = 0  # each was answered once
    db.write_text(json.dumps(doc), encoding="utf-8")
    found = findings(db)
    assert found[0] == (
        "22 of 22 card states differ from what their review log gives "
        "(`quizzer doctor` rebuilds them from the log)"
    )
    assert found[1:21] == [
        f"  {key.id}: phase is new, its log gives learning; reps is 0, its log gives 1; "
        "lapses is 5, its log gives 0"
        for key in KEYS[:20]
    ]
    assert found[21:] == ["  … and 2 more"]


def test_a_logged_card_id_that_is_no_card_key_is_set_aside_unreplayed() -> None:
    at = START
    odd = Review(review_id("Not a card key", at), "Not a card key", at, 3, "flip", 800)
    good = Review(review_id(KEYS[0].id, at), KEYS[0].id, at, 3, "flip", 800)
    cmp = compare([odd, good], {}, SchedulerSettings(), UTC)
    assert cmp.unreadable == ["Not a card key"]
    assert cmp.checked == 1
    assert cmp.lines == [f"{KEYS[0].id}: no state kept for it"]


def test_kept_cards_the_log_lacks_are_unlogged_unless_never_answered(tmp_path: Path) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        once = store.record(KEYS[1], 3, START)
        answered = store.card(KEYS[1])
    assert answered is not None and answered.reps == 1
    new = CardState.new(KEYS[0], START)
    kept = {new.card_id: new, answered.card_id: answered}
    cmp = compare([], kept, SchedulerSettings(), UTC)  # the one answer lost with its month
    assert cmp.unlogged == [once.card_id]
    assert cmp.checked == 0 and cmp.lines == []


def _damaged_journal(db: Path) -> None:
    store = open_store(db, tz=UTC)
    for n, key in enumerate(KEYS[:3]):
        store.record(key, 3, START + timedelta(minutes=n))
    store._release()  # left like a kill: the answers only in the journal
    store._closed = True
    jfile = journal_path(db)
    data = bytearray(jfile.read_bytes())
    data[data.index(b"\n") + 20] ^= 0x01  # inside the first answer's line
    jfile.write_bytes(bytes(data))


def test_a_store_that_cannot_be_read_is_reported_not_replayed(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    _damaged_journal(db)
    assert findings(db) == ["can't replay the review log: the journal is damaged at line 2"]
    report = Report(db)
    rebuild(report)
    assert report.problems == [
        "can't rebuild card states from the review log: the journal is damaged at line 2"
    ]
    assert report.actions == []


def test_a_few_differing_cards_are_all_listed_without_a_count(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        for n, key in enumerate(KEYS[:2]):
            store.record(key, 3, START + timedelta(minutes=n))
    doc = json.loads(db.read_text(encoding="utf-8"))
    (record,) = [r for r in doc["cards"].values() if r["card_id"] == KEYS[0].id]
    record["lapses"] = 5
    db.write_text(json.dumps(doc), encoding="utf-8")
    assert findings(db) == [
        "1 of 2 card states differ from what their review log gives "
        "(`quizzer doctor` rebuilds them from the log)",
        f"  {KEYS[0].id}: lapses is 5, its log gives 0",
    ]
