"""Migrating reads the log once, a slice at a time, and gives exactly the
states the careful reading in batches gives; whatever that one pass can't read as the
careful reading does (damage, an undo in the journal, an id given twice) is read the careful
way. Real stores and month files on disk."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.progress import history, logstream, migrate, monthfile, open_store, reviewlog
from quizzer.progress.files import log_dir
from tests.progress.test_migrate_study_days import KEYS, v3_store  # noqa: F401 - a fixture


def _migrated_states(db: Path) -> dict[str, Any]:
    with open_store(db, tz=UTC) as store:
        return {k.id: store.card(k).to_dict() for k in KEYS}  # type: ignore[union-attr]


def _careful_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = history.read_log

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(migrate, "read_log", counted)
    return calls


def test_one_pass_gives_the_states_of_the_careful_reading_in_batches(
    v3_store,  # noqa: F811 - the fixture
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db, new_rule, _ = v3_store
    careful = tmp_path / "careful"
    shutil.copytree(db.parent, careful)
    reads = _careful_reads(monkeypatch)
    assert _migrated_states(db) == new_rule
    assert reads == []  # the one pass, no careful reading

    def unstreamable(*args: Any) -> Any:
        raise logstream.Unstreamable("as if")

    monkeypatch.setattr(logstream, "answers", unstreamable)
    assert _migrated_states(careful / db.name) == new_rule
    assert reads  # read the careful way
    assert (careful / db.name).read_bytes() == db.read_bytes()  # the same snapshot, byte for byte


def test_a_damaged_month_is_read_the_careful_way_from_its_mirror(
    v3_store,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db, new_rule, _ = v3_store
    (month,) = log_dir(db).glob("*.json")
    raw = month.read_bytes()
    month.write_bytes(raw.replace(b'"grade":3', b'"grade":4', 1))  # the seal no longer holds
    with pytest.raises(logstream.Unstreamable, match="not vouched for"):
        for _ in logstream.answers(db, 1, None):
            pass
    reads = _careful_reads(monkeypatch)
    assert _migrated_states(db) == new_rule  # the mirror stood in
    assert reads


def _answer(i: int, at: datetime) -> dict[str, Any]:
    return {
        "id": f"r{i}",
        "card_id": KEYS[i % 2].id,
        "reviewed_at": at.isoformat(),
        "grade": 3,
        "mode": "flip",
        "duration_ms": 1000,
    }


def test_an_id_given_twice_or_an_undo_in_the_journal_is_not_streamed(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    log_dir(db).mkdir()
    start = datetime(2026, 1, 30, tzinfo=UTC)
    january = [_answer(i, start + timedelta(hours=i)) for i in range(3)]
    february = [_answer(2, start + timedelta(days=5))]  # r2 again, in another month
    reviewlog.write_month(reviewlog.month_path(db, "2026-01"), january, 1)  # type: ignore[arg-type]
    manifest = {"2026-01": [3, 1]}
    pieces = [[r.id for r in piece] for piece in logstream.answers(db, 1, manifest)]
    assert pieces == [["r0", "r1", "r2"], []]  # the month, then the (empty) journal's
    reviewlog.write_month(reviewlog.month_path(db, "2026-02"), february, 1)  # type: ignore[arg-type]
    manifest["2026-02"] = [1, 1]
    with pytest.raises(logstream.Unstreamable, match="given twice"):
        list(logstream.answers(db, 1, manifest))
    assert len(history.read_log(db, 1, manifest)) == 3  # the careful reading: the later one wins

    other = tmp_path / "q.json"
    with open_store(other, tz=UTC) as store:
        store.record(KEYS[0], 3, start)
        store.record(KEYS[1], 3, start + timedelta(minutes=1))
        store.undo()
        with pytest.raises(logstream.Unstreamable, match="takes answers back"):
            list(logstream.answers(other, store.state.gen, store.state.months))


def test_a_month_read_in_slices_is_every_answer_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizzer.progress import logdecoder

    db = tmp_path / "p.json"
    log_dir(db).mkdir()
    start = datetime(2026, 3, 1, tzinfo=UTC)
    answers = [_answer(i, start + timedelta(minutes=i)) for i in range(50)]
    file = reviewlog.month_path(db, "2026-03")
    reviewlog.write_month(file, answers, 1)  # type: ignore[arg-type]
    monkeypatch.setattr(logdecoder, "PIECE", 300)  # a few records a slice
    pieces = list(logstream.answers(db, 1, {"2026-03": [50, 1]}))
    assert len(pieces) > 5
    assert [r.id for piece in pieces for r in piece] == [a["id"] for a in answers]
    whole = monthfile.read_answers(file, "2026-03")
    assert [r for piece in pieces for r in piece] == whole.reviews
    with pytest.raises(logstream.Unstreamable, match="not vouched for"):
        list(logstream.answers(db, 1, {"2026-03": [49, 1]}))  # the manifest says otherwise
