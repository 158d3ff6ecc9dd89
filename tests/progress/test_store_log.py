"""The review log in monthly TinyDB files: compaction folding, crashes inside it, undo across it,
migration from schema 2, damaged month files and the doctor. Real files on disk throughout."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from tinydb import TinyDB

from quizzer.cards.card import CardKey, Pair
from quizzer.errors import StoreError
from quizzer.progress import SCHEMA_VERSION, doctor, files, journal_path, reviewlog
from quizzer.progress import journal as journal_mod
from quizzer.progress.files import previous_journal_path
from quizzer.progress.journal_events import as_event
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State
from quizzer.scheduling.answer import Answer

RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("training-efficiency/lora", RU_BN)
KEY2 = CardKey("training-efficiency/peft", RU_BN)
JAN = datetime(2026, 1, 20, 9, 0, tzinfo=UTC)
FEB = datetime(2026, 2, 10, 9, 0, tzinfo=UTC)
MAR = datetime(2026, 3, 5, 9, 0, tzinfo=UTC)


def _month_ids(db: Path, month: str) -> list[str]:
    with TinyDB(reviewlog.month_path(db, month), access_mode="r") as tdb:
        return [d["id"] for d in tdb.table("reviews").all()]


def _journal_events(db: Path) -> list[dict[str, Any]]:
    return [dict(e) for e in journal_mod.read(journal_path(db), 0).events]


def test_compaction_folds_the_journal_into_month_files_and_truncates_it(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        jan = store.record(KEY, 3, JAN, Answer(mode="typed", typed="ЛоРА উত্তর"))
        feb = store.record(KEY2, 1, FEB)
        store.record(KEY, 3, FEB + timedelta(days=1))
        assert len(_journal_events(db)) == 4  # header + 3 answers before compaction
    assert files.months(db) == ["2026-01", "2026-02"]
    assert _month_ids(db, "2026-01") == [jan.id]
    assert _month_ids(db, "2026-02")[0] == feb.id and len(_month_ids(db, "2026-02")) == 2
    # The journal now holds only the header of the next generation.
    events = _journal_events(db)
    assert [e["op"] for e in events] == ["header"]
    snapshot_gen = json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["gen"]
    assert events[0]["gen"] == snapshot_gen == journal_mod.generation(journal_path(db))
    text = reviewlog.month_path(db, "2026-01").read_text(encoding="utf-8")
    assert "ЛоРА উত্তর" in text and "\\u" not in text  # UTF-8, not escapes
    # A later month: only that month's file is written; older ones stay the same file.
    jan_inode = reviewlog.month_path(db, "2026-01").stat().st_ino
    with open_db(db) as store:
        mar = store.record(KEY, 3, MAR)
    assert reviewlog.month_path(db, "2026-01").stat().st_ino == jan_inode
    assert _month_ids(db, "2026-03") == [mar.id]
    with open_db(db, read_only=True) as ro:
        assert ro.reviews()[0].id == jan.id and ro.reviews()[-1].id == mar.id
        assert len(ro.reviews()) == 4
        table = ro.reviews_db().table("reviews")
        assert len(table) == 4 and table.get(doc_id=1)["typed"] == "ЛоРА উত্তর"


def test_reviews_ordered_and_complete_across_months_and_journal(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    expected: list[tuple[datetime, str]] = []
    # Answers given out of time order (a clock set back), across several compactions.
    for when in (MAR, JAN, FEB + timedelta(days=3), JAN + timedelta(hours=1)):
        with open_db(db) as store:
            expected.append((when, store.record(KEY, 3, when).id))
    with open_db(db) as store:
        expected.append((FEB, store.record(KEY2, 2, FEB).id))  # only in the journal so far
        got = [(r.reviewed_at, r.id) for r in store.reviews()]
        assert got == sorted(expected)
        assert [r.id for r in store.reviews(KEY2)] == [expected[-1][1]]
        # A cached log gets answers recorded later (even out of order) in their place.
        early = store.record(KEY2, 3, JAN - timedelta(days=25))
        expected.append((early.reviewed_at, early.id))
        assert store.reviews()[0].id == early.id and len(store.reviews()) == 6
    assert files.months(db) == ["2025-12", "2026-01", "2026-02", "2026-03"]
    with open_db(db, read_only=True) as store:  # after folding: the same log, same order
        assert [r.id for r in store.reviews()] == [i for _, i in sorted(expected)]


def test_undo_across_compaction_removes_the_answer_from_its_month_file(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        first = store.record(KEY, 3, JAN)
        state_after_first = store.card(KEY)
        second = store.record(KEY, 1, FEB)
    assert _month_ids(db, "2026-02") == [second.id]
    with open_db(db) as store:  # the undo stack survived the compaction
        assert store.undo_depth == 2
        assert store.undo() == second
        assert store.card(KEY).to_dict() == state_after_first.to_dict()
        assert [r.id for r in store.reviews()] == [first.id]
    assert _month_ids(db, "2026-02") == []  # folded: removed from its month file
    assert _month_ids(db, "2026-01") == [first.id]
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [first.id]
        assert store.undo() == first
        assert store.card(KEY) is None
    with open_db(db) as store:
        assert store.reviews() == [] and store.undo() is None


def _fail_on(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Make the next atomic write of ``target`` fail (as a crash between two steps would)."""
    real = AtomicJSONStorage.write

    def write(self: AtomicJSONStorage, data: dict[str, Any]) -> None:
        if self.path == target:
            raise OSError(28, "No space left on device")
        real(self, data)

    monkeypatch.setattr(AtomicJSONStorage, "write", write)


def test_compaction_cut_after_folding_months_leaves_no_duplicates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        a = store.record(KEY, 3, JAN)
    store = open_db(db)
    b = store.record(KEY2, 3, JAN + timedelta(days=2))
    with monkeypatch.context() as m:
        _fail_on(m, db)  # months written, then the snapshot write fails
        with pytest.raises(StoreError, match="snapshot"):
            store.compact()
    assert _month_ids(db, "2026-01") == [a.id, b.id]  # already folded...
    assert journal_mod.generation(journal_path(db)) == store.state.gen  # ...journal still live
    c = store.record(KEY, 1, JAN + timedelta(days=3))  # the store goes on working
    assert [r.id for r in store.reviews()] == [a.id, b.id, c.id]
    store.close()
    with open_db(db) as again:
        assert [r.id for r in again.reviews()] == [a.id, b.id, c.id]
        assert again.card(KEY).reps == 2
    assert _month_ids(db, "2026-01") == [a.id, b.id, c.id]


def test_compaction_cut_before_the_new_journal_skips_the_absorbed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        a = store.record(KEY, 3, JAN)
    store = open_db(db)
    b = store.record(KEY, 3, JAN + timedelta(days=2))
    old_journal = journal_path(db).read_bytes()

    def no_new_journal(path: Path, gen: int) -> int:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(journal_mod, "start_new", no_new_journal)
        with pytest.raises(StoreError, match="new journal"):
            store.compact()
        with pytest.raises(StoreError, match="stopped writing"):
            store.record(KEY, 3, JAN + timedelta(days=3))  # nothing goes to the old journal
    store.close()
    assert journal_path(db).read_bytes() == old_journal  # as a kill would have left it
    assert (
        journal_mod.generation(journal_path(db)) < json.loads(db.read_bytes())["meta"]["1"]["gen"]
    )
    with open_db(db, read_only=True) as ro:  # the stale journal is skipped: no double counting
        assert [r.id for r in ro.reviews()] == [a.id, b.id]
        assert ro.card(KEY).reps == 2 and ro.stale_journal
    with open_db(db) as store:  # a writer starts the new journal, keeping the old one
        assert previous_journal_path(db).read_bytes() == old_journal
        assert [e["op"] for e in _journal_events(db)] == ["header"]
        c = store.record(KEY, 3, JAN + timedelta(days=5))
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [a.id, b.id, c.id]
        assert store.card(KEY).reps == 3


def _v2_store(open_db, db: Path, scratch: Path) -> tuple[list[str], dict[str, Any], int]:
    """A schema-2 store: snapshot folded up to the 3rd event, the rest only in the journal.

    The answers come from a real (current) store; their events are rewritten the way
    version 2 kept them: a journal without header that is the whole review log.
    Returns the ids the log must hold, the final card state of KEY, the snapshot offset.
    """
    store = open_db(scratch)
    ids = [store.record(KEY, 3, JAN).id, store.record(KEY2, 1, JAN + timedelta(days=3)).id]
    ids.append(store.record(KEY, 3, FEB).id)
    gone = store.record(KEY2, 3, FEB + timedelta(days=1))
    store.undo()
    ids.append(store.record(KEY, 2, MAR).id)
    state = store.card(KEY).to_dict()
    events = [e for e in _journal_events(scratch) if e["op"] != "header"]
    store.close()
    assert any(e["op"] == "undo" and e["review_id"] == gone.id for e in events)
    lines = [journal_mod.encode(e) for e in events]
    journal_path(db).write_bytes(b"".join(lines))
    st = State()
    for e in events[:3]:
        st.apply(as_event(e))
    offset = sum(len(x) for x in lines[:3])
    doc = st.to_document(offset)
    meta = doc["meta"]["1"]
    meta["schema"] = 2
    del meta["gen"]
    AtomicJSONStorage(db).write(doc)
    return ids, state, offset


def test_migration_from_schema_2_folds_the_journal_and_keeps_backups(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    ids, state, _ = _v2_store(open_db, db, tmp_path / "scratch.json")
    old_snapshot, old_journal = db.read_bytes(), journal_path(db).read_bytes()
    with pytest.raises(StoreError, match="old schema"):
        open_db(db, read_only=True)  # read-only can't migrate, and changes nothing
    assert db.read_bytes() == old_snapshot
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == ids  # the undone answer stays out
        assert store.card(KEY).to_dict() == state
        more = store.record(KEY2, 3, MAR + timedelta(days=1))
    assert (tmp_path / "p.json.v2.bak").read_bytes() == old_snapshot
    assert (tmp_path / "p.json.journal.v2.bak").read_bytes() == old_journal
    assert json.loads(db.read_bytes())["meta"]["1"]["schema"] == SCHEMA_VERSION == 4
    assert files.months(db) == ["2026-01", "2026-02", "2026-03"]
    assert len(journal_path(db).read_bytes()) < 100  # only the header is left
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [*ids, more.id]
    assert doctor.check(db).healthy


def test_migration_from_schema_2_cut_short_runs_again_without_duplicates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_db
) -> None:
    db = tmp_path / "p.json"
    ids, state, _ = _v2_store(open_db, db, tmp_path / "scratch.json")
    with monkeypatch.context() as m:
        _fail_on(m, db)  # month files written, the version-3 snapshot not
        with pytest.raises(StoreError):
            open_db(db)
    assert files.months(db) and json.loads(db.read_bytes())["meta"]["1"]["schema"] == 2
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == ids
        assert store.card(KEY).to_dict() == state
    assert sum(len(_month_ids(db, m)) for m in files.months(db)) == len(ids)


def test_opening_never_reads_month_files_and_a_damaged_one_is_named(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        jan = store.record(KEY, 3, JAN)
        jan2 = store.record(KEY2, 3, JAN + timedelta(days=1))
    with open_db(db) as store:
        feb = store.record(KEY, 3, FEB)
    jan_file = reviewlog.month_path(db, "2026-01")
    damaged = jan_file.read_bytes()[:-30] + b"\x00oops"
    jan_file.write_bytes(damaged)
    with open_db(db) as store:  # opening, studying and recording don't touch the log files
        assert store.card(KEY).reps == 2
        later = store.record(KEY2, 3, FEB + timedelta(days=1))
        # The log is read from January's mirror, which the snapshot's manifest vouches for.
        assert [r.id for r in store.reviews()] == [jan.id, jan2.id, feb.id, later.id]
    assert jan_file.read_bytes() == damaged  # never overwritten (only February was folded)
    with open_db(db) as store:
        store.record(KEY, 3, JAN + timedelta(days=2))
        with pytest.raises(StoreError) as err:  # folding into it refuses; answer kept
            store.close()
        assert str(jan_file) in str(err.value)
    assert jan_file.read_bytes() == damaged
    found = doctor.check(db)
    assert not found.healthy and str(jan_file) in found.problems[0]
    assert jan_file.read_bytes() == damaged
    fixed = doctor.repair(db)
    assert fixed.healthy, fixed.problems
    kept = [p for p in jan_file.parent.iterdir() if p.name.startswith("2026-01.json.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    with open_db(db) as store:
        # January comes back from its mirror; the answer the failed close left in the
        # journal is there too, once.
        ids = [r.id for r in store.reviews()]
        assert ids[:2] == [jan.id, jan2.id] and ids[3:] == [feb.id, later.id] and len(ids) == 5
    assert doctor.check(db).healthy


def test_doctor_restores_a_month_from_its_mirror_and_rewrites_a_bad_mirror(
    tmp_path: Path,
    open_db,
) -> None:
    db = tmp_path / "p.json"
    ids = []
    for day in range(3):  # January rewritten by three compactions
        with open_db(db) as store:
            ids.append(store.record(KEY, 3, JAN + timedelta(days=day)).id)
    jan_file = reviewlog.month_path(db, "2026-01")
    mirror = reviewlog.mirror_path(jan_file)
    assert mirror.read_bytes() == jan_file.read_bytes()
    jan_file.write_text("{not json", encoding="utf-8")
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert any("2026-01.json.bak" in action for action in report.actions)
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == ids
    mirror.write_bytes(b"\x00")
    assert not doctor.check(db).healthy
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert mirror.read_bytes() == jan_file.read_bytes()


def test_doctor_rebuilds_a_lost_snapshot_from_the_backup_and_both_journals(
    tmp_path: Path,
    open_db,
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, JAN)
    with open_db(db) as store:
        store.record(KEY2, 3, FEB)
    with open_db(db) as store:
        store.record(KEY, 3, MAR)
        expected = {k.id: store.card(k).to_dict() for k in (KEY, KEY2)}
    # The snapshot is damaged: P.bak is one compaction older, and the answer in between
    # (March) is in the previous journal generation, P.journal.prev.
    db.write_bytes(b"\x00" * 10)
    report = doctor.repair(db)
    assert report.healthy, report.problems
    with open_db(db) as store:
        got = {k: store.card(k).to_dict() for k in (KEY.id, KEY2.id)}
        assert got == expected
        assert len(store.reviews()) == 3


def test_missing_snapshot_is_refused_then_rebuilt_by_the_doctor(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, JAN)
    with open_db(db) as store:
        store.record(KEY2, 3, FEB)
        expected = {k.id: store.card(k).to_dict() for k in (KEY, KEY2)}
    db.unlink()
    # The journal alone holds only the last session: opening must not pass it off as a store.
    with pytest.raises(StoreError, match="snapshot is missing"):
        open_db(db)
    assert not db.exists()
    report = doctor.repair(db)
    assert report.healthy, report.problems
    with open_db(db) as store:
        assert {k: store.card(k).to_dict() for k in (KEY.id, KEY2.id)} == expected
        assert len(store.reviews()) == 2
