"""What a kill can't catch: bad values read back, bad arguments, fsync, undo, lapses.

Bad values inside files that parse are named as damage by every command (14.7);
``Store.record`` refuses what it can't store (14.8); the journal is synced before
``record`` and ``bury`` return; undo goes exactly 50 deep; a lapse is an Again on a
card in review, nothing else.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.progress import doctor, journal, journal_path, reviewlog
from quizzer.scheduling.card_state import CardState
from tests.progress import store_builder as sb


def _run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(args))  # an exception here is the traceback the issue is about
    return code, out.getvalue()


def _edit(file: Path, change) -> None:
    doc = json.loads(file.read_bytes())
    change(doc)
    file.write_text(json.dumps(doc), encoding="utf-8")


def _first(table: dict[str, Any]) -> dict[str, Any]:
    return next(iter(table.values()))


MONTH_DAMAGE = {
    "grade 9": lambda d: _first(d["reviews"]).update(grade=9),
    "time garbage": lambda d: _first(d["reviews"]).update(reviewed_at="garbage"),
    "renamed key": lambda d: _first(d["reviews"]).update(when=_first(d["reviews"]).pop("id")),
}


@pytest.mark.parametrize("change", MONTH_DAMAGE.values(), ids=MONTH_DAMAGE.keys())
def test_a_bad_value_in_both_copies_of_a_month_is_damage_naming_file_and_record(
    tmp_path: Path, change
) -> None:
    db = tmp_path / "p.json"
    sb.build(db)
    august = reviewlog.month_path(db, "2026-08")
    for file in (august, reviewlog.mirror_path(august)):
        _edit(file, change)
    for args in (["stats"], ["log", "export", "--csv", str(tmp_path / "log.csv")], ["undo"]):
        code, out = _run(*args, "--db", str(db))
        assert code in (0, 3), out
        if code == 3:
            assert "2026-08.json" in out and "record 1" in out and "quizzer doctor" in out, out
    found = doctor.check(db)
    assert any("2026-08.json" in p and "record 1" in p for p in found.problems), found.problems
    fixed = doctor.repair(db)
    assert fixed.healthy and fixed.losses, (fixed.problems, fixed.losses)
    assert any(p.name.startswith("2026-08.json.damaged-") for p in august.parent.iterdir())


SNAPSHOT_DAMAGE = {
    "undo time": lambda m, d: m["undo"][-1]["review"].update(reviewed_at="garbage"),
    "recent time": lambda m, d: m["recent"][-1].__setitem__(2, "garbage"),
    "naive due": lambda m, d: _first(d["cards"]).update(due="2026-09-01T00:00:00"),
    "negative offset": lambda m, d: m.update(journal_offset=-5),
}


@pytest.mark.parametrize("change", SNAPSHOT_DAMAGE.values(), ids=SNAPSHOT_DAMAGE.keys())
def test_a_bad_value_in_the_snapshot_is_damage_the_doctor_finds_and_repairs(
    tmp_path: Path, change
) -> None:
    db = tmp_path / "p.json"
    ids = sb.build(db)
    _edit(db, lambda d: change(d["meta"]["1"], d))
    undone = 0
    for args in (["stats"], ["undo"], ["leeches"]):
        code, out = _run(*args, "--db", str(db))
        assert code == 3 or (code == 0 and args != ["stats"]), out  # stats reads every card
        if code == 3:
            assert str(db) in out and "doctor" in out, out
        undone += args == ["undo"] and code == 0
    assert not doctor.check(db).healthy
    assert doctor.repair(db).healthy
    with sb.open_db(db, read_only=True) as store:
        assert [r.id for r in store.reviews()] == ids[: len(ids) - undone]
        list(store.cards())


@pytest.mark.parametrize(
    ("grade", "now"),
    [
        (True, sb.LATER),
        (3.0, sb.LATER),
        (9, sb.LATER),
        ("3", sb.LATER),
        (3, datetime(9999, 12, 30, tzinfo=UTC)),
        (3, datetime(2026, 9, 1)),  # naive
    ],
    ids=["bool", "float", "nine", "text", "year-9999", "naive"],
)
def test_record_refuses_what_it_cant_store_with_a_value_error(
    tmp_path: Path, grade, now: datetime
) -> None:
    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        with pytest.raises(ValueError, match=r"grade|now"):
            store.record(sb.card(1), grade, now)
        assert store.reviews() == [] and store.card(sb.card(1)) is None
    with sb.open_db(db) as store, pytest.raises(ValueError, match="now"):
        store.bury(sb.card(1), datetime(9999, 12, 30, tzinfo=UTC))


def test_the_journal_is_synced_before_record_and_bury_return(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    synced: list[int] = []  # the journal's size at each sync of its file

    def sync(fd: int) -> None:
        os.fdatasync(fd) if hasattr(os, "fdatasync") else os.fsync(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(journal, "_sync", sync)
    with sb.open_db(db) as store:
        acts: tuple[Callable[[], object], ...] = (
            lambda: store.record(sb.card(1), 3, sb.LATER),
            lambda: store.bury(sb.card(2), sb.LATER),
            lambda: store.undo(),
        )
        for i, act in enumerate(acts):
            synced.clear()
            act()
            size = journal_path(db).stat().st_size
            assert synced and synced[-1] == size, f"step {i}: journal not synced at its end"


def test_undo_goes_exactly_50_answers_deep(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    start = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
    with sb.open_db(db) as store:
        for i in range(51):
            store.record(sb.card(i), 3, start + timedelta(minutes=i))
    with sb.open_db(db) as store:  # across a close: the stack is in the snapshot
        assert store.undo_depth == 50
        for step in range(50):
            assert store.undo() is not None, f"undo step {step + 1}"
        assert store.undo() is None  # step 51
        assert len(store.reviews()) == 1


def test_a_lapse_is_an_again_on_a_card_in_review_only(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
    key = sb.card(1)
    with sb.open_db(db) as store:

        def answer(grade: int) -> CardState:
            nonlocal now
            store.record(key, grade, now)  # type: ignore[arg-type]
            state = store.card(key)
            assert state is not None
            now = max(now + timedelta(minutes=1), state.due + timedelta(minutes=1))
            return state

        assert answer(1).lapses == 0  # Again on a new card: learning, no lapse
        assert answer(1).lapses == 0  # Again while learning
        while store.card(key).card.state.name != "Review":  # type: ignore[union-attr]
            answer(3)
        assert answer(1).lapses == 1  # Again in review: the one lapse
        assert store.card(key).card.state.name == "Relearning"  # type: ignore[union-attr]
        assert answer(1).lapses == 1  # Again while relearning: still one
        while store.card(key).card.state.name != "Review":  # type: ignore[union-attr]
            answer(3)
        assert answer(2).lapses == 1  # Hard in review: no lapse
