"""Damage that still parses: each found, named and repaired.

Every store here is the three-month store of :mod:`store_builder`: July and August
compacted, five answers of September still in the journal.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress import doctor, journal_path, lock_path, reviewlog
from tests.progress import store_builder as sb


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, list[str]]:
    db = tmp_path / "p.json"
    return db, sb.build(db)


def _log_ids(db: Path) -> list[str]:
    with sb.open_db(db, read_only=True) as store:
        return [r.id for r in store.reviews()]


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[:12] + bytes([raw[12] ^ 1]) + raw[13:],  # one flipped byte
        lambda raw: b"\x00" * 16 + raw[16:],  # its first 16 bytes zeroed
    ],
    ids=["flipped-byte", "zeroed-start"],
)
def test_a_damaged_journal_header_is_damage_and_its_lines_are_salvaged(
    built: tuple[Path, list[str]], damage
) -> None:
    db, ids = built
    jpath = journal_path(db)
    jpath.write_bytes(damage(jpath.read_bytes()))
    with pytest.raises(StoreError) as err:  # not "stale": its five answers are not dropped
        sb.open_db(db)
    assert err.value.path == jpath and "quizzer doctor" in str(err.value.hint)
    with pytest.raises(StoreError):
        sb.open_db(db, read_only=True)
    assert not doctor.check(db).healthy
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    assert not fixed.losses, fixed.losses  # only the header was hit: no answer lost
    assert _log_ids(db) == ids
    assert any(p.name.startswith("p.json.journal.damaged-") for p in db.parent.iterdir())


@pytest.mark.parametrize(
    "replacement",
    [None, b'{"hello": [1, 2, 3]}', b'{"reviews": {}}'],
    ids=["deleted", "other-json", "empty-table"],
)
def test_a_month_file_deleted_or_of_the_wrong_layout_is_noticed_and_its_mirror_kept(
    built: tuple[Path, list[str]], replacement: bytes | None
) -> None:
    db, ids = built
    august = reviewlog.month_path(db, "2026-08")
    mirror = reviewlog.mirror_path(august)
    mirrored = mirror.read_bytes()
    if replacement is None:
        august.unlink()
    else:
        august.write_bytes(replacement)
    found = doctor.check(db)
    assert not found.healthy and any(str(august) in p for p in found.problems)
    assert _log_ids(db) == ids  # read from the mirror meanwhile
    with sb.open_db(db) as store:  # a session that answers in August: folding into it refuses
        store.record(sb.card(30), 3, sb.AUGUST.replace(day=20))
        with pytest.raises(StoreError, match="2026-08"):
            store.close()
    assert mirror.read_bytes() == mirrored  # never rewritten from the bad file
    fixed = doctor.repair(db)
    assert fixed.healthy and not fixed.losses, (fixed.problems, fixed.losses)
    assert set(ids) <= set(_log_ids(db)) and len(_log_ids(db)) == len(ids) + 1
    assert doctor.check(db).healthy


def test_the_doctor_repairs_the_month_from_the_copy_that_verifies(
    built: tuple[Path, list[str]],
) -> None:
    db, ids = built
    august = reviewlog.month_path(db, "2026-08")
    mirror = reviewlog.mirror_path(august)
    good = mirror.read_bytes()
    august.write_bytes(b'{"reviews": {"1": {"id": "x", "reviewed_at": "2026-08-01"}}}')
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    assert mirror.read_bytes() == good  # the intact mirror is neither renamed nor rewritten
    assert august.read_bytes() == good
    assert not any(p.name.startswith("2026-08.json.bak.damaged") for p in august.parent.iterdir())
    assert _log_ids(db) == ids


def test_a_snapshot_replaced_by_wrong_layout_json_is_damage_not_an_old_schema(
    built: tuple[Path, list[str]],
) -> None:
    db, ids = built
    with sb.open_db(db, read_only=True) as store:
        cards = {c.card_id: c.to_dict() for c in store.cards()}
    db.write_bytes(b'{"reviews": {}}')  # what a schema-1 store could look like, but isn't
    with pytest.raises(StoreError, match="damaged"):
        sb.open_db(db)
    found = doctor.check(db)
    assert not any("old schema" in p for p in found.problems), found.problems
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    assert not any("migrated" in a for a in fixed.actions), fixed.actions
    assert fixed.cards == len(cards) > 0
    with sb.open_db(db, read_only=True) as store:
        assert {c.card_id: c.to_dict() for c in store.cards()} == cards
    assert _log_ids(db) == ids
    assert not db.with_name("p.json.v1.bak").exists()


def test_a_journal_missing_only_its_final_newline_keeps_its_last_answer(
    built: tuple[Path, list[str]],
) -> None:
    db, ids = built
    jpath = journal_path(db)
    jpath.write_bytes(jpath.read_bytes()[:-1])
    assert doctor.check(db).healthy
    assert _log_ids(db) == ids
    with sb.open_db(db) as store:
        assert store.reviews()[-1].id == ids[-1]
        store.record(sb.card(9), 3, sb.LATER)
    assert _log_ids(db)[:-1] == ids
    assert not jpath.with_name(jpath.name + ".torn").exists()


def test_meta_schema_0_is_damage_the_doctor_repairs_in_one_run(
    built: tuple[Path, list[str]],
) -> None:
    db, ids = built
    doc = json.loads(db.read_bytes())
    doc["meta"]["1"]["schema"] = 0
    db.write_text(json.dumps(doc), encoding="utf-8")
    found = doctor.check(db)
    assert not found.healthy
    assert not any("repairing migrates it" in p for p in found.problems), found.problems
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    assert _log_ids(db) == ids and doctor.check(db).healthy


def test_after_undos_and_a_damaged_month_one_doctor_run_is_enough(
    built: tuple[Path, list[str]],
) -> None:
    db, ids = built
    store = sb.open_db(db)
    for _ in range(8):  # back into August, across the compactions; the undos stay pending
        assert store.undo() is not None
    sb.abandon(store)
    august = reviewlog.month_path(db, "2026-08")
    august.write_bytes(august.read_bytes()[:-20])
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    assert doctor.check(db).healthy
    assert _log_ids(db) == ids[:-8]


def test_the_doctor_counts_the_cards_of_a_store_it_migrated(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    v1 = {
        "cards": {
            "1": {
                "card_id": sb.card(1).id,
                "state": 2,
                "step": None,
                "stability": 3.0,
                "difficulty": 5.0,
                "due": "2026-07-10T00:00:00+00:00",
                "last_review": "2026-07-01T00:00:00+00:00",
                "reps": 1,
                "lapses": 0,
            }
        },
        "reviews": {},
    }
    db.write_text(json.dumps(v1), encoding="utf-8")
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    assert any("migrated" in a for a in fixed.actions)
    assert fixed.cards == 1  # not "ok (0 cards)"


def test_a_deleted_lock_file_doesnt_let_a_second_writer_in(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    ids = sb.build(db)
    first = sb.open_db(db)
    ids.append(first.record(sb.card(20), 3, sb.LATER).id)
    lock_path(db).unlink()
    with pytest.raises(StoreError, match="in use"):
        sb.open_db(db)  # a new lock file, but the journal itself is held
    with pytest.raises(StoreError, match="lock file"):
        first.record(sb.card(21), 3, sb.LATER)  # the first notices before it writes again
    with pytest.raises(StoreError):
        first.close()
    assert _log_ids(db) == ids
    with sb.open_db(db) as store:
        store.record(sb.card(22), 3, sb.LATER)
    assert _log_ids(db)[:-1] == ids


def test_a_copy_of_a_store_in_another_folder_works(tmp_path: Path) -> None:
    """The seals and the manifest name no path: a store copied elsewhere stays whole."""
    db = tmp_path / "a" / "p.json"
    db.parent.mkdir()
    ids = sb.build(db)
    shutil.copytree(db.parent, tmp_path / "b")
    assert doctor.check(tmp_path / "b" / "p.json").healthy
    assert _log_ids(tmp_path / "b" / "p.json") == ids
