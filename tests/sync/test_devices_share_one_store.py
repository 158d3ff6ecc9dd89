"""Two devices by ``$QUIZZER_DEVICE`` on one store: what each writes, and the conflicts left.

The offline copies are synced by copying newer files both ways (what any sync engine
does for files only one side changes). Settings are last-writer-wins per setting; an
undo takes back only its own device's answers; a conflict copy a sync engine leaves
beside a log is never counted twice; two processes of different devices record into one
folder at the same moment and both succeed; a device folder copied to a second machine
is not written by that machine (one that already holds a claim on the device's name).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sync.devices import (
    CARDS,
    CopyCarrier,
    Device,
    answer,
    grade_of,
    listing,
    moment,
    states,
    two_devices,
)

#: The checkout: the child processes import the test helpers from it.
ROOT = Path(__file__).resolve().parents[2]


def _settings(device: Device) -> dict[str, object]:
    result = device.cli("settings", "--json")
    assert result.returncode == 0, result.stderr
    values: dict[str, object] = json.loads(result.stdout)
    return values


def _set(device: Device, *assignments: str) -> None:
    args = [arg for assignment in assignments for arg in ("--set", assignment)]
    result = device.cli("settings", *args)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


def test_settings_are_last_writer_wins_per_setting(tmp_path: Path) -> None:
    carrier = CopyCarrier(tmp_path)
    laptop, desktop = two_devices(carrier, tmp_path)
    _set(laptop, "new_per_day=11")
    assert (laptop.store_path / "quizzer-store.json").is_file(), "not the folder layout"
    carrier.sync()
    # Offline, each changes settings without seeing the other's: the desktop later than
    # the laptop for new_per_day; each alone for another setting.
    _set(desktop, "new_per_day=13", "reviews_per_day=99")
    time.sleep(0.01)  # the laptop's change below is later by the clock, whatever the machine
    _set(laptop, "leech_threshold=5")
    carrier.sync()
    for device in (laptop, desktop):
        got = _settings(device)
        assert (got["new_per_day"], got["reviews_per_day"], got["leech_threshold"]) == (13, 99, 5)
    # A later change wins on both sides after the next sync.
    _set(laptop, "new_per_day=14")
    carrier.sync()
    assert _settings(laptop) == _settings(desktop)
    assert _settings(desktop)["new_per_day"] == 14
    # `quizzer devices` says which device set what is in force.
    for device in (laptop, desktop):
        by_name = {d["name"]: d["settings"] for d in listing(device).values()}
        assert by_name == {
            "laptop": {"leech_threshold": 5, "new_per_day": 14},
            "desktop": {"reviews_per_day": 99},
        }
    assert not laptop.written & desktop.written, sorted(laptop.written & desktop.written)


def test_an_undo_takes_back_only_its_own_devices_answers(tmp_path: Path) -> None:
    carrier = CopyCarrier(tmp_path)
    laptop, desktop = two_devices(carrier, tmp_path)
    with laptop.open() as store:
        kept = answer(store, CARDS[0], 3, moment(0))
        undone = answer(store, CARDS[2], 3, moment(1))
    carrier.sync()
    with desktop.open() as store:
        desktops = answer(store, CARDS[1], 4, moment(2))  # the latest answer of all
    carrier.sync()
    # The laptop's undo takes back the laptop's latest answer, not the desktop's later one.
    result = laptop.cli("undo")
    assert result.returncode == 0, result.stderr
    with laptop.open() as store:
        assert [r.id for r in store.reviews()] == [kept, desktops]
    carrier.sync()
    # The desktop undoes its own answer; asked for more, it never reaches the laptop's.
    result = desktop.cli("undo", "--steps", "3")
    assert result.returncode == 0, result.stderr
    carrier.sync()
    seen = []
    for device in (laptop, desktop):
        with device.open() as store:
            assert [r.id for r in store.reviews()] == [kept], device.name
            assert store.reviews(CARDS[1]) == store.reviews(CARDS[2]) == [], device.name
            seen.append(states(store))
    assert seen[0] == seen[1]
    assert undone != kept
    assert not laptop.written & desktop.written, sorted(laptop.written & desktop.written)


#: The names sync engines give a copy of ``stem.ext`` they couldn't reconcile.
def _conflict_names(path: Path) -> list[str]:
    stem, ext = path.stem, path.suffix
    return [
        f"{stem}.sync-conflict-20260302-101010-ABCDEFG{ext}",  # Syncthing
        f"{stem} (desktop's conflicted copy 2026-03-02){ext}",  # Dropbox
        f"{path.name}.orig",  # git mergetool
        f"{stem}.LOCAL.1234{ext}",  # git mergetool's sides
    ]


def test_a_conflict_copy_beside_a_log_is_not_counted_twice(tmp_path: Path) -> None:
    carrier = CopyCarrier(tmp_path)
    laptop, desktop = two_devices(carrier, tmp_path)
    with laptop.open() as store:
        for i, card in enumerate(CARDS[:10]):
            answer(store, card, grade_of(i), moment(i))
    carrier.sync()
    with desktop.open() as store:
        for i, card in enumerate(CARDS[5:15]):
            answer(store, card, grade_of(i + 1), moment(20 + i))
    carrier.sync()
    with laptop.open() as store:
        before = [r.id for r in store.reviews()], states(store)
    assert len(before[0]) == 20
    logs = [
        path
        for path in (laptop.store_path / "devices").rglob("*")
        if path.is_file() and path.suffix in (".log", ".json") and path.name != "device.json"
    ]
    assert logs, "no device log in the store"
    planted: list[Path] = []
    for log in logs:
        for name in _conflict_names(log):
            planted.append(log.with_name(name))
            planted[-1].write_bytes(log.read_bytes())
        # A conflict copy holding only the first half of the log's lines (an older copy).
        lines = log.read_bytes().splitlines(keepends=True)
        planted.append(
            log.with_name(f"{log.stem}.sync-conflict-20260301-080000-HIJKLMN{log.suffix}")
        )
        planted[-1].write_bytes(b"".join(lines[: len(lines) // 2]))
    planted_bytes = {path: path.read_bytes() for path in planted}
    with laptop.open() as store:
        assert ([r.id for r in store.reviews()], states(store)) == before
    check = laptop.cli("doctor", "--check")
    assert "Traceback" not in check.stderr, check.stderr
    carrier.sync()  # the desktop gets the copies too
    with desktop.open() as store:
        assert [r.id for r in store.reviews()] == before[0]
    # The copies are not ours: neither removed nor renamed nor changed.
    assert {path: path.read_bytes() for path in planted if path.is_file()} == planted_bytes
    # `quizzer devices` tells of them, and counts every answer once.
    listed = listing(laptop)
    assert {d["name"]: d["answers"] for d in listed.values()} == {"laptop": 10, "desktop": 10}
    assert all(d["conflict_copies"] for d in listed.values())


#: A child process: one device records answers as soon as the parent says go.
CHILD = r"""
import os, sys, time
from datetime import UTC, datetime, timedelta
from quizzer.progress import open_store
from tests.sync.devices import CARDS, answer, grade_of, moment

go, count, offset = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
with open_store(os.environ["QUIZZER_DB"], tz=UTC) as store:
    for i in range(count):
        card = CARDS[(i * 7 + int(offset * 10)) % len(CARDS)]
        print("+", answer(store, card, grade_of(i), moment(2 * i + offset)), flush=True)
"""


@pytest.mark.parametrize("fresh", [True, False], ids=["fresh-store", "existing-store"])
def test_two_devices_record_into_one_folder_at_the_same_moment(tmp_path: Path, fresh: bool) -> None:
    folder = tmp_path / "shared" / "progress"
    laptop = Device("laptop", tmp_path / "laptop", folder)
    desktop = Device("desktop", tmp_path / "desktop", folder)
    if not fresh:
        with laptop.open() as store:
            answer(store, CARDS[0], 3, moment(-5))
    go = tmp_path / "go"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(go), "40", offset],
            env=device.env(),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for device, offset in ((laptop, "0"), (desktop, "1"))
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    go.touch()
    acknowledged: list[str] = []
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        acknowledged += [line[2:] for line in out.splitlines() if line.startswith("+ ")]
    assert len(acknowledged) == 80
    seen = []
    for device in (laptop, desktop):
        with device.open() as store:
            ids = [r.id for r in store.reviews()]
            assert len(ids) == len(set(ids)) == 80 + (not fresh), device.name
            assert set(acknowledged) <= set(ids)
            seen.append((ids, states(store)))
    assert seen[0] == seen[1]
    device_folders = sorted(p.name for p in (folder / "devices").iterdir())
    assert len(device_folders) == 2, device_folders


def test_a_device_folder_copied_to_a_second_machine_is_not_written_there(tmp_path: Path) -> None:
    carrier = CopyCarrier(tmp_path)
    laptop, _ = two_devices(carrier, tmp_path)
    with laptop.open() as store:
        mine = [answer(store, card, 3, moment(i)) for i, card in enumerate(CARDS[:5])]
    assert (laptop.store_path / "quizzer-store.json").is_file(), "not the folder layout"
    carrier.sync()
    # Another machine that calls itself "laptop" too and has studied as "laptop" before (a
    # store of its own): its claim on the name is not the one in the copied folder.
    with Device("laptop", tmp_path / "twin", tmp_path / "twin-own" / "progress").open() as store:
        answer(store, CARDS[0], 3, moment(0))
    twin = Device("laptop", tmp_path / "twin", carrier.folder("b") / "progress")
    with twin.open() as store:
        theirs = [answer(store, card, 2, moment(10 + i)) for i, card in enumerate(CARDS[5:10])]
    assert not laptop.written & twin.written, sorted(laptop.written & twin.written)
    carrier.sync()
    for device in (laptop, twin):
        with device.open() as store:
            ids = [r.id for r in store.reviews()]
            assert sorted(ids) == sorted(mine + theirs), device.name
    assert not laptop.written & twin.written, sorted(laptop.written & twin.written)


def test_one_store_merged_on_both_devices_counts_its_answers_once(tmp_path: Path) -> None:
    """An old copy (here a third device's store) merged on the laptop and, offline, on the
    desktop too: after the sync its answers are in the log once, by their review ids."""
    carrier = CopyCarrier(tmp_path)
    laptop, desktop = two_devices(carrier, tmp_path)
    phone = Device("phone", tmp_path / "phone", tmp_path / "phone-store" / "progress")
    with phone.open() as store:
        theirs = [answer(store, card, 3, moment(i)) for i, card in enumerate(CARDS[:5])]
    with laptop.open() as store:
        mine = [answer(store, CARDS[10], 3, moment(100))]
    carrier.sync()
    for device in (laptop, desktop):
        result = device.cli("merge", str(phone.store_path))
        assert result.returncode == 0, result.stderr
    carrier.sync()
    listed = listing(laptop)
    assert all(d["verifies"] and not d["problems"] for d in listed.values()), listed
    seen = []
    for device in (laptop, desktop):
        with device.open() as store:
            ids = [r.id for r in store.reviews()]
            assert sorted(ids) == sorted(theirs + mine), device.name
            seen.append(states(store))
    assert seen[0] == seen[1]
