"""A read-only reader racing another process's compactions sees a consistent store, never damage."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from quizzer.errors import StoreError
from quizzer.progress import open_store
from quizzer.progress.history import read_log

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)

# A writer that answers in short sessions, each closed (so compacted): many compactions a second.
_WRITER = """
import os, random, sys, time
from datetime import UTC, datetime, timedelta
from quizzer.progress import open_store
db, seconds, stop = sys.argv[1], float(sys.argv[2]), sys.argv[3]
t0 = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
n = 0
end = time.monotonic() + seconds
print("ready", flush=True)
while time.monotonic() < end and not os.path.exists(stop):
    with open_store(db, tz=UTC, rng=random.Random(n)) as store:
        for _ in range(3):
            store.record(f"demo/c{n % 40}|ru:term>bn:definition", 3, t0 + timedelta(minutes=n))
            n += 1
print(n, flush=True)
"""


def test_read_only_opens_during_compactions_never_report_damage(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        store.record("demo/c0|ru:term>bn:definition", 3, NOW)
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(db), "60", str(tmp_path / "stop")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    errors: list[str] = []
    opens = 0
    last_reviews = last_log = 0
    # At least 3.5 s and 10 opens, however loaded the machine; then the writer is told to
    # stop (it gives up by itself after 60 s).
    start = time.monotonic()
    try:
        while (time.monotonic() < start + 3.5 or opens < 10) and writer.poll() is None:
            try:
                with open_store(db, read_only=True, tz=UTC) as store:
                    opens += 1
                    reviews = len(store.reviews())
                    cards = len(store)
                    log = len(read_log(db, store.state.gen))
            except StoreError as exc:
                errors.append(str(exc))
                continue
            # The writer only adds answers: what a reader sees never shrinks.
            assert reviews >= last_reviews and log >= last_log
            assert 1 <= cards <= 40
            last_reviews, last_log = reviews, log
    finally:
        (tmp_path / "stop").touch()
        out, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    assert not errors, f"{len(errors)} of {opens + len(errors)} opens failed: {errors[:3]}"
    assert opens >= 10  # enough to meet compactions (about 1 in 25 opens did before the fix)
    with open_store(db, read_only=True, tz=UTC) as store:
        assert len(store.reviews()) == int(out.split()[-1]) + 1
