"""The progress store on real files: round trip, undo, the lock, damage, migration, UTF-8."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from tinydb import Query, TinyDB

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.errors import StoreError
from quizzer.progress import SCHEMA_VERSION, doctor, journal_path, open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.settings import SchedulerSettings
from tests.factories import ru_bn_deck

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("training-efficiency/lora", RU_BN)
KEY2 = CardKey("training-efficiency/peft", RU_BN)


def test_round_trip(tmp_path: Path, open_db) -> None:
    db = tmp_path / "progress.json"
    with open_db(db) as store:
        r1 = store.record(
            KEY, 3, NOW, Answer(mode="typed", duration_ms=2500, typed="ЛоРА", correct=True)
        )
        r2 = store.record(
            KEY2, 1, NOW + timedelta(seconds=30), Answer(mode="choice", duration_ms=900)
        )
        state = store.card(KEY)
        assert state is not None
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [r1.id, r2.id]
        got = store.reviews(KEY)[0]
        assert got == r1
        assert got.typed == "ЛоРА" and got.mode == "typed" and got.duration_ms == 2500
        again = store.card(KEY)
        assert again is not None
        assert again.to_dict() == state.to_dict()
        assert store.card(CardKey("training-efficiency/zero", RU_BN)) is None
    text = db.read_text(encoding="utf-8") + journal_path(db).read_text(encoding="utf-8")
    assert "ЛоРА" in text
    assert "\\u" not in text


def test_default_location_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "env" / "p.json"
    monkeypatch.setenv("QUIZZER_DB", str(target))
    with open_store(tz=UTC) as store:
        store.record(KEY, 3, NOW)
    assert target.exists()
    assert json.loads(target.read_text(encoding="utf-8"))["meta"]["1"]["schema"] == SCHEMA_VERSION


def _deck(n: int = 4) -> Deck:
    return ru_bn_deck("demo", n)


def test_due_cards_limits_and_burying_through_the_store(tmp_path: Path, open_db) -> None:
    deck = _deck(4)
    pairs = [RU_BN, Pair("bn", "term", "ru", "term")]
    with open_db(tmp_path / "p.json") as store:
        store.set_settings(SchedulerSettings(new_per_day=3))
        q = store.due_cards(deck, pairs, NOW)
        assert len(q.new) == 3  # 4 concepts, one card each, limit 3
        first = q.new[0]
        store.record(first, 4, NOW)  # Easy: straight to review
        q = store.due_cards(deck, pairs, NOW + timedelta(minutes=1))
        assert store.today("demo", NOW).new == 1
        assert q.new_left == 2 and len(q.new) == 2
        sibling = CardKey(first.concept_uid, pairs[1])
        assert sibling in q.buried
        # Studying only the other direction: still buried today (any pair counts).
        only_other = store.due_cards(deck, [pairs[1]], NOW + timedelta(minutes=2))
        assert sibling in only_other.buried and sibling not in only_other.cards
    with open_db(tmp_path / "p.json") as store:
        assert store.settings.new_per_day == 3  # settings persisted
        assert store.today("demo", NOW + timedelta(hours=2)).new == 1
        assert store.today("demo", NOW + timedelta(days=1)).new == 0


def test_undo_several_steps(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        r1 = store.record(KEY, 3, NOW)
        s1 = store.card(KEY)
        r2 = store.record(KEY, 3, NOW + timedelta(minutes=10))
        r3 = store.record(KEY2, 1, NOW + timedelta(minutes=11))
        assert store.undo_depth == 3
    with open_db(db) as store:  # the undo stack survives a restart
        assert store.undo() == r3
        assert store.card(KEY2) is None  # a first answer undone: the card is new again
        assert store.undo() == r2
        assert store.card(KEY).to_dict() == s1.to_dict()
        assert [r.id for r in store.reviews()] == [r1.id]
        assert store.today(KEY.deck, NOW).new == 1
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [r1.id]
        assert store.undo() == r1
        assert store.undo() is None
        assert store.reviews() == [] and len(store) == 0


def test_journal_replayed_after_a_crash_and_torn_tail_dropped(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
    # Simulate a crash: answers appended to the journal, no compaction, a half-written line.
    code = (
        "import os, random, sys\n"
        "from datetime import UTC, datetime, timedelta\n"
        "from quizzer.progress import open_store\n"
        f"s = open_store({str(db)!r}, tz=UTC, rng=random.Random(1))\n"
        "now = datetime(2026, 3, 10, 13, tzinfo=UTC)\n"
        f"for i in range(5): print(s.record({KEY2.id!r}, 3, now + timedelta(minutes=10*i)).id)\n"
        "sys.stdout.flush(); os._exit(0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ids = out.stdout.split()
    with open(journal_path(db), "ab") as fh:
        fh.write(b'0badc0de {"op":"record","rev')
    with open_db(db, read_only=True) as ro:
        assert [r.id for r in ro.reviews(KEY2)] == ids
        assert ro.card(KEY2).reps == 5
        assert ro.torn_bytes > 0
    with open_db(db) as store:
        assert [r.id for r in store.reviews(KEY2)] == ids
        assert store.replayed == 5
        store.record(KEY2, 3, NOW + timedelta(days=3))
    with open_db(db) as store:
        assert len(store.reviews()) == 7
    assert journal_path(db).with_name("p.json.journal.torn").exists()


def test_second_writer_refused_naming_the_holder_read_only_allowed(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
        with pytest.raises(StoreError) as err:
            open_db(db)
        assert f"process {os.getpid()}" in str(err.value)
        assert str(db) in str(err.value)
        with open_db(db, read_only=True) as ro:
            assert ro.card(KEY) is not None
            with pytest.raises(StoreError, match="read-only"):
                ro.record(KEY, 3, NOW)
    with open_db(db) as again:  # released on close
        assert len(again.reviews()) == 1


def test_lock_held_by_another_process_and_stale_lock_taken_over(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    code = (
        "import sys, time\n"
        "from quizzer.progress import open_store\n"
        f"s = open_store({str(db)!r})\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "locked"
        with pytest.raises(StoreError) as err:
            open_db(db)
        assert f"process {child.pid}" in str(err.value)
        result = subprocess.run(
            [sys.executable, "-m", "quizzer", "undo", "--db", str(db)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 3
        assert f"process {child.pid}" in result.stderr and "Traceback" not in result.stderr
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    with open_db(db) as store:  # the dead holder's lock is taken over
        assert store._lock is not None and store._lock.taken_over is not None
        assert store._lock.taken_over.pid == child.pid
        store.record(KEY, 3, NOW)


def test_corrupt_store_is_named_never_overwritten_and_doctor_restores(
    tmp_path: Path, open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        first = store.record(KEY, 3, NOW)
    with open_db(db) as store:  # second compaction: the first snapshot becomes the backup
        second = store.record(KEY2, 4, NOW + timedelta(minutes=5))
        expected = {KEY.id: store.card(KEY).to_dict(), KEY2.id: store.card(KEY2).to_dict()}
    damaged = db.read_bytes()[:-40] + b"\x00garbage"
    db.write_bytes(damaged)
    with pytest.raises(StoreError) as err:
        open_db(db)
    assert str(db) in str(err.value) and "damaged" in str(err.value)
    assert "quizzer doctor" in str(err.value)
    assert db.read_bytes() == damaged  # never overwritten by the failed open
    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "doctor", "--db", str(db), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 3 and "problem:" in result.stdout
    assert db.read_bytes() == damaged
    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "doctor", "--db", str(db)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "repaired" in result.stdout
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("p.json.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    with open_db(db) as store:
        assert {r.id for r in store.reviews()} == {first.id, second.id}
        got = {k: store.card(k).to_dict() for k in (KEY.id, KEY2.id)}
        assert got == expected


def _record_then_die(db: Path, key: CardKey, times: list[datetime]) -> list[str]:
    """A real process records answers and exits without closing (no compaction); the ids."""
    code = (
        "import os, random, sys\n"
        "from datetime import datetime\n"
        "from quizzer.progress import open_store\n"
        f"s = open_store({str(db)!r}, rng=random.Random(1))\n"
        f"for t in {[t.isoformat() for t in times]!r}:\n"
        f"    print(s.record({key.id!r}, 3, datetime.fromisoformat(t)).id)\n"
        "sys.stdout.flush(); os._exit(0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_doctor_repairs_a_damaged_journal_line(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        pass
    ids = _record_then_die(db, KEY, [NOW + timedelta(days=i) for i in range(4)])
    lines = journal_path(db).read_bytes().split(b"\n")
    # Line 1 is the journal's header; line 3 the second answer.
    lines[2] = lines[2].replace(b'"grade":3', b'"grade":9')  # checksum no longer matches
    journal_path(db).write_bytes(b"\n".join(lines))
    with pytest.raises(StoreError) as err:
        open_db(db, read_only=True)
    assert str(journal_path(db)) in str(err.value) and "line 3" in str(err.value)
    assert not doctor.check(db).healthy
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert any("damaged journal" in a for a in report.actions)
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [ids[0], ids[2], ids[3]]
        assert store.card(KEY).reps == 4
    assert doctor.check(db).healthy


def test_migration_from_plain_tinydb_layout_keeps_a_backup(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    old_state = CardState.new(KEY, NOW).to_dict()
    old_review = {
        "id": "old-1",
        "card_id": KEY.id,
        "reviewed_at": "2025-01-02T03:04:05+00:00",
        "grade": 3,
        "mode": "flip",
        "duration_ms": 1200,
        "typed": "ЛоРА",
    }
    with TinyDB(db, ensure_ascii=False) as tdb:  # version 1: TinyDB's own JSONStorage
        tdb.table("cards").insert(old_state)
        tdb.table("reviews").insert(old_review)
        tdb.table("settings").insert({"new_per_day": 7})
    original = db.read_bytes()
    with open_db(db) as store:
        assert store.settings.new_per_day == 7
        assert store.card(KEY).to_dict() == old_state
        assert [(r.id, r.typed) for r in store.reviews()] == [("old-1", "ЛоРА")]
        store.record(KEY, 3, NOW)
    assert (tmp_path / "p.json.v1.bak").read_bytes() == original
    doc = json.loads(db.read_text(encoding="utf-8"))
    assert doc["meta"]["1"]["schema"] == SCHEMA_VERSION
    with open_db(db) as store:
        assert len(store.reviews()) == 2
    db.write_text(json.dumps({"meta": {"1": {"schema": 99}}}), encoding="utf-8")
    with pytest.raises(StoreError, match="newer"):
        open_db(db)


def test_snapshot_is_a_tinydb_document(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
    with TinyDB(db, access_mode="r") as tdb:
        cards = tdb.table("cards").all()
        assert [c["card_id"] for c in cards] == [KEY.id]
        assert tdb.table("meta").get(doc_id=1)["schema"] == SCHEMA_VERSION


def test_review_log_queryable_through_tinydb(tmp_path: Path, open_db) -> None:
    with open_db(tmp_path / "p.json") as store:
        store.record(KEY, 1, NOW)
        store.record(KEY2, 3, NOW + timedelta(seconds=5), Answer(mode="typed", typed="পেফট"))
        table = store.reviews_db().table("reviews")
        assert [r["card_id"] for r in table.search(Query().grade == 1)] == [KEY.id]
        assert table.get(Query().mode == "typed")["typed"] == "পেফট"
        with pytest.raises(StoreError, match="read-only"):
            table.insert({"grade": 4})


def test_unusable_paths_and_naive_times_are_clear_errors(tmp_path: Path, open_db) -> None:
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(StoreError) as err:
        open_db(tmp_path / "dir.json")
    assert "dir.json" in str(err.value)
    odd = tmp_path / "odd.json"
    odd.write_text('{"meta": {"1": {"schema": 2, "journal_offset": "x"}}}', encoding="utf-8")
    with pytest.raises(StoreError, match="damaged"):
        open_db(odd)
    with open_db(tmp_path / "p.json") as store, pytest.raises(ValueError, match="timezone"):
        store.record(KEY, 3, datetime(2026, 3, 10, 12))


def test_leech_suspended_through_the_store_and_resumed(tmp_path: Path, open_db) -> None:
    deck = _deck(1)
    key = CardKey("demo/c0", RU_BN)
    with open_db(tmp_path / "p.json") as store:
        store.set_settings(SchedulerSettings(fuzz=False, leech_threshold=2, leech_every=1))
        now = NOW
        store.record(key, 4, now)  # Easy: into review
        for _ in range(2):
            now = store.card(key).due
            store.record(key, 1, now)  # a lapse
            now = store.card(key).due
            store.record(key, 3, now)  # relearnt
        state = store.card(key)
        assert state is not None and state.lapses == 2 and state.leech and state.suspended
        later = now + timedelta(days=400)
        assert key not in store.due_cards(deck, [RU_BN], later).cards
        store.set_suspended(key, False, later)
    with open_db(tmp_path / "p.json") as store:
        state = store.card(key)
        assert state is not None and not state.suspended and not state.leech
        assert key in store.due_cards(deck, [RU_BN], later).cards


def test_doctor_on_healthy_and_torn_stores_and_cli_undo(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        first = store.record(KEY, 3, NOW)
        store.record(KEY2, 3, NOW + timedelta(seconds=3))
    ok = subprocess.run(
        [sys.executable, "-m", "quizzer", "doctor", "--db", str(db)], capture_output=True, text=True
    )
    assert ok.returncode == 0 and "ok (2 cards)" in ok.stdout
    with open(journal_path(db), "ab") as fh:
        fh.write(b"1234")
    found = doctor.check(db)
    assert not found.healthy and "cut short" in found.problems[0]
    fixed = doctor.repair(db)
    assert fixed.healthy and fixed.actions
    assert not journal_path(db).read_bytes().endswith(b"1234")
    undo = subprocess.run(
        [sys.executable, "-m", "quizzer", "undo", "--db", str(db)], capture_output=True, text=True
    )
    assert undo.returncode == 0, undo.stderr
    assert KEY2.id in undo.stdout and "Good" in undo.stdout
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [first.id]


def test_failed_journal_write_changes_nothing_and_leaves_no_partial_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_db
) -> None:
    db = tmp_path / "p.json"
    real_write = os.write
    with open_db(db) as store:
        kept = store.record(KEY, 3, NOW)
        before = store.card(KEY)
        fd = store._writer._fd

        def disk_full(target: int, data: bytes) -> int:
            if target == fd:
                real_write(target, bytes(data[:20]))  # half a line reaches the file
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_write(target, data)

        monkeypatch.setattr(os, "write", disk_full)
        with pytest.raises(StoreError, match="No space left"):
            store.record(KEY, 1, NOW + timedelta(minutes=10))
        monkeypatch.setattr(os, "write", real_write)
        assert store.card(KEY).to_dict() == before.to_dict()
        later = store.record(KEY2, 3, NOW + timedelta(minutes=11))
    assert doctor.check(db).healthy
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == [kept.id, later.id]
