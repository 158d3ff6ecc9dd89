"""Two devices study one store carried by a real sync engine, online and offline.

The laptop answers 30 cards; after a sync the desktop holds those answers and its due
queue is the laptop's. Then both go offline and answer 20 cards each, 10 of them the
same cards; after the next sync both hold the union (every answer once), the same state
for every card and the same queue, no sync engine made a conflict copy, and no file was
written by both devices. Carried by Syncthing (two real daemons), git (commit, pull,
push) and offline copies (files copied both ways).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sync import syncthing
from tests.sync.devices import (
    CARDS,
    Carrier,
    CopyCarrier,
    Device,
    GitCarrier,
    SyncthingCarrier,
    answer,
    due_queue,
    grade_of,
    leftovers,
    listing,
    moment,
    states,
    two_devices,
)


@pytest.fixture(params=["syncthing", "git", "copy"])
def carrier(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Carrier]:
    """Each carrier in turn; Syncthing skips, saying why, only when it isn't installed."""
    if request.param == "copy":
        yield CopyCarrier(tmp_path)
    elif request.param == "git":
        yield GitCarrier(tmp_path)
    else:
        if not syncthing.installed():
            pytest.skip("syncthing is not installed (Debian package `syncthing`; .ci/run has it)")
        with syncthing.syncthing_pair(tmp_path / "st") as daemons:
            print(f"syncthing: both daemons up and connected in {daemons.startup_s:.2f} s")
            yield SyncthingCarrier(daemons)


def test_offline_answers_on_two_devices_meet_as_their_union(
    carrier: Carrier, tmp_path: Path
) -> None:
    laptop, desktop = two_devices(carrier, tmp_path)
    first, second = _study_offline_and_sync(carrier, laptop, desktop)
    print(f"{carrier.name}: 30 answers synced in {first:.2f} s, 40 offline ones in {second:.2f} s")


def test_devices_told_apart_by_their_name_alone(tmp_path: Path) -> None:
    """The same with one local state and cache folder for both devices, as a script on one
    machine has: only ``$QUIZZER_DEVICE`` tells them apart."""
    carrier = CopyCarrier(tmp_path)
    laptop = Device("laptop", tmp_path / "machine", carrier.folder("a") / "progress")
    desktop = Device("desktop", tmp_path / "machine", carrier.folder("b") / "progress")
    _study_offline_and_sync(carrier, laptop, desktop)


def _study_offline_and_sync(
    carrier: Carrier, laptop: Device, desktop: Device
) -> tuple[float, float]:
    """The scenario of the module docstring; the seconds the first and the second sync took."""
    acknowledged: list[str] = []

    # Online: the laptop answers all 30 cards, the desktop gets them.
    with laptop.open() as store:
        for i, card in enumerate(CARDS):
            acknowledged.append(answer(store, card, grade_of(i), moment(i)))
    assert (laptop.store_path / "quizzer-store.json").is_file(), "not the folder layout"
    first = carrier.sync()
    tomorrow = moment(24 * 60)
    with laptop.open() as store:
        laptop_queue, laptop_states = due_queue(store, tomorrow), states(store)
    with desktop.open() as store:
        assert [r.id for r in store.reviews()] == acknowledged
        assert states(store) == laptop_states
        assert due_queue(store, tomorrow) == laptop_queue

    # Offline: 20 answers each, cards 0-9 on both, then 10-19 on the laptop and 20-29 on
    # the desktop; their times interleave.
    carrier.offline()
    for device, cards, offset in (
        (laptop, CARDS[:10] + CARDS[10:20], 0.0),
        (desktop, CARDS[:10] + CARDS[20:30], 0.5),
    ):
        with device.open() as store:
            for i, card in enumerate(cards):
                at = moment(2 * 24 * 60 + 3 * i + offset)
                acknowledged.append(answer(store, card, grade_of(i + 3), at))
    carrier.online()
    second = carrier.sync()

    later = moment(5 * 24 * 60)
    seen = {}
    for device in (laptop, desktop):
        with device.open() as store:
            ids = [r.id for r in store.reviews()]
            assert len(ids) == len(set(ids)) == 70, f"{device.name}: an answer twice or lost"
            assert set(ids) == set(acknowledged), device.name
            seen[device.name] = (ids, states(store), due_queue(store, later))
    assert seen["laptop"] == seen["desktop"]
    # Cards 0-9 were answered on both devices: three answers each, all in their history.
    with laptop.open() as store:
        assert all(len(store.reviews(card)) == 3 for card in CARDS[:10])
    for side in ("a", "b"):
        assert leftovers(carrier.folder(side)) == [], f"{carrier.name} made conflict copies"
    # Each device wrote only its own files (the store's marker: the device that made it).
    assert not laptop.written & desktop.written, sorted(laptop.written & desktop.written)
    # `quizzer devices` on either side: both devices, their answers, their logs verify.
    for device in (laptop, desktop):
        listed = listing(device)
        assert {d["name"]: d["answers"] for d in listed.values()} == {"laptop": 50, "desktop": 20}
        assert all(d["verifies"] and not d["conflict_copies"] for d in listed.values())
    return first, second


def test_two_devices_that_each_began_the_store_before_their_first_sync(
    carrier: Carrier, tmp_path: Path
) -> None:
    """Both machines open the (still empty) synced folder and study before it ever synced:
    each makes the store; after the sync both hold both devices' answers. Only the store's
    marker was written on both sides, with the same bytes, so no engine sees a conflict in it
    (git would stop at an add/add conflict of two different markers)."""
    laptop, desktop = two_devices(carrier, tmp_path)
    carrier.offline()
    acknowledged = []
    for device, cards, offset in ((laptop, CARDS[:12], 0.0), (desktop, CARDS[6:18], 0.5)):
        with device.open() as store:
            for i, card in enumerate(cards):
                acknowledged.append(answer(store, card, grade_of(i), moment(2 * i + offset)))
    assert (laptop.store_path / "quizzer-store.json").is_file(), "not the folder layout"
    carrier.online()
    carrier.sync()
    seen = []
    for device in (laptop, desktop):
        with device.open() as store:
            ids = [r.id for r in store.reviews()]
            assert sorted(ids) == sorted(acknowledged), device.name
            seen.append((ids, states(store)))
    assert seen[0] == seen[1]
    carrier.sync()
    for side in ("a", "b"):
        assert leftovers(carrier.folder(side)) == []
    assert laptop.written & desktop.written <= {"quizzer-store.json"}
    markers = {(d.store_path / "quizzer-store.json").read_bytes() for d in (laptop, desktop)}
    assert len(markers) == 1


def test_two_devices_study_at_once_while_syncthing_carries_their_logs(
    syncthing_pair: syncthing.Pair, tmp_path: Path
) -> None:
    """Online, both devices answer by turns while Syncthing scans and pulls in between: a
    device opens the store while the other's log is being replaced under it, or arrives cut
    mid-line. Every open succeeds; once in sync both hold every answer once, the same states."""
    carrier = SyncthingCarrier(syncthing_pair)
    laptop, desktop = two_devices(carrier, tmp_path)
    acknowledged: list[str] = []
    for i in range(40):
        for device, offset in ((laptop, 0.0), (desktop, 0.5)):
            with device.open() as store:
                card = CARDS[(i * 7 + int(offset * 6)) % len(CARDS)]
                acknowledged.append(answer(store, card, grade_of(i), moment(2 * i + offset)))
        if i % 4 == 3:
            # Scans return when done; the pulls they start run while the next answers go in.
            for daemon in syncthing_pair.daemons:
                daemon.scan()
    took = carrier.sync()
    seen = []
    for device in (laptop, desktop):
        with device.open() as store:
            ids = [r.id for r in store.reviews()]
            assert sorted(ids) == sorted(acknowledged), device.name
            seen.append((ids, states(store)))
    assert seen[0] == seen[1]
    # (What each session changed in its folder includes Syncthing's pulls here: no footprint
    # check; a file both devices wrote would have left a conflict copy.)
    for side in ("a", "b"):
        assert leftovers(carrier.folder(side)) == []
    print(f"syncthing: 80 answers given by turns, in sync {took:.2f} s after the last")
