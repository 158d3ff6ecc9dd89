"""Another device's log that arrives in pieces, cut anywhere, even mid-line, is read right.

A sync engine may hand over a growing log at any moment: a prefix of it, its last line
cut short. The desktop opens the store after each piece (its cache remembering how far it
read); when the whole log is there its states, log and queue are the laptop's, and no
piece made it report damage or lose an answer.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.sync.devices import (
    CARDS,
    CopyCarrier,
    answer,
    due_queue,
    grade_of,
    moment,
    states,
    two_devices,
)


def test_a_log_cut_anywhere_is_read_right_once_whole(tmp_path: Path) -> None:
    carrier = CopyCarrier(tmp_path)
    laptop, desktop = two_devices(carrier, tmp_path)
    with laptop.open() as store:
        for i, card in enumerate(CARDS):
            answer(store, card, grade_of(i), moment(i))
    carrier.sync()
    with desktop.open() as store:
        answer(store, CARDS[0], 3, moment(100))
    with laptop.open() as store:
        for i, card in enumerate(CARDS[:12]):
            answer(store, card, grade_of(i + 2), moment(200 + 5 * i))
    (log,) = [p for p in (laptop.store_path / "devices" / "laptop").glob("*.log")]
    whole = log.read_bytes()
    theirs = desktop.store_path / log.relative_to(laptop.store_path)
    # Everything of the laptop's but this log reaches the desktop first.
    for path in (laptop.store_path / "devices" / "laptop").iterdir():
        if path != log:
            shutil.copy2(path, theirs.parent / path.name)
    counts = []
    for cut in [*range(0, len(whole), 97), len(whole)]:
        theirs.write_bytes(whole[:cut])
        with desktop.open() as store:
            counts.append(len(store.reviews()))
        code, said = desktop.run("devices", "--json")
        assert code == 0 and all(d["verifies"] for d in json.loads(said)), f"cut at {cut}: {said}"
    assert counts == sorted(counts), "answers seen went back while the log grew"
    carrier.sync()  # the laptop gets the desktop's answer
    with laptop.open() as store:
        expected = [r.id for r in store.reviews()], states(store), due_queue(store, moment(3000))
    with desktop.open() as store:
        got = [r.id for r in store.reviews()], states(store), due_queue(store, moment(3000))
    assert got == expected
    assert len(got[0]) == 30 + 1 + 12
