"""The fault matrix of the store folder: every file damaged nine ways, then each command.

A store folder two devices wrote (the laptop and the desktop: sealed months, open
logs, device records, locks, the store's marker) and the laptop's cache outside it are
built once; their files are *discovered*, and each is damaged nine ways. Then, as the
laptop, as a learner would meet them: ``quizzer stats``, a writer recording one answer
and closing, ``quizzer doctor --check``, ``quizzer doctor`` and a reader; the desktop
reads too. Asserted:

- no traceback anywhere (every command returns an exit code, every API call returns or
  raises :class:`StoreError`);
- no acknowledged answer lost beyond what the damage itself destroyed (answers whose
  only copy in the store folder was in the damaged file; a cache is never the only copy);
- no loss reported as ok: a lost answer means ``doctor --check`` found a problem;
- the laptop's commands never write in the desktop's folder, damaged or not.
"""

from __future__ import annotations

import json
import random
import shutil
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.eventlines as eventlines
from quizzer.errors import StoreError
from tests.sync.devices import CARDS, Device, answer, files_of, grade_of

Damage = Callable[[bytes], bytes | None]  # the new bytes; None deletes the file


def _flip(at: Callable[[int], int]) -> Damage:
    def flip(raw: bytes) -> bytes:
        if not raw:
            return b"\x20"
        i = at(len(raw))
        return raw[:i] + bytes([raw[i] ^ 0x20]) + raw[i + 1 :]

    return flip


DAMAGES: dict[str, Damage] = {
    "deleted": lambda raw: None,
    "emptied": lambda raw: b"",
    "half": lambda raw: raw[: len(raw) // 2],
    "flip-middle": _flip(lambda n: n // 2),
    "flip-start": _flip(lambda n: 1 if n > 1 else 0),
    "random": lambda raw: random.Random(len(raw)).randbytes(max(len(raw), 64)),
    "other-json": lambda raw: b'{"hello": [1, 2, 3]}',
    "garbage-appended": lambda raw: raw + b"\x00garbage\xff",
    "last-byte-cut": lambda raw: raw[:-1],
}


Events = list[dict[str, Any]]


def _log_edit(change: Callable[[Events], Events]) -> Damage:
    """A damage of a device log that keeps every line's checksum right: bad values, not bytes."""

    def edit(raw: bytes) -> bytes:
        events = [eventlines.decode(line) for line in raw.splitlines()]
        return eventlines.encode_all(change(events))

    return edit


def _sealed_edit(change: Callable[[Events], Events]) -> Damage:
    """The same for a sealed month (a TinyDB file: its ``events`` table, and its seal's count
    kept equal to the events, as a month sealed with those events would be)."""

    def edit(raw: bytes) -> bytes:
        doc = json.loads(raw)
        table = doc["events"]
        events = change([table[key] for key in sorted(table, key=int)])
        doc["events"] = {str(i + 1): event for i, event in enumerate(events)}
        for seal in doc["seal"].values():
            seal["count"] = len(events)
        return json.dumps(doc).encode()

    return edit


def _first_answer(events: Events) -> dict[str, Any]:
    return next(e for e in events if e.get("op") == "answer")


def _with(event: dict[str, Any], **values: Any) -> dict[str, Any]:
    return {**event, **values}


def _replace_first_answer(**values: Any) -> Callable[[Events], Events]:
    def change(events: Events) -> Events:
        first = _first_answer(events)
        return [_with(e, **values) if e is first else e for e in events]

    return change


def _append(make: Callable[[Events], dict[str, Any]]) -> Callable[[Events], Events]:
    def change(events: Events) -> Events:
        return [*events, make(events)]

    return change


def _next(events: Events, **values: Any) -> dict[str, Any]:
    """A new event of the file's device, numbered past anything the device wrote."""
    last = events[-1]
    seq = last["seq"] + 1000
    return {"id": f"{last['dev']}-{seq}", "dev": last["dev"], "seq": seq, "at": last["at"]} | values


#: Bad values inside files that still verify: (which file, the damage, whether the first
#: answer of the file is destroyed by it). The desktop's open log is another device's file
#: to the laptop (validated where it comes in); the laptop's sealed month is its own.
VALUES: dict[str, tuple[str, Damage, bool]] = {
    "grade 9": ("desktop log", _log_edit(_replace_first_answer(grade=9)), True),
    "card id garbage": ("desktop log", _log_edit(_replace_first_answer(card="no card")), True),
    "time a text": ("desktop log", _log_edit(_replace_first_answer(at="yesterday")), True),
    "unknown op": ("desktop log", _log_edit(_append(lambda e: _next(e, op="teleport"))), False),
    "undo of the laptop's answer": (
        "desktop log",
        _log_edit(_append(lambda e: _next(e, op="undo", target="laptop-1"))),
        False,
    ),
    "an event of the laptop's in the desktop's log": (
        "desktop log",
        _log_edit(_append(lambda e: _with(_first_answer(e), id="laptop-1", dev="laptop", seq=1))),
        False,
    ),
    "a line twice": ("desktop log", _log_edit(lambda e: [*e, e[-1]]), False),
    "sealed grade 9": ("laptop sealed", _sealed_edit(_replace_first_answer(grade=9)), True),
    "sealed undo of the desktop's answer": (
        "laptop sealed",
        _sealed_edit(_append(lambda e: _next(e, op="undo", target="desktop-1"))),
        False,
    ),
}


@dataclass
class Template:
    """The built store (``root/store``), the devices' homes, and the acknowledged answers."""

    root: Path
    acknowledged: list[str]
    #: Why it could not be built (before the switch-over), else empty.
    failure: str = ""


def _devices(root: Path) -> tuple[Device, Device]:
    store = root / "store"
    return Device("laptop", root / "laptop", store), Device("desktop", root / "desktop", store)


def _build(root: Path) -> list[str]:
    """Two devices answer over four months, reopening between: sealed months and open logs."""
    laptop, desktop = _devices(root)
    now = datetime.now(UTC)
    ids: list[str] = []
    for device, days_ago, count in (
        (laptop, 105, 12),
        (desktop, 70, 10),
        (laptop, 35, 10),
        (desktop, 0, 6),
        (laptop, 0, 5),
    ):
        with device.open() as store:
            start = now - timedelta(days=days_ago, minutes=count + 1)
            for i in range(count):
                card = CARDS[(i * 5 + days_ago) % len(CARDS)]
                ids.append(answer(store, card, grade_of(i), start + timedelta(minutes=i)))
    return ids


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    root = tmp_path_factory.mktemp("template")
    try:
        return Template(root, _build(root))
    except Exception:
        # Each test then fails saying why (an error in a fixture would not be its xfail).
        return Template(root, [], traceback.format_exc())


def _targets(root: Path) -> list[str]:
    """Every file of the store folder and of the laptop's cache (relative to ``root``)."""
    return [f"store/{name}" for name in files_of(root / "store")] + [
        f"laptop/cache/{name}" for name in files_of(root / "laptop" / "cache")
    ]


def _api(call: Callable[[], object], log: list[str]) -> object:
    try:
        return call()
    except StoreError as exc:
        log.append(f"StoreError: {exc.message}")
        return None
    except Exception:
        log.append(traceback.format_exc())
        return None


def _case(
    template: Template,
    case: Path,
    name: str,
    damage: Damage,
    destroys: set[str] | None = None,
    reported: bool = False,
) -> None:
    shutil.copytree(template.root, case)
    laptop, desktop = _devices(case)
    # The copy is another folder (its cache is its own): the laptop reads it once, as it
    # had read the store before the damage.
    with laptop.open() as store:
        store.reviews()
    before = {n: (case / "store" / n).read_bytes() for n in files_of(case / "store")}
    target = case / name
    damaged = damage(target.read_bytes())
    if damaged is None:
        target.unlink()
    else:
        target.write_bytes(damaged)
    stored = name.removeprefix("store/")
    # Answers whose only copy in the store folder was in the damaged file.
    destroyable = (
        destroys
        if destroys is not None
        else {
            rid
            for rid in template.acknowledged
            if [n for n, raw in before.items() if f'"{rid}"'.encode() in raw] == [stored]
        }
    )
    theirs = {
        n: raw for n, raw in files_of(case / "store").items() if n.startswith("devices/desktop")
    }
    errors: list[str] = []
    outputs: list[str] = []
    stats_code, out = laptop.run("stats")
    outputs.append(out)
    expected = set(template.acknowledged)

    def write() -> str:
        with laptop.open() as store:
            return answer(store, CARDS[3], 3, datetime.now(UTC))

    written = _api(write, errors)
    if isinstance(written, str):
        expected.add(written)
    check_code, check_out = laptop.run("doctor", "--check")
    fix_code, fix_out = laptop.run("doctor")
    outputs += [check_out, fix_out]

    def read(device: Device) -> set[str]:
        with device.open() as store:
            return {r.id for r in store.reviews()}

    got = _api(lambda: read(laptop), errors)
    now_theirs = {
        n: raw for n, raw in files_of(case / "store").items() if n.startswith("devices/desktop")
    }
    _api(lambda: read(desktop), errors)
    tracebacks = [t for t in errors + outputs if "Traceback" in t]
    assert not tracebacks, tracebacks[0]
    assert -1 not in (stats_code, check_code, fix_code)
    assert isinstance(got, set), f"the laptop can't read after the doctor: {errors}\n{fix_out}"
    lost = expected - got
    assert lost <= destroyable, f"lost beyond the damage: {sorted(lost - destroyable)}\n{fix_out}"
    if lost:
        assert check_code != 0, f"{len(lost)} answers lost, doctor --check said: {check_out}"
    if reported:
        assert check_code != 0, f"a bad event, and doctor --check said: {check_out}"
    assert now_theirs == theirs, "the laptop wrote in the desktop's folder"


def test_the_store_holds_the_files_the_matrix_expects(template: Template) -> None:
    assert not template.failure, template.failure
    names = _targets(template.root)
    assert len(template.acknowledged) == 43
    assert "store/quizzer-store.json" in names
    for device in ("laptop", "desktop"):
        mine = [n for n in names if n.startswith(f"store/devices/{device}/")]
        assert any(n.endswith(".log") for n in mine), mine
        assert any(n.endswith(".json") and not n.endswith("device.json") for n in mine), mine
    assert any(n.startswith("laptop/cache/") for n in names)


@pytest.mark.parametrize("kind", list(DAMAGES))
def test_every_file_damaged_every_way(template: Template, tmp_path: Path, kind: str) -> None:
    assert not template.failure, template.failure
    assert (template.root / "store" / "quizzer-store.json").is_file(), "not the folder layout"
    failures = []
    for index, name in enumerate(_targets(template.root)):
        try:
            _case(template, tmp_path / str(index), name, DAMAGES[kind])
        except AssertionError as exc:
            failures.append(f"{name} {kind}: {str(exc)[:600]}")
    assert not failures, "\n\n".join(failures)


def _file_of(template: Template, which: str) -> str:
    """The relative name of the desktop's open log or of the laptop's oldest sealed month."""
    device, kind = which.split()
    names = [n for n in _targets(template.root) if n.startswith(f"store/devices/{device}/")]
    suffix = ".log" if kind == "log" else ".json"
    return next(n for n in sorted(names) if n.endswith(suffix) and not n.endswith("device.json"))


@pytest.mark.parametrize("what", list(VALUES))
def test_bad_values_inside_files_that_verify(template: Template, tmp_path: Path, what: str) -> None:
    """Reported (doctor --check is not ok), skipped, and nothing else lost; an event can't
    speak for another device, nor undo another device's answer."""
    assert not template.failure, template.failure
    assert (template.root / "store" / "quizzer-store.json").is_file(), "not the folder layout"
    which, damage, destroys_first = VALUES[what]
    name = _file_of(template, which)
    raw = (template.root / name).read_bytes()
    if name.endswith(".log"):
        first = _first_answer([eventlines.decode(line) for line in raw.splitlines()])
    else:
        table = json.loads(raw)["events"]
        first = _first_answer([table[key] for key in sorted(table, key=int)])
    destroys = {str(first["id"])} if destroys_first else set()
    harmless = what == "a line twice"
    _case(template, tmp_path / "case", name, damage, destroys, reported=not harmless)
    if what == "an event of the laptop's in the desktop's log":
        laptop, _ = _devices(tmp_path / "case")
        with laptop.open() as store:
            mine = [r for r in store.reviews() if r.id == "laptop-1"]
        assert len(mine) == 1 and mine[0].card_id == CARDS[(105) % len(CARDS)].id
