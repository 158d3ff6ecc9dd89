"""`quizzer devices`: the table and --json over a store folder, a clear word for an old store
file, exit 3 with no traceback where there is no store."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

import quizzer.progress.device as device
import quizzer.progress.devicelog as devicelog
import quizzer.progress.layout as layout
from quizzer.cli.main import main

NOW = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
CARD = "quantization/c001|ru:term>en:definition"


def _store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    store = tmp_path / "store"
    layout.create_store(store, NOW)
    for name in ("desk", "laptop"):
        monkeypatch.setenv(device.ENV_DEVICE, name)
        with device.claim_device(store, NOW) as claimed:
            log = devicelog.DeviceLog(claimed.folder, name, NOW)
            at = 1_796_461_200_000 + len(name)
            log.append(
                [
                    {
                        "id": f"{name}-1",
                        "dev": name,
                        "seq": 1,
                        "at": at,
                        "op": "answer",
                        "card": CARD,
                        "grade": 3,
                        "mode": "flip",
                        "ms": 5,
                    }
                ],
                NOW,
            )
            log.close()
    return store


def test_the_table_lists_each_device_and_marks_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _store(tmp_path, monkeypatch)
    assert main(["devices", "--db", str(store)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["DEVICE", "NAME", "LAST", "EVENT", "(UTC)", "ANSWERS", "VERIFIES"]
    assert out[1].split() == ["desk", "desk", "2026-12-05", "09:00", "1", "yes"]
    assert out[2].split() == ["*", "laptop", "laptop", "2026-12-05", "09:00", "1", "yes"]


def test_json_gives_every_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _store(tmp_path, monkeypatch)
    assert main(["devices", "--json", "--db", str(store)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(d["device"], d["answers"], d["verifies"], d["this"]) for d in found] == [
        ("desk", 1, True, False),
        ("laptop", 1, True, True),
    ]


def test_a_device_name_with_terminal_codes_is_shown_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _store(tmp_path, monkeypatch)
    (store / "devices" / "desk" / "device.json").write_text(
        json.dumps({"name": "evil\x1b]52;c;x\x07"})
    )
    assert main(["devices", "--db", str(store)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "evil\\x1b]52;c;x\\x07" in out


def test_no_store_is_exit_3_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["devices", "--db", str(tmp_path / "missing")]) == 3
    err = capsys.readouterr().err
    assert "no progress store folder here" in err and "Traceback" not in err
    assert not (tmp_path / "missing").exists()


def test_an_old_store_file_is_named_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "progress.json"
    old.write_text('{"cards": {}, "reviews": {}}')
    assert main(["devices", "--db", str(old)]) == 0
    assert "single-writer layout" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.json"]
