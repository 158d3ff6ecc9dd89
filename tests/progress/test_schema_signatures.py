"""The schema of a snapshot is recognised by each version's own signature, and nothing else
passes for an old store to migrate.

Each test
here holds one rule the store tests reach only through whole stores.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from quizzer.errors import StoreError
from quizzer.progress import (
    SCHEMA_VERSION,
    doctor,
    files,
    journal,
    journal_path,
    logstream,
    open_store,
)
from quizzer.progress.history import read_log
from quizzer.progress.journal_events import has_review
from quizzer.progress.schema import schema_of
from quizzer.scheduling.replay import replay
from quizzer.scheduling.review import Review
from tests.progress.test_migrate_study_days import KEYS, v3_store  # noqa: F401 - a fixture
from tests.progress.test_store_log import _v2_store

CARD = {"card_id": "demo/c0|ru:term>bn:definition", "reps": 1}
REVIEW = {"id": "r1", "reviewed_at": "2026-03-10T12:00:00+00:00", "grade": 3}

SCHEMA_1 = {
    "every table of schema 1": {
        "cards": {"1": CARD},
        "reviews": {"1": REVIEW},
        "settings": {"1": {}},
        "_default": {},
    },
    "cards alone": {"cards": {"1": CARD}},
    "reviews alone": {"reviews": {"1": REVIEW}},
    "cards and settings": {"cards": {"1": CARD}, "settings": {"1": {}}},
    "cards and TinyDB's empty default table": {"cards": {"1": CARD}, "_default": {}},
}


@pytest.mark.parametrize("doc", SCHEMA_1.values(), ids=SCHEMA_1.keys())
def test_a_document_of_schema_1_tables_only_is_schema_1(doc: dict[str, Any]) -> None:
    assert schema_of(doc) == 1


NOT_SCHEMA_1 = {
    "other JSON": {"hello": [1, 2, 3]},
    "settings alone": {"settings": {"1": {}}},
    "a foreign table beside cards": {"cards": {"1": CARD}, "hello": {}},
    "a card without its id": {"cards": {"1": {"reps": 1}}},
    "a card whose id is no text": {"cards": {"1": {"card_id": 7}}},
    "an answer without its id": {"reviews": {"1": {"reviewed_at": REVIEW["reviewed_at"]}}},
    "an answer without its time": {"reviews": {"1": {"id": "r1"}}},
    "good cards, an answer without its time": {
        "cards": {"1": CARD},
        "reviews": {"1": {"id": "r1"}},
    },
    "good answers, a card without its id": {
        "cards": {"1": {"reps": 1}},
        "reviews": {"1": REVIEW},
    },
    "a table that is a list": {"reviews": [1, 2, 3], "cards": {}},
    "a record that is a number": {"cards": {"1": 5}},
}


@pytest.mark.parametrize("doc", NOT_SCHEMA_1.values(), ids=NOT_SCHEMA_1.keys())
def test_anything_else_without_meta_is_no_layout_quizzer_wrote(doc: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as err:
        schema_of(doc)
    assert str(err.value) == f"not a layout any quizzer wrote (tables {json.dumps(sorted(doc))})"


def test_the_tables_named_in_the_message_are_cut_at_60_characters() -> None:
    doc: dict[str, Any] = {f"table-{n:02d}": {} for n in range(12)}
    with pytest.raises(ValueError) as err:
        schema_of(doc)
    tables = json.dumps(sorted(doc))
    assert len(tables) > 60
    assert str(err.value) == f"not a layout any quizzer wrote (tables {tables[:59]}…)"


BAD_META = {
    "meta not a table": ({"meta": [1]}, 'table "meta" is not a table: [1]'),
    "no meta record": ({"meta": {}}, "meta record is not an object: null"),
    "meta record a text": (
        {"meta": {"1": "x" * 50}},
        f'meta record is not an object: "{"x" * 38}…',
    ),
    "schema missing": ({"meta": {"1": {}}}, "meta.schema is not a number: null"),
    "schema a text": ({"meta": {"1": {"schema": "3"}}}, 'meta.schema is not a number: "3"'),
    "schema true": ({"meta": {"1": {"schema": True}}}, "meta.schema is not a number: true"),
    "schema 0": ({"meta": {"1": {"schema": 0}}}, "meta.schema 0 is no version quizzer wrote"),
    "schema 1 with meta": (
        {"meta": {"1": {"schema": 1, "journal_offset": 0}}},
        "meta.schema 1 is no version quizzer wrote",
    ),
    "schema 2 without its offset": (
        {"meta": {"1": {"schema": 2}}},
        "meta.schema 2 is no version quizzer wrote",
    ),
}


@pytest.mark.parametrize(("doc", "message"), BAD_META.values(), ids=BAD_META.keys())
def test_a_meta_table_no_version_wrote_is_named(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as err:
        schema_of(doc)
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("meta", "schema"),
    [({"schema": 2, "journal_offset": 0}, 2), ({"schema": 3}, 3), ({"schema": 4}, 4)],
)
def test_schema_2_by_its_offset_and_3_on_by_their_number(meta: dict[str, Any], schema: int) -> None:
    assert schema_of({"meta": {"1": meta}, "cards": {}}) == schema


def test_a_schema_3_store_is_replayed_in_the_zone_it_is_opened_in(v3_store) -> None:  # noqa: F811
    """Study days are counted in the learner's zone, not this machine's: at UTC+14 an
    answer at 20:00 UTC and the next at 09:00 UTC fall on one study day."""
    db, utc_states, _old = v3_store
    zone = ZoneInfo("Pacific/Kiritimati")
    with open_store(db, tz=zone) as store:
        reviews = store.reviews()
        for key in KEYS:
            state, expected = store.card(key), replay(key.id, reviews, store.settings, zone)
            assert state is not None and expected is not None
            assert state.stability == pytest.approx(expected.stability, rel=1e-9)
            assert state.difficulty == pytest.approx(expected.difficulty, rel=1e-9)
        assert any(
            store.card(key).stability != pytest.approx(utc_states[key.id]["stability"])  # type: ignore[union-attr]
            for key in KEYS
        )
    assert json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["migrated_from"] == 3


def _time(review: Review) -> tuple[str, str]:
    return review.reviewed_at.isoformat(), review.id


def _as_schema_1(db: Path) -> dict[str, dict[str, Any]]:
    """The store at ``db`` rewritten as schema 1 left it (its states, its log in the file);
    returns its reviews table."""
    doc = json.loads(db.read_text(encoding="utf-8"))
    meta = doc["meta"]["1"]
    logged = sorted(read_log(db, meta["gen"], meta["months"]).values(), key=_time)
    reviews = {str(n): r.to_dict() for n, r in enumerate(logged, 1)}
    shutil.rmtree(files.log_dir(db))
    journal_path(db).unlink()
    db.write_text(json.dumps({"cards": doc["cards"], "reviews": reviews}), encoding="utf-8")
    return reviews


def test_a_schema_1_store_goes_through_every_step_to_schema_4(v3_store) -> None:  # noqa: F811
    """Its answers end in month files (schema 3) and its states are replayed in study days
    (schema 4), each step once."""
    db, new_rule, _old = v3_store
    reviews = _as_schema_1(db)
    with open_store(db, tz=UTC) as store:
        for key in KEYS:
            assert store.card(key).to_dict() == new_rule[key.id]  # type: ignore[union-attr]
        assert [r.to_dict() for r in store.reviews()] == list(reviews.values())
    assert files.months(db) == ["2026-03"]
    meta = json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]
    assert (meta["schema"], meta["migrated_from"], meta["seq"]) == (SCHEMA_VERSION, 1, 32)
    assert (db.parent / "progress.json.journal.v2.bak").exists()
    assert doctor.check(db).healthy


def test_a_schema_2_store_whose_journal_is_damaged_is_not_migrated(tmp_path, open_db) -> None:
    db = tmp_path / "p.json"
    _v2_store(open_db, db, tmp_path / "scratch.json")
    lines = journal_path(db).read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b'"grade":', b'"grude":')  # its checksum no longer matches
    journal_path(db).write_bytes(b"".join(lines))
    snapshot = db.read_bytes()
    with pytest.raises(StoreError) as err:
        open_db(db)
    assert err.value.message == "the journal is damaged at line 4; can't migrate the store"
    assert err.value.hint == f"run `quizzer doctor --db {db}` first (a copy is kept)"
    assert (err.value.path, err.value.line) == (journal_path(db), 4)
    assert db.read_bytes() == snapshot == (tmp_path / "p.json.v2.bak").read_bytes()


def test_the_one_pass_ends_with_the_journals_answers(tmp_path) -> None:
    """Answers still in the journal are the last slice (``logstream``), not a reason to
    read the log the careful way."""
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        given = [
            store.record(KEYS[n % 2], 3, datetime(2026, 3, 1, 9 + n, tzinfo=UTC)) for n in range(3)
        ]
        pieces = list(logstream.answers(db, store.state.gen, store.state.months))
    assert pieces[-1] == given


def test_a_schema_2_store_says_it_was_migrated_from_schema_2(tmp_path, open_db) -> None:
    db = tmp_path / "p.json"
    _v2_store(open_db, db, tmp_path / "scratch.json")
    open_db(db).close()
    meta = json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]
    assert (meta["schema"], meta["migrated_from"]) == (SCHEMA_VERSION, 2)


def test_a_schema_1_migration_cut_short_writes_no_answer_twice(v3_store) -> None:  # noqa: F811
    """Killed after writing part of the journal, the migration runs again from the old file
    and writes only the answers the journal lacks."""
    db, new_rule, _old = v3_store
    reviews = _as_schema_1(db)
    writer = journal.JournalWriter(journal_path(db), 0)
    for seq, review in enumerate(list(reviews.values())[:5], 1):
        writer.append_nosync({"op": "review", "seq": seq, "review": review})
    writer.sync()
    writer.close()
    with open_store(db, tz=UTC) as store:
        assert [r.to_dict() for r in store.reviews()] == list(reviews.values())
        for key in KEYS:
            assert store.card(key).to_dict() == new_rule[key.id]  # type: ignore[union-attr]
    kept = journal.read(db.parent / "progress.json.journal.v2.bak", 0).events
    assert sorted(e["review"]["id"] for e in kept if has_review(e)) == sorted(
        r["id"] for r in reviews.values()
    )
    assert doctor.check(db).healthy


def test_schema_1_answers_at_one_instant_are_logged_in_id_order(tmp_path) -> None:
    db = tmp_path / "p.json"
    at = "2026-03-02T20:00:00+00:00"
    reviews = {
        str(n): {
            "id": rid,
            "card_id": KEYS[n].id,
            "reviewed_at": at,
            "grade": 3,
            "mode": "flip",
            "duration_ms": 900,
        }
        for n, rid in enumerate(("r-b", "r-a", "r-c"))
    }
    db.write_text(json.dumps({"cards": {}, "reviews": reviews}), encoding="utf-8")
    with open_store(db, tz=UTC) as store:
        assert [r.id for r in store.reviews()] == ["r-a", "r-b", "r-c"]
