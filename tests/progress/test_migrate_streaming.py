"""Migrating a big store streams: the answers of a version-2 journal wait in
per-month spill files, and the schema-4 replay reads the log in batches of cards. Neither
changes a byte of what is written. Real month files and stores on disk."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.progress import migrate, monthfile, reviewlog
from quizzer.progress.files import log_dir
from quizzer.progress.journal_events import review_data
from quizzer.progress.schema import SCHEMA_VERSION
from quizzer.progress.snapshot import dumps
from tests.progress.test_migrate_study_days import KEYS, v3_store  # noqa: F401 - a fixture
from tests.progress.test_store_log import KEY, _v2_store

START = datetime(2026, 1, 30, 23, 0, tzinfo=UTC)


def _review(i: int, at: datetime, **more: Any) -> dict[str, Any]:
    return {
        "id": f"r{i:03d}",
        "card_id": f"demo/c{i % 4}|ru:term>bn:definition",
        "reviewed_at": at.isoformat(),
        "grade": 3,
        "mode": "flip",
        "duration_ms": 1000 + i,
        "typed": 'ভালো\t"x"',
        **more,
    }


def _events() -> list[dict[str, Any]]:
    """Answers over three months, out of time order, a re-added id, undos with and without
    their time, one of them of an answer the month file already holds."""
    out: list[dict[str, Any]] = []
    for i in range(30):
        at = START + timedelta(hours=7 * ((i * 7) % 30))  # not in time order
        out.append({"op": "record", "review": _review(i, at)})
    out.append({"op": "record", "review": _review(5, START, grade=1)})  # the same id again
    out.append({"op": "undo", "review_id": "r007", "at": out[7]["review"]["reviewed_at"]})
    out.append({"op": "undo", "review_id": "old-2"})  # unplaced: its month isn't said
    out.append({"op": "review", "review": _review(40, START + timedelta(days=40))})
    return out


def _store_with_an_old_month(root: Path) -> Path:
    path = root / "p.json"
    existing = [_review(i, START - timedelta(days=1, hours=i)) for i in range(3)]
    for n, r in enumerate(existing):
        r["id"] = f"old-{n}"
    directory = log_dir(path)
    directory.mkdir(parents=True)
    reviewlog.write_month(
        reviewlog.month_path(path, "2026-01"), [review_data(r) for r in existing], 1
    )
    return path


def test_a_spilled_fold_writes_the_same_bytes_as_one_in_memory(tmp_path: Path) -> None:
    written: dict[str, dict[str, bytes]] = {}
    for mode in ("memory", "spill"):
        path = _store_with_an_old_month(tmp_path / mode)
        manifest = {"2026-01": [3, 1]}
        fold = reviewlog.Fold(spill_to=log_dir(path) if mode == "spill" else None)
        try:
            fold.add_events(_events())  # type: ignore[arg-type]
            assert fold.write(path, manifest, 1) == 3
        finally:
            fold.close()
        written[mode] = {p.name: p.read_bytes() for p in sorted(log_dir(path).iterdir())}
        # January: 4 answers, r005 again, 3 held, less old-2; February: 26 less r007.
        assert manifest == {"2026-01": [7, 2], "2026-02": [25, 2], "2026-03": [1, 2]}
    assert written["spill"] == written["memory"]
    assert sorted(written["spill"]) == [
        "2026-01.json", "2026-01.json.bak", "2026-02.json", "2026-02.json.bak",
        "2026-03.json", "2026-03.json.bak",
    ]  # fmt: skip
    january = monthfile.read_copy(tmp_path / "spill/p.json.log/2026-01.json", "2026-01")
    ids = [r["id"] for r in january.reviews]
    assert "r007" not in ids and "old-2" not in ids and ids[:2] == ["old-1", "old-0"]
    assert [r["grade"] for r in january.reviews if r["id"] == "r005"] == [1]  # the last one won
    times = [r["reviewed_at"] for r in january.reviews]
    assert times == sorted(times)


def test_a_spilled_fold_folded_again_changes_nothing(tmp_path: Path) -> None:
    path = _store_with_an_old_month(tmp_path)
    manifest: dict[str, list[int]] = {"2026-01": [3, 1]}
    for gen in (1, 2):
        fold = reviewlog.Fold(spill_to=log_dir(path))
        fold.add_events(_events())  # type: ignore[arg-type]
        written = fold.write(path, manifest, gen)
        fold.close()
        assert written == (3 if gen == 1 else 0)  # the second time: all already folded
        before = {p.name: p.read_bytes() for p in log_dir(path).iterdir()}
    assert {p.name: p.read_bytes() for p in log_dir(path).iterdir()} == before


def test_streamed_month_bytes_are_the_month_file_format(tmp_path: Path) -> None:
    reviews = [_review(i, START + timedelta(minutes=i)) for i in range(5)]
    pieces = list(monthfile.encode_texts("2026-01", (dumps(r) for r in reviews), 5, 3))
    assert len(pieces) > 2  # in pieces, not one string
    assert b"".join(pieces) == monthfile.encode("2026-01", reviews, 3)  # type: ignore[arg-type]
    file = tmp_path / "2026-01.json"
    file.write_bytes(b"".join(pieces))
    assert monthfile.read_copy(file, "2026-01").reviews == reviews
    with pytest.raises(ValueError, match="5 answers to write, 6 announced"):
        list(monthfile.encode_texts("2026-01", (dumps(r) for r in reviews), 6, 3))


def test_a_migration_killed_mid_fold_leaves_spill_files_the_next_open_removes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_db
) -> None:
    db = tmp_path / "p.json"
    ids, state, _ = _v2_store(open_db, db, tmp_path / "scratch.json")
    old_snapshot = db.read_bytes()
    real = reviewlog.write_texts
    calls = []

    def killed(*args: Any) -> None:
        calls.append(args)
        if len(calls) == 2:  # one month written, then the process dies
            raise KeyboardInterrupt
        real(*args)

    monkeypatch.setattr(reviewlog, "write_texts", killed)
    monkeypatch.setattr(reviewlog.Fold, "close", lambda self: None)  # died: nothing cleaned
    with pytest.raises(KeyboardInterrupt):
        open_db(db)
    monkeypatch.undo()
    leftovers = list(log_dir(db).glob(".*.spill.*.tmp"))
    assert leftovers  # the answers waiting on disk, as a kill leaves them
    assert db.read_bytes() == old_snapshot  # still the old store, whole
    with open_db(db) as store:
        assert [r.id for r in store.reviews()] == ids
        assert store.card(KEY).to_dict() == state
    assert not list(log_dir(db).glob(".*.tmp"))
    assert json.loads(db.read_bytes())["meta"]["1"]["schema"] == SCHEMA_VERSION


def test_the_schema_4_replay_in_batches_gives_the_states_of_one_pass(
    v3_store,  # noqa: F811 - the fixture
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from quizzer.progress import open_store

    db, new_rule, _ = v3_store
    copy = tmp_path / "copy"
    shutil.copytree(db.parent, copy)
    monkeypatch.setattr(migrate, "REPLAY_BATCH", 5)  # 32 answers: 7 passes over the log
    with open_store(copy / db.name, tz=UTC) as store:
        assert {k.id: store.card(k).to_dict() for k in KEYS} == new_rule  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "value",
    ["2026-01-30T23:00:00+00:00", 'r\t"1"\n\\', "ভালো \x00\x1f\u2028", "", 7, None, 1e-7, 1e22],
)
def test_a_spilled_time_or_id_is_the_json_text_dumps_gives(value: object) -> None:
    from quizzer.progress import journal, monthspill

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    assert monthspill._string(value) == monthspill._text(value) == text
    assert b"\t" not in text and b"\n" not in text  # a spill line's separators stay its own
    event = {"op": "review", "review": {"id": value, "x": [1.5e-7, float("nan"), True]}, "seq": 2}
    line = journal.encode(event)
    assert line[9:-1] == json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
