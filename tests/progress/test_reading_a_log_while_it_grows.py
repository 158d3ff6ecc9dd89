"""Another device reads a log while its writer appends (a live-synced folder, a share): it
only ever sees whole lines, each event once, in order, and marks carry it to the end."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import quizzer.progress.devicelog as devicelog

_WRITER = """
import sys, datetime as d
from pathlib import Path
from quizzer.progress.devicelog import DeviceLog
now = d.datetime(2026, 12, 5, tzinfo=d.UTC)
log = DeviceLog(Path(sys.argv[1]), "w", now)
for n in range(int(sys.argv[2])):
    seq = log.next_seq
    typed = "কোয়ান্টাইজেশন " * (seq % 40)  # lines of many lengths, some over a page
    event = {"id": f"w-{seq}", "dev": "w", "seq": seq, "at": seq, "op": "answer"}
    log.append([event | {"typed": typed}], now)
log.close()
"""


def test_a_reader_beside_a_writer_sees_whole_events_once(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    total = 1500
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(folder), str(total)])
    seen: list[int] = []
    mark = devicelog.Mark()
    reads = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        finished = writer.poll() is not None
        result = devicelog.read_since(folder, mark)
        assert result.damage == [] and result.losses == []
        seen += [event["seq"] for event in result.events]
        mark = result.mark
        reads += 1
        if finished:
            break
    assert writer.wait(timeout=60) == 0
    assert seen == list(range(1, total + 1))
    assert reads > 2  # it did read while the log grew
