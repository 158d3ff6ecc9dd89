"""A device's log: appended and read back past marks, torn tails cut off, damage reported,
losses below a mark noticed, sync-engine copies never double-counted, months sealed."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tinydb import TinyDB

import quizzer.progress.devicelog as devicelog
import quizzer.progress.eventlines as eventlines
import quizzer.progress.layout as layout
from quizzer.errors import StoreError
from quizzer.progress.devicelog import DeviceLog, Mark, read_since

DEC = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)
JAN = datetime(2027, 1, 2, 8, 0, tzinfo=UTC)
FEB = datetime(2027, 2, 2, 8, 0, tzinfo=UTC)


def _events(log: DeviceLog, count: int, now: datetime = DEC) -> list[dict[str, Any]]:
    events = []
    for seq in range(log.next_seq, log.next_seq + count):
        at = int(now.timestamp() * 1000) + seq
        events.append(
            {"id": f"d-{seq}", "dev": "d", "seq": seq, "at": at, "op": "answer", "card": f"c{seq}"}
        )
    return events


def _write(folder: Path, count: int, now: datetime = DEC) -> list[dict[str, Any]]:
    log = DeviceLog(folder, "d", now)
    try:
        events = _events(log, count, now)
        for event in events:
            log.append([event], now)
    finally:
        log.close()
    return events


def _ids(events: list[dict[str, Any]]) -> list[str]:
    return [event["id"] for event in events]


def test_appended_events_read_back_in_order(tmp_path: Path) -> None:
    written = _write(tmp_path, 5)
    result = read_since(tmp_path)
    assert result.events == written
    assert result.mark == Mark("2026-12", (tmp_path / "2026-12.log").stat().st_size, 5, 0)
    assert (result.damage, result.losses, result.copies) == ([], [], [])
    assert (tmp_path / "2026-12.log").read_bytes().count(b"\n") == 5


def test_reading_past_a_mark_returns_only_what_is_new(tmp_path: Path) -> None:
    _write(tmp_path, 3)
    first = read_since(tmp_path)
    more = _write(tmp_path, 2)
    assert _ids(more) == ["d-4", "d-5"]
    second = read_since(tmp_path, first.mark)
    assert second.events == more and second.mark.count == 5
    assert read_since(tmp_path, second.mark).events == []


def test_an_event_numbered_out_of_turn_is_refused(tmp_path: Path) -> None:
    log = DeviceLog(tmp_path, "d", DEC)
    with pytest.raises(ValueError, match="should have seq 1"):
        log.append([{"id": "d-2", "seq": 2}], DEC)
    log.close()
    assert not (tmp_path / "2026-12.log").exists()


def test_the_next_number_passes_what_the_caller_knows(tmp_path: Path) -> None:
    _write(tmp_path, 2)
    log = DeviceLog(tmp_path, "d", DEC, min_seq=10)
    assert log.next_seq == 11
    log.close()


def test_a_torn_last_line_is_ignored_then_cut_off_by_the_writer(tmp_path: Path) -> None:
    written = _write(tmp_path, 3)
    path = tmp_path / "2026-12.log"
    whole = path.stat().st_size
    with open(path, "ab") as fh:
        fh.write(eventlines.encode({"id": "d-4", "seq": 4})[:-9])
    seen = read_since(tmp_path)
    assert seen.events == written and seen.mark.offset == whole and seen.damage == []
    log = DeviceLog(tmp_path, "d", DEC)
    assert path.stat().st_size == whole and log.next_seq == 4
    log.append(_events(log, 1), DEC)
    log.close()
    after = read_since(tmp_path, seen.mark)
    assert _ids(after.events) == ["d-4"] and after.damage == [] and after.losses == []


def test_a_damaged_line_is_reported_with_its_line_and_skipped(tmp_path: Path) -> None:
    _write(tmp_path, 2)
    mark = read_since(tmp_path).mark
    _write(tmp_path, 3)
    path = tmp_path / "2026-12.log"
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"c4"', b'"c9"')
    path.write_bytes(b"\n".join(lines))
    result = read_since(tmp_path, mark)
    assert _ids(result.events) == ["d-3", "d-5"]
    assert [(p.path, p.line) for p in result.damage] == [(path, 4)]
    assert "checksum" in str(result.damage[0]) and str(path) in str(result.damage[0])
    assert _ids(read_since(tmp_path).events) == ["d-1", "d-2", "d-3", "d-5"]


def test_a_log_that_shrank_below_the_mark_is_a_loss(tmp_path: Path) -> None:
    _write(tmp_path, 4)
    mark = read_since(tmp_path).mark
    path = tmp_path / "2026-12.log"
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:2]) + b"\n")
    result = read_since(tmp_path, mark)
    assert len(result.losses) == 1 and result.losses[0].path == path
    assert "4 events" in result.losses[0].reason
    assert _ids(result.events) == ["d-1", "d-2"] and result.mark.count == 2


def test_a_log_rewritten_to_the_same_length_is_noticed(tmp_path: Path) -> None:
    _write(tmp_path, 2)
    mark = read_since(tmp_path).mark
    path = tmp_path / "2026-12.log"
    data = path.read_bytes()
    path.write_bytes(data[:-1] + b"xy")  # the line the mark ended on no longer ends there
    result = read_since(tmp_path, mark)
    assert len(result.losses) == 1


def test_a_vanished_month_is_a_loss(tmp_path: Path) -> None:
    _write(tmp_path, 2)
    mark = read_since(tmp_path).mark
    (tmp_path / "2026-12.log").unlink()
    result = read_since(tmp_path, mark)
    assert result.events == [] and len(result.losses) == 1
    assert "2 events are gone" in result.losses[0].reason


def test_opening_in_a_new_month_seals_the_old_one_into_tinydb(tmp_path: Path) -> None:
    december = _write(tmp_path, 3)
    mark = read_since(tmp_path).mark
    january = _write(tmp_path, 2, JAN)
    assert _ids(january) == ["d-4", "d-5"]
    assert not (tmp_path / "2026-12.log").exists()
    sealed = tmp_path / "2026-12.json"
    database = TinyDB(sealed, access_mode="r")
    try:
        assert [dict(doc) for doc in database.table("events").all()] == december
        assert database.table("seal").all()[0]["count"] == 3
    finally:
        database.close()
    assert read_since(tmp_path).events == december + january
    after = read_since(tmp_path, mark)
    assert after.events == january and after.losses == []
    assert after.mark == Mark("2027-01", (tmp_path / "2027-01.log").stat().st_size, 2, 1)


def test_a_month_sealed_while_nothing_else_was_written_continues_the_numbers(
    tmp_path: Path,
) -> None:
    _write(tmp_path, 3)
    DeviceLog(tmp_path, "d", JAN).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-12.json"]
    log = DeviceLog(tmp_path, "d", FEB)
    assert log.next_seq == 4
    log.close()


def test_a_seal_killed_before_removing_the_log_is_finished_without_repeats(tmp_path: Path) -> None:
    december = _write(tmp_path, 3)
    saved = (tmp_path / "2026-12.log").read_bytes()
    DeviceLog(tmp_path, "d", JAN).close()
    (tmp_path / "2026-12.log").write_bytes(saved)  # as if killed between rename and unlink
    (tmp_path / ".2026-12.json.k3j_x9qa.tmp").write_text("half")  # a seal killed mid-write
    assert read_since(tmp_path).events == december
    DeviceLog(tmp_path, "d", JAN).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-12.json"]
    assert read_since(tmp_path).events == december


def test_a_damaged_sealed_month_is_reported_not_raised(tmp_path: Path) -> None:
    _write(tmp_path, 3)
    DeviceLog(tmp_path, "d", JAN).close()
    sealed = tmp_path / "2026-12.json"
    value = json.loads(sealed.read_text())
    value["seal"]["1"]["count"] = 4
    sealed.write_text(json.dumps(value))
    result = read_since(tmp_path)
    assert result.events == [] and "seal says 4" in result.damage[0].reason
    events = value["events"]
    for damaged in (
        "{not json",
        json.dumps(value | {"events": {"one": events["1"]}}),  # an id that is no number
        json.dumps(value | {"events": {"1": 5}}),
        json.dumps({"events": events}),  # no seal
        "[]",
    ):
        sealed.write_text(damaged)
        (problem,) = read_since(tmp_path).damage
        # Where, what is wrong and what to do, in words: no Python text.
        assert problem.path == sealed and problem.line is None
        assert problem.reason.startswith("can't read this sealed month: ")
        assert problem.reason.endswith("restore it from a backup or from another machine's copy")
        for python in ("Error", "int()", "'one'", "invalid literal", "StopIteration"):
            assert python not in problem.reason


def test_a_month_delivered_late_below_the_mark_is_read(tmp_path: Path) -> None:
    december = _write(tmp_path, 2)
    _write(tmp_path, 1, JAN)
    sealed = (tmp_path / "2026-12.json").read_bytes()
    (tmp_path / "2026-12.json").unlink()
    mark = read_since(tmp_path).mark  # as a reader saw it before the older month arrived
    (tmp_path / "2026-12.json").write_bytes(sealed)
    result = read_since(tmp_path, mark)
    assert result.events == december and result.losses == []
    assert result.mark.before == 1


@pytest.mark.parametrize(
    "name",
    [
        "2026-12.sync-conflict-20261205-084512-ABCDEFG.log",
        "2026-12 (laptop's conflicted copy 2026-12-05).log",
        "2026-12.log.orig",
        "2026-12.LOCAL.1234.log",
        "2026-12_REMOTE_1234.log",
    ],
)
def test_a_sync_engine_copy_is_read_once_and_left_alone(tmp_path: Path, name: str) -> None:
    written = _write(tmp_path, 3)
    log = tmp_path / "2026-12.log"
    extra = {"id": "d-9", "dev": "d", "seq": 9, "op": "answer"}
    (tmp_path / name).write_bytes(log.read_bytes() + eventlines.encode(extra))
    assert devicelog.is_sync_copy(name)
    result = read_since(tmp_path)
    assert result.events == written
    assert result.copies == [extra] and result.copy_files == [tmp_path / name]
    assert (tmp_path / name).exists()
    DeviceLog(tmp_path, "d", JAN).close()
    assert (tmp_path / name).exists()
    after = read_since(tmp_path)
    assert after.events == written and after.copies == [extra]


def test_a_failed_write_leaves_whole_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, 1)
    log = DeviceLog(tmp_path, "d", DEC)
    real_write = os.write

    def half_then_full(fd: int, data: bytes) -> int:
        real_write(fd, data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(StoreError, match="No space left"):
        log.append(_events(log, 1), DEC)
    monkeypatch.setattr(os, "write", real_write)
    assert log.next_seq == 2
    log.append(_events(log, 1), DEC)
    log.close()
    result = read_since(tmp_path)
    assert _ids(result.events) == ["d-1", "d-2"] and result.damage == []


def test_a_folder_that_does_not_exist_reads_as_empty(tmp_path: Path) -> None:
    result = read_since(tmp_path / "nothing")
    assert result.events == [] and result.mark == Mark()
    assert layout.device_folders(tmp_path) == []


def test_answers_timed_in_a_sealed_month_go_to_the_next_and_are_kept(tmp_path: Path) -> None:
    december = _write(tmp_path, 3)
    DeviceLog(tmp_path, "d", JAN).close()  # December sealed
    late = _write(tmp_path, 2, DEC)  # a clock set back, or answers given "in" December
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-12.json", "2027-01.log"]
    assert read_since(tmp_path).events == december + late
    for now in (DEC, JAN, FEB):
        DeviceLog(tmp_path, "d", now).close()
        assert _ids(read_since(tmp_path).events) == ["d-1", "d-2", "d-3", "d-4", "d-5"]


def test_a_log_beside_its_sealed_month_with_more_events_loses_none(tmp_path: Path) -> None:
    _write(tmp_path, 3)
    saved = tmp_path / "saved.log"
    saved.write_bytes((tmp_path / "2026-12.log").read_bytes())
    DeviceLog(tmp_path, "d", JAN).close()
    # A log of the sealed month that holds one more event (as an older writer could leave).
    extra = {"id": "d-4", "dev": "d", "seq": 4, "at": 5, "op": "answer"}
    (tmp_path / "2026-12.log").write_bytes(saved.read_bytes() + eventlines.encode(extra))
    saved.unlink()
    seen = read_since(tmp_path)
    assert _ids(seen.events + seen.copies) == ["d-1", "d-2", "d-3", "d-4"]
    log = DeviceLog(tmp_path, "d", JAN)
    assert log.next_seq == 5
    log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-12.json"]
    assert _ids(read_since(tmp_path).events) == ["d-1", "d-2", "d-3", "d-4"]


def test_numbers_go_on_past_an_empty_newest_month(tmp_path: Path) -> None:
    _write(tmp_path, 3)
    DeviceLog(tmp_path, "d", JAN).close()
    (tmp_path / "2027-01.log").write_bytes(b"")  # a kill between creating the log and writing
    log = DeviceLog(tmp_path, "d", FEB)  # seals the empty January
    assert log.next_seq == 4
    log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-12.json", "2027-01.json"]
    for now in (FEB, datetime(2027, 3, 1, tzinfo=UTC)):
        (tmp_path / f"{now:%Y-%m}.log").write_bytes(b"")
        log = DeviceLog(tmp_path, "d", now)
        assert log.next_seq == 4
        log.close()
    assert _ids(_write(tmp_path, 1, datetime(2027, 4, 1, tzinfo=UTC))) == ["d-4"]
