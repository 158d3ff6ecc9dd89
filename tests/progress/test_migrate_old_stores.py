"""Migrating old stores on disk: what a snapshot already absorbed counts once, the
generation numbers are a compaction's, a schema-2 store whose journal is gone is named
damaged, and the careful replay in batches gives the states of one pass.

Each test
here holds one rule the other migration tests reach only through whole stores.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.errors import StoreError
from quizzer.progress import (
    SCHEMA_VERSION,
    doctor,
    journal,
    journal_path,
    migrate,
    open_store,
    reviewlog,
)
from quizzer.progress.monthfile import read_copy
from quizzer.progress.schema import schema_of
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State
from quizzer.scheduling.limits import TodayCounts
from tests.progress import store_builder
from tests.progress.store_builder import abandon
from tests.progress.test_migrate_study_days import KEYS, START, _old_rule_states

#: Four answers are given on this day, an hour apart (all within ``meta.recent``'s days).
DAY = datetime(2026, 3, 10, 9, tzinfo=UTC)
#: When the day's answers are counted.
EVENING = DAY + timedelta(hours=8)


def _answer_the_day(db: Path) -> tuple[Any, list[str], TodayCounts]:
    """Open ``db`` and answer four times on :data:`DAY`; the open store (nothing compacted
    yet), the answers' ids, and the day's counts for deck ``deck``."""
    store = open_store(db, tz=UTC)
    ids = [store.record(KEYS[n % 2], 3, DAY + timedelta(hours=n)).id for n in range(4)]
    counts = store.today("deck", EVENING)
    assert counts.new + counts.learning + counts.review == 4
    return store, ids, counts


def _schema_2_store(db: Path, scratch: Path, absorbed: int) -> tuple[list[str], TodayCounts]:
    """A schema-2 store of :func:`_answer_the_day`'s answers: its snapshot absorbed the first
    ``absorbed`` events, its journal (no header, the whole review log) holds them all."""
    store, ids, counts = _answer_the_day(scratch)
    events = [e for e in journal.read(journal_path(scratch), 0).events if e["op"] != "header"]
    store.close()
    lines = [journal.encode(e) for e in events]
    journal_path(db).write_bytes(b"".join(lines))
    st = State()
    for event in events[:absorbed]:
        st.apply(event)
    doc = st.to_document(sum(len(line) for line in lines[:absorbed]))
    del doc["meta"]["1"]["gen"]
    doc["meta"]["1"]["schema"] = 2
    AtomicJSONStorage(db).write(doc)
    return ids, counts


def _recent_ids(db: Path) -> list[str]:
    return [entry[0] for entry in json.loads(db.read_bytes())["meta"]["1"]["recent"]]


def test_answers_a_schema_2_snapshot_absorbed_count_once_after_migrating(tmp_path: Path) -> None:
    """The journal is read whole for the month files, but only its tail past the snapshot's
    offset is applied to the states: the answers absorbed (up to the offset's own line)
    are not on today's counts twice."""
    db = tmp_path / "p.json"
    ids, counts = _schema_2_store(db, tmp_path / "scratch.json", absorbed=2)
    with open_store(db, tz=UTC) as store:
        assert store.today("deck", EVENING) == counts
        assert [r.id for r in store.reviews()] == ids
    assert _recent_ids(db) == ids


def test_a_migrated_schema_2_store_has_the_generations_a_compaction_leaves(
    tmp_path: Path,
) -> None:
    """Its journal was generation 0: the snapshot is generation 1 and each month file is
    sealed by it, listed in the snapshot with its count (as ``_v2_to_v3`` promises)."""
    db = tmp_path / "p.json"
    _schema_2_store(db, tmp_path / "scratch.json", absorbed=2)
    open_store(db, tz=UTC).close()
    meta = json.loads(db.read_bytes())["meta"]["1"]
    assert (meta["schema"], meta["gen"], meta["months"]) == (SCHEMA_VERSION, 1, {"2026-03": [4, 1]})
    sealed = read_copy(reviewlog.month_path(db, "2026-03"), "2026-03")
    assert (sealed.problem, sealed.gen, len(sealed.reviews)) == (None, 1, 4)
    assert journal.header(journal_path(db)) == 1  # the new journal, of the snapshot's generation


def test_a_schema_2_store_whose_journal_is_gone_is_named_then_repaired(tmp_path: Path) -> None:
    """Every schema-2 writer made its journal (the whole review log): one gone is damage.
    Opening names the missing journal and what went with it (a clear error, no traceback)
    without migrating; the doctor migrates the snapshot as it is, keeping its card states
    and saying the log is lost."""
    db = tmp_path / "p.json"
    _schema_2_store(db, tmp_path / "scratch.json", absorbed=4)
    journal_path(db).unlink()
    with pytest.raises(StoreError) as err:
        open_store(db, tz=UTC)
    assert err.value.message.startswith("the journal is missing: this schema-2 store kept its")
    assert err.value.path == journal_path(db)
    assert not (tmp_path / "p.json.journal.v2.bak").exists()
    assert json.loads(db.read_bytes())["meta"]["1"]["schema"] == 2  # left for the doctor
    report = doctor.repair(db)
    assert report.healthy
    assert [loss.split(":")[0] for loss in report.losses] == ["p.json.journal"]
    with open_store(db, tz=UTC) as store:
        assert store.card(KEYS[0]).reps == 2  # type: ignore[union-attr]
        assert store.reviews() == []
        store.record(KEYS[0], 3, DAY + timedelta(days=1))
    assert doctor.check(db).healthy


def test_answers_a_schema_3_snapshot_absorbed_count_once_after_migrating(tmp_path: Path) -> None:
    """A schema-3 snapshot can have absorbed the start of its journal (the doctor writes one
    so, keeping the journal): the 3 → 4 step applies only the tail past its offset."""
    db = tmp_path / "p.json"
    store, ids, counts = _answer_the_day(db)
    abandon(store)  # the answers only in the journal
    scanned = list(journal.scan(journal_path(db), 0))  # the header, then the four answers
    assert [e["op"] for _, e in scanned] == ["header", "record", "record", "record", "record"]
    st = State.from_document(json.loads(db.read_bytes()))
    for _, event in scanned[:3]:
        st.apply(event)
    doc = st.to_document(scanned[2][0])  # the header and two answers absorbed
    doc["meta"]["1"]["schema"] = 3
    AtomicJSONStorage(db).write(doc)
    with open_store(db, tz=UTC) as store:
        assert json.loads(db.read_bytes())["meta"]["1"]["migrated_from"] == 3
        assert store.today("deck", EVENING) == counts
        assert [r.id for r in store.reviews()] == ids
    assert _recent_ids(db) == ids


def test_the_careful_replay_in_batches_gives_the_states_of_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An undo in the journal makes the 3 → 4 step read the log the careful way, in passes
    of ``REPLAY_BATCH`` answers: with 5, the 32 answers in the month files take 7 passes,
    and the states are those of one."""
    db = tmp_path / "progress.json"
    with open_store(db, tz=UTC) as store:  # as test_migrate_study_days's schema-3 store
        for day in range(8):
            for n, key in enumerate(KEYS):
                at = START + timedelta(days=day, hours=13 * ((day + n) % 2))
                store.record(key, (3, 3, 1, 4)[(day * n) % 4], at)
        new_rule = {key.id: store.card(key).to_dict() for key in KEYS}  # type: ignore[union-attr]
        old = _old_rule_states(store.reviews(), store.settings)
    store = open_store(db, tz=UTC)
    store.record(KEYS[0], 3, START + timedelta(days=9))
    store.undo()
    abandon(store)
    doc = json.loads(db.read_bytes())
    doc["meta"]["1"]["schema"] = 3
    assert sum(count for count, _gen in doc["meta"]["1"]["months"].values()) == 32
    for record in doc["cards"].values():
        record["stability"], record["difficulty"] = old[record["card_id"]]
    db.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(migrate, "REPLAY_BATCH", 5)  # seven passes over the log
    with open_store(db, tz=UTC) as store:
        assert {k.id: store.card(k).to_dict() for k in KEYS} == new_rule  # type: ignore[union-attr]


def test_a_copy_in_the_current_layout_is_marked_as_this_schema_and_the_given_one_unchanged() -> (
    None
):
    """``in_current_layout`` (the doctor's base from an old ``P.bak``): the copy says schema
    4, its undo stack is emptied (its entries hold old-rule states), it says where it came
    from (keeping an earlier ``migrated_from``), and the document given is left as it was."""
    undo = [{"review_id": "r1", "card_id": KEYS[0].id, "before": None}]
    meta = {"schema": 3, "gen": 2, "journal_offset": 0, "seq": 5, "undo": undo}
    doc: dict[str, Any] = {"meta": {"1": meta}, "settings": {"1": {}}, "cards": {}}
    given = json.dumps(doc)
    new = migrate.in_current_layout(doc, 3)
    assert new["meta"] == {"1": {**meta, "schema": SCHEMA_VERSION, "undo": [], "migrated_from": 3}}
    assert (new["settings"], new["cards"]) == (doc["settings"], doc["cards"])
    assert json.dumps(doc) == given
    meta["migrated_from"] = 2
    assert migrate.in_current_layout(doc, 3)["meta"]["1"]["migrated_from"] == 2
    with pytest.raises(ValueError) as err:
        migrate.in_current_layout(doc, 2)
    assert str(err.value) == "schema 2 keeps the review log elsewhere"


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        ("gen", "x", '"x"'),
        ("journal_offset", -1, "-1"),
        ("seq", True, "true"),
        ("gen", "y" * 50, '"' + "y" * 38 + "…"),
    ],
)
def test_an_old_schemas_bad_meta_number_is_named_exactly(
    name: str, value: object, shown: str
) -> None:
    """The message of ``schema_of`` for a meta number no version wrote (the value cut at
    40 characters); a missing one is fine (every version wrote 0 or more)."""
    meta = {"schema": 3, name: value}
    with pytest.raises(ValueError) as err:
        schema_of({"meta": {"1": meta}})
    assert str(err.value) == f"meta.{name} is not a whole number of 0 or more: {shown}"
    assert schema_of({"meta": {"1": {"schema": 3}}}) == 3


def test_a_schema_3_snapshot_with_a_bad_table_is_named_by_the_doctors_check(tmp_path: Path) -> None:
    """An old schema of the current layout is checked as this one is (``doctor_findings``):
    the problem named exactly, not "repairing migrates it"."""
    db = tmp_path / "p.json"
    store_builder.build(db, july=2, august=3, pending=3)
    doc = json.loads(db.read_bytes())
    doc["meta"]["1"]["schema"] = 3
    db.unlink()  # P.bak may share the snapshot's inode
    db.write_text(json.dumps({**doc, "cards": {"1": 5}}), encoding="utf-8")
    assert doctor.check(db).problems == [
        f'{db}: progress store is damaged (unexpected content: card record "1" has no card id)'
    ]
