"""The devices listing: answers counted once (never an undone one, never a sync copy's
repeat), bad events make a log not verify, settings name the device whose value wins."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.devicelog as devicelog
import quizzer.progress.devices as devices
import quizzer.progress.layout as layout

NOW = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
AT = 1_796_461_200_000  # 2026-12-05 09:00 UTC
CARD = "quantization/c001|ru:term>en:definition"


def _write(store: Path, folder: str, bodies: list[dict[str, Any]], name: str | None = None) -> None:
    dev = folder  # a ~merged folder's events name it as their device
    log = devicelog.DeviceLog(store / "devices" / folder, folder, NOW)
    out: list[dict[str, Any]] = []
    for body in bodies:
        seq = log.next_seq + len(out)
        out.append({"id": f"{dev}-{seq}", "dev": dev, "seq": seq} | body)
    log.append(out, NOW)
    log.close()
    if name:
        (store / "devices" / folder / "device.json").write_text(
            f'{{"device": "{dev}", "name": "{name}"}}'
        )


def _answer(at: int, grade: int = 3) -> dict[str, Any]:
    return {"at": at, "op": "answer", "card": CARD, "grade": grade, "mode": "flip", "ms": 900}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    layout.create_store(tmp_path / "s")
    return tmp_path / "s"


def test_each_device_with_its_answers_and_last_event(store: Path) -> None:
    _write(
        store,
        "laptop",
        [_answer(AT), _answer(AT + 1000), {"at": AT + 2000, "op": "undo", "target": "laptop-2"}],
        "Laptop",
    )
    _write(store, "desk", [_answer(AT + 5000)])
    found = devices.list_devices(store, this="desk")
    assert [(d.device, d.name, d.answers, d.verifies, d.this) for d in found] == [
        ("desk", "desk", 1, True, True),
        ("laptop", "Laptop", 1, True, False),  # the undone answer is not counted
    ]
    assert found[1].last_event == datetime(2026, 12, 5, 9, 0, 2, tzinfo=UTC)
    assert found[1].to_dict()["last_event"] == "2026-12-05T09:00:02+00:00"


def test_a_sync_copy_is_not_counted_twice(store: Path) -> None:
    _write(store, "laptop", [_answer(AT), _answer(AT + 1)])
    folder = store / "devices" / "laptop"
    shutil.copy(
        folder / "2026-12.log", folder / "2026-12.sync-conflict-20261205-090000-ABCDEFG.log"
    )
    (info,) = devices.list_devices(store)
    assert info.answers == 2 and info.copies == 1 and info.verifies


def test_bad_events_make_the_log_not_verify_and_count_nowhere(store: Path) -> None:
    _write(
        store,
        "laptop",
        [_answer(AT), _answer(AT + 1, grade=9), {"at": AT + 2, "op": "undo", "target": "desk-1"}],
    )
    (info,) = devices.list_devices(store)
    assert info.answers == 1 and not info.verifies
    assert any("grade must be a whole number from 1 to 4" in p for p in info.problems)
    assert any("aims at another device" in p for p in info.problems)


def test_a_damaged_line_makes_the_log_not_verify(store: Path) -> None:
    _write(store, "laptop", [_answer(AT), _answer(AT + 1), _answer(AT + 2)])
    log = store / "devices" / "laptop" / "2026-12.log"
    lines = log.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"grade":3', b'"grade":4')
    log.write_bytes(b"\n".join(lines))
    (info,) = devices.list_devices(store)
    assert info.answers == 2 and not info.verifies and "2026-12.log:2" in info.problems[0]


def test_settings_name_the_device_whose_value_wins(store: Path) -> None:
    _write(
        store,
        "laptop",
        [
            {
                "at": AT + 10,
                "op": "settings",
                "values": {"desired_retention": 0.85, "new_per_day": 5},
            }
        ],
    )
    _write(
        store, "desk", [{"at": AT + 20, "op": "settings", "values": {"desired_retention": 0.95}}]
    )
    desk, laptop = devices.list_devices(store)
    assert desk.settings == {"desired_retention": 0.95}
    assert laptop.settings == {"new_per_day": 5}


def test_behind_counts_what_a_view_has_not_read(store: Path) -> None:
    _write(store, "laptop", [_answer(AT)])
    mark = devicelog.read_since(store / "devices" / "laptop").mark
    _write(store, "laptop", [_answer(AT + 1), _answer(AT + 2)])
    _write(store, "laptop~merged", [_answer(AT - 10**9)])
    merged, laptop = sorted(
        devices.list_devices(store, marks={"laptop": mark}), key=lambda d: d.merged, reverse=True
    )
    assert laptop.behind == 2 and laptop.answers == 3
    assert merged.merged and merged.behind == 1 and merged.answers == 1


def test_an_answer_merged_on_two_devices_counts_once(store: Path) -> None:
    merged = _answer(AT - 5000) | {"review": "phone-1"}
    _write(store, "laptop~merged", [merged])
    _write(store, "desk~merged", [merged])
    _write(store, "laptop", [_answer(AT)])
    found = {d.device: d for d in devices.list_devices(store)}
    assert all(d.verifies for d in found.values()), [d.problems for d in found.values()]
    assert found["laptop"].answers == 1
    # The same review id on both merged folders: counted once, where it replays first.
    assert found["desk~merged"].answers + found["laptop~merged"].answers == 1
    assert found["desk~merged"].answers == 1  # same time: "desk~merged" sorts first
