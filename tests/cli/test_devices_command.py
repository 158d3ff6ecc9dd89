"""`quizzer devices`: the table and --json over a store folder (how far this device's view is
behind each device), a clear word for an old store file, exit 3 with no traceback where there
is no store and for a file or folder that is no store (nothing written), as for the other
store commands."""

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
    layout.create_store(store)
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
    head = ["DEVICE", "NAME", "LAST", "EVENT", "(UTC)", "ANSWERS", "VERIFIES", "BEHIND"]
    assert out[0].split() == head
    # No device has opened the store yet: no view has taken in any event.
    assert out[1].split() == ["desk", "desk", "2026-12-05", "09:00", "1", "yes", "1"]
    assert out[2].split() == ["*", "laptop", "laptop", "2026-12-05", "09:00", "1", "yes", "1"]


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


def test_behind_counts_the_events_this_devices_view_has_not_taken_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from quizzer.progress import open_store

    db = tmp_path / "store"
    for name, count in (("laptop", 2), ("desk", 3)):
        monkeypatch.setenv(device.ENV_DEVICE, name)
        with open_store(db, tz=UTC) as store:
            for n in range(count):
                store.record(CARD, 3, NOW.replace(minute=n))
    monkeypatch.setenv(device.ENV_DEVICE, "laptop")

    def behind() -> dict[str, int]:
        assert main(["devices", "--json", "--db", str(db)]) == 0
        return {d["device"]: d["behind"] for d in json.loads(capsys.readouterr().out)}

    assert behind() == {"desk": 3, "laptop": 0}  # the laptop closed before the desk wrote
    assert main(["devices", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[-1] == "3" and out[2].split()[-1] == "0"
    assert out[3].startswith("BEHIND: events this device's view hasn't taken in yet")
    with open_store(db, tz=UTC):
        pass  # the laptop opens the store: its view takes in the desk's answers
    assert behind() == {"desk": 0, "laptop": 0}


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("README.md", "# notes\n"),
        ("progress.json", '{"meta": {"1": {"schema": 99}}}'),
        ("binary.db", "\x00\x01garbage"),
    ],
)
def test_a_file_that_is_no_store_is_exit_3_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert main(["devices", "--db", str(path)]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"quizzer: error: {path}: not a quizzer progress store (a file that is neither a store "
        "folder nor an old store)",
        "  hint: give --db the store's folder (or an old store's progress.json); nothing was "
        "changed",
    ]
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert path.read_text(encoding="utf-8") == content


def test_a_folder_of_other_things_is_exit_3_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("keep\n", encoding="utf-8")
    assert main(["devices", "--db", str(notes)]) == 3
    err = capsys.readouterr().err
    assert err.startswith(f"quizzer: error: {notes}: not a quizzer progress store (a folder")
    assert "Traceback" not in err and "Error" not in err
    assert [p.name for p in notes.iterdir()] == ["todo.txt"]
