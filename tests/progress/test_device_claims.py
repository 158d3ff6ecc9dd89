"""Device identity: made once per machine, named by $QUIZZER_DEVICE, never shared by two
machines (a copied device folder or state dir makes a new id), and the per-device lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

import quizzer.progress.device as device
import quizzer.progress.layout as layout
from quizzer import paths
from quizzer.errors import StoreError

NOW = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    folder = tmp_path / "store"
    layout.create_store(folder)
    return folder


def test_a_machine_keeps_one_random_id(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(device.ENV_DEVICE, raising=False)
    with device.claim_device(store, NOW) as first:
        assert layout.DEVICE_RE.fullmatch(first.device) and len(first.device) == 10
        assert first.notice is None
    with device.claim_device(store, NOW) as second:
        assert second.device == first.device
    record = json.loads((paths.state_dir() / "device.json").read_text())
    assert record["device"] == first.device
    written = json.loads((first.folder / "device.json").read_text())
    assert written["claim"] == record["claim"] and written["device"] == first.device


def test_quizzer_device_names_the_folder(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, "laptop")
    with device.claim_device(store, NOW) as claimed:
        assert claimed.device == "laptop"
        assert claimed.folder == store / "devices" / "laptop"
        assert json.loads((claimed.folder / "device.json").read_text())["name"] == "laptop"


@pytest.mark.parametrize("name", ["Laptop", "a b", "../x", "x" * 33])
def test_an_unsafe_device_name_is_refused(
    store: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, name)
    with pytest.raises(StoreError, match="not a device name"):
        device.claim_device(store, NOW)
    assert layout.device_folders(store) == []


def test_a_device_folder_copied_from_another_machine_makes_a_new_id(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(device.ENV_DEVICE, raising=False)
    with device.claim_device(store, NOW) as mine:
        ours = mine.device
    # The other machine's folder under our id: same name, another claim.
    (mine.folder / "device.json").write_text(json.dumps({"device": ours, "claim": "theirs"}))
    with device.claim_device(store, NOW) as again:
        assert again.device != ours
        assert again.notice is not None and ours in again.notice and again.device in again.notice
        assert json.loads((mine.folder / "device.json").read_text())["claim"] == "theirs"
    with device.claim_device(store, NOW) as later:
        assert later.device == again.device and later.notice is None


def test_a_state_dir_copied_from_another_host_makes_a_new_id(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(device.ENV_DEVICE, raising=False)
    with device.claim_device(store, NOW) as first:
        pass
    state = paths.state_dir() / "device.json"
    record = json.loads(state.read_text()) | {"host": "another-host"}
    state.write_text(json.dumps(record))
    with device.claim_device(store, NOW) as second:
        assert second.device != first.device


def test_two_processes_of_one_device_the_second_is_refused(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, "desk")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, datetime as d\n"
            "from pathlib import Path\n"
            "import quizzer.progress.device as device\n"
            "c = device.claim_device(Path(sys.argv[1]), d.datetime.now(d.UTC))\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n",
            str(store),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=os.environ.copy(),
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(
            StoreError, match="another quizzer on this machine is writing as device desk"
        ):
            device.claim_device(store, NOW, wait=0.2)
    finally:
        holder.communicate("")
    # Its lock went with it.
    with device.claim_device(store, NOW) as claimed:
        assert claimed.device == "desk"


def test_one_process_may_not_claim_its_own_device_twice(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, "desk")
    with device.claim_device(store, NOW), pytest.raises(StoreError, match="writing as device desk"):
        device.claim_device(store, NOW)


def test_two_devices_claim_one_folder_at_the_same_moment(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripts = []
    for name in ("one", "two"):
        env = os.environ | {device.ENV_DEVICE: name}
        scripts.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "import sys, time, datetime as d\n"
                    "from pathlib import Path\n"
                    "import quizzer.progress.device as device\n"
                    "with device.claim_device(Path(sys.argv[1]), d.datetime.now(d.UTC)) as c:\n"
                    "    print(c.device, flush=True); time.sleep(0.5)\n",
                    str(store),
                ],
                stdout=subprocess.PIPE,
                env=env,
                text=True,
            )
        )
    outputs = [script.communicate(timeout=30)[0].strip() for script in scripts]
    assert [script.returncode for script in scripts] == [0, 0]
    assert outputs == ["one", "two"]
    assert sorted(p.name for p in layout.device_folders(store)) == ["one", "two"]


def test_the_same_moment_in_threads_gives_one_claim(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, "race")
    results: list[str] = []

    def claim() -> None:
        try:
            with device.claim_device(store, NOW, wait=5) as claimed:
                results.append(claimed.device)
        except StoreError as error:
            results.append(str(error))

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["race"] * 4
