"""An upgrade killed (SIGKILL) at any moment resumes on the next run: in the end every old
answer is in the device log exactly once, no line is damaged, and the old files are all kept."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import quizzer.progress.devicelog as devicelog
import quizzer.progress.layout as layout
import quizzer.progress.upgrade as upgrade

START = datetime(2025, 1, 1, 8, tzinfo=UTC)
_RUN = """
import sys, datetime as d
from pathlib import Path
import quizzer.progress.upgrade as upgrade
print("ready", flush=True)
sys.stdin.readline()
upgrade.upgrade(Path(sys.argv[1]), d.datetime(2026, 12, 5, tzinfo=d.UTC))
print("done", flush=True)
"""


def _schema_1_store(path: Path, answers: int) -> list[str]:
    """An old schema-1 store (one TinyDB document, answers without ``phase``)."""
    reviews = {}
    for n in range(1, answers + 1):
        at = START + timedelta(minutes=7 * n)
        card = f"deck/c{n % 300:03d}|ru:term>en:definition"
        reviews[str(n)] = {
            "id": f"r{n}",
            "card_id": card,
            "reviewed_at": at.isoformat(),
            "grade": n % 4 + 1,
            "mode": "flip",
            "duration_ms": n,
        }
    doc = {"cards": {}, "reviews": reviews, "settings": {"1": {"desired_retention": 0.9}}}
    path.write_text(json.dumps(doc))
    return [f"r{n}" for n in range(1, answers + 1)]


def _start(store: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", _RUN, str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    return child


def _finish(store: Path, env: dict[str, str]) -> None:
    child = _start(store, env)
    out, err = child.communicate("go\n", timeout=120)
    assert out == "done\n", err


def _check(store: Path, ids: list[str], old: bytes) -> None:
    assert not upgrade.needs_upgrade(store)
    result = devicelog.read_since(layout.device_dir(store, "desk"))
    assert result.damage == [] and result.losses == []
    reviews = Counter(str(event["review"]) for event in result.events if event["op"] == "answer")
    assert sorted(reviews) == sorted(ids) and set(reviews.values()) == {1}
    assert [event["seq"] for event in result.events] == list(range(1, len(ids) + 2))
    assert (layout.legacy_dir(store) / "progress.json").read_bytes() == old


@pytest.mark.slow
def test_an_upgrade_killed_at_any_moment_loses_and_repeats_nothing(tmp_path: Path) -> None:
    old_store = tmp_path / "old.json"
    ids = _schema_1_store(old_store, 12_000)
    old = old_store.read_bytes()
    env = os.environ | {"QUIZZER_DEVICE": "desk"}
    chance = random.Random(26)
    took = 0.0
    states: Counter[str] = Counter()
    # Kill until 15 kills fell inside an upgrade (a loaded machine finishes some before the
    # kill), within a bound so the test always ends.
    for run in range(60):
        if sum(states.values()) - states["done"] >= 15:
            break
        store = tmp_path / f"run{run}" / "progress.json"
        store.parent.mkdir()
        store.write_bytes(old)
        child = _start(store, env)
        assert child.stdin is not None
        began = time.monotonic()
        child.stdin.write("go\n")
        child.stdin.flush()
        if run:  # the first run, whole, measures how long an upgrade takes here
            time.sleep(chance.uniform(0.02, took))
            child.send_signal(signal.SIGKILL)
        child.communicate(timeout=120)
        took = took or time.monotonic() - began
        folder = layout.device_dir(store, "desk")
        if child.returncode == -signal.SIGKILL:
            logged = len(devicelog.read_since(folder).events) if folder.is_dir() else 0
            done = not upgrade.needs_upgrade(store)
            states["done" if done else "moving" if not store.is_dir() else f"{logged} logged"] += 1
            if not done:
                _finish(store, env)
        _check(store, ids, old)
    # The kills fell at different points of the upgrade.
    assert sum(states.values()) - states["done"] >= 15 and len(states) >= 2, states
