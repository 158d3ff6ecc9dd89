"""Several devices, one store folder: each writes only its own folder, every device derives the
same card states from the union of the logs, with or without its cache."""

from __future__ import annotations

import shutil
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

import quizzer.progress.derive as derive
import quizzer.progress.events as ev
from quizzer import paths
from quizzer.progress.store import Store, open_store
from quizzer.progress.storepath import list_devices
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
CARDS = [f"demo/c{i}|en:term>en:definition" for i in range(6)]


def as_device(monkeypatch: pytest.MonkeyPatch, name: str, path: Path) -> Store:
    monkeypatch.setenv("QUIZZER_DEVICE", name)
    return open_store(path, tz=UTC)


def states(store: Store) -> dict[str, dict[str, Any]]:
    return {s.card_id: s.to_dict() for s in sorted(store.cards(), key=lambda s: s.card_id)}


def study(store: Store, start: datetime, count: int, first: int = 0) -> None:
    for n in range(count):
        card = CARDS[(first + n) % len(CARDS)]
        store.record(card, (3, 1, 4)[n % 3], start + timedelta(hours=n * 7), Answer("typed", 900))


def drop_caches() -> None:
    shutil.rmtree(paths.cache_dir() / "stores", ignore_errors=True)


def test_two_devices_see_the_union_and_the_same_states(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "laptop", path) as a:
        study(a, T0, 12)
    with as_device(monkeypatch, "desktop", path) as b:
        study(b, T0 + timedelta(hours=3), 10, first=2)  # interleaved in time, same cards
        seen_by_b = states(b)
        assert len(b.reviews()) == 22
    with as_device(monkeypatch, "laptop", path) as a:
        assert states(a) == seen_by_b
        assert sorted(d.device for d in list_devices(path)) == ["desktop", "laptop"]
    drop_caches()
    with as_device(monkeypatch, "laptop", path) as a:
        assert states(a) == seen_by_b  # the cache is only a shortcut
    written = {p.parent.name for p in (path / "devices").rglob("*.log")}
    assert written <= {"laptop", "desktop"}


def test_an_answer_that_arrives_late_is_replayed_in_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        study(a, T0 + timedelta(days=5), 6)
    # b answered earlier (offline), its log arrives after a's cache was written.
    with as_device(monkeypatch, "b", path) as b:
        study(b, T0, 6)
    with as_device(monkeypatch, "a", path) as a:
        warm = states(a)
        events = [e for e in a._replay.events.values()]
    drop_caches()
    with as_device(monkeypatch, "a", path) as a:
        assert states(a) == warm
    replayed = derive.replay(events, UTC)
    assert {c: s.to_dict() for c, s in sorted(replayed.states.items())} == warm


def test_undo_takes_back_only_this_devices_own_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        mine = a.record(CARDS[0], 3, T0)
    with as_device(monkeypatch, "b", path) as b:
        b.record(CARDS[1], 3, T0 + timedelta(minutes=1))
        b.merge_batch([mine_like(mine.card_id)], [])
        assert b.undo_depth == 1
        taken = b.undo()
        assert isinstance(taken, Review) and taken.card_id == CARDS[1]
        assert b.undo() is None  # a's answer and the merged one stay
        assert {r.card_id for r in b.reviews()} == {CARDS[0], CARDS[2]}
    with as_device(monkeypatch, "a", path) as a:
        assert a.undo_depth == 1
        assert {r.card_id for r in a.reviews()} == {CARDS[0], CARDS[2]}


def mine_like(card: str) -> Any:
    from quizzer.scheduling.review import Review

    return Review(
        id="0001772355600000-abcdef01",
        card_id=CARDS[2],
        reviewed_at=T0 - timedelta(days=3),
        grade=3,
        mode="anki",
        duration_ms=4000,
        phase="new",
        interval_days=4.0,
        due=T0 + timedelta(days=1),
    )


def test_a_merged_anki_answer_keeps_the_due_date_anki_gave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with as_device(monkeypatch, "a", tmp_path / "store") as a:
        a.merge_batch([mine_like(CARDS[2])], [])
        state = a.card(CARDS[2])
        assert state is not None and state.due == T0 + timedelta(days=1)
        assert [r.id for r in a.reviews()] == ["0001772355600000-abcdef01"]
    assert list((tmp_path / "store" / "devices" / "a~merged").glob("*.log"))


def test_settings_last_writer_wins_per_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        a.set_settings(SchedulerSettings(new_per_day=5, desired_retention=0.85))
    with as_device(monkeypatch, "b", path) as b:
        b.set_settings(SchedulerSettings(new_per_day=9, desired_retention=0.85))
    with as_device(monkeypatch, "a", path) as a:
        assert a.settings.new_per_day == 9
        assert a.settings.desired_retention == 0.85


def test_a_conflict_copy_is_not_counted_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        study(a, T0, 5)
    log = next((path / "devices" / "a").glob("*.log"))
    shutil.copy(log, log.with_name(log.stem + ".sync-conflict-20260301-120000-ABCDEFG.log"))
    drop_caches()
    with as_device(monkeypatch, "b", path) as b:
        assert len(b.reviews()) == 5


def bad_line(event: dict[str, Any]) -> bytes:
    """A well-formed, checksummed line holding ``event`` (bad values and all)."""
    body = msgspec.json.encode(event)
    return b"%s\t%08x\n" % (body, zlib.crc32(body))


def test_bad_events_from_another_device_are_reported_and_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        study(a, T0, 3)
    folder = path / "devices" / "rogue"
    folder.mkdir()
    head = {"dev": "rogue", "at": ev.to_ms(T0)}
    lines = [
        {
            "id": "rogue-1",
            "seq": 1,
            "op": "answer",
            "card": CARDS[0],
            "grade": 9,
            "mode": "flip",
            "ms": 1,
        },
        {"id": "rogue-2", "seq": 2, "op": "answer", "mode": "flip", "grade": 3, "ms": 1},
        {"id": "rogue-3", "seq": 3, "op": "undo"},
        {"id": "rogue-4", "seq": 4, "op": "undo", "target": "a-1"},
        {
            "id": "rogue-5",
            "seq": 5,
            "op": "answer",
            "card": CARDS[5],
            "grade": 3,
            "mode": "flip",
            "ms": 1,
        },
    ]
    (folder / "2026-03.log").write_bytes(b"".join(bad_line(head | line) for line in lines))
    with as_device(monkeypatch, "a", path) as a:
        reasons = [p.reason for p in a.problems]
        assert len(reasons) == 4, reasons
        assert any("grade" in r for r in reasons)
        assert any("another device's event" in r for r in reasons)
        assert len(a.reviews()) == 4  # a's three and rogue's good one
        info = {d.device: d for d in list_devices(path)}
        assert not info["rogue"].verifies and info["a"].verifies


def test_a_cache_ahead_of_a_log_that_shrank_reports_the_loss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        study(a, T0, 4)
    with as_device(monkeypatch, "b", path) as b:
        study(b, T0 + timedelta(days=9), 4)
    with as_device(monkeypatch, "a", path) as a:
        assert len(a.reviews()) == 8  # a's cache now holds b's four answers
    log = next((path / "devices" / "b").glob("*.log"))
    data = log.read_bytes()
    log.write_bytes(data[: data.index(b"\n") + 1])  # b's log lost three answers
    with as_device(monkeypatch, "a", path) as a:
        assert a.losses and "b" in a.losses[0]
        assert len(a.reviews()) == 5
    with as_device(monkeypatch, "a", path) as a:
        assert a.losses  # still said, until the doctor has seen it


def test_read_only_writes_nothing_in_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        study(a, T0, 3)
    before = sorted(p for p in path.rglob("*"))
    monkeypatch.setenv("QUIZZER_DEVICE", "b")
    with open_store(path, read_only=True, tz=UTC) as reader:
        assert len(reader.reviews()) == 3
        with pytest.raises(Exception, match="read-only"):
            reader.record(CARDS[0], 3, T0)
    assert sorted(p for p in path.rglob("*")) == before


def test_practice_answers_change_no_schedule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with as_device(monkeypatch, "a", tmp_path / "store") as a:
        a.record(CARDS[0], 3, T0)
        before = a.card(CARDS[0])
        a.record_practice(CARDS[0], 1, T0 + timedelta(minutes=1), Answer(duration_ms=5), "cram")
        a.record_practice(CARDS[1], 4, T0 + timedelta(minutes=2), None, "match")
        assert a.card(CARDS[0]) == before
        assert a.card(CARDS[1]) is None
        assert [p.mode for p in a.practice()] == ["cram", "match"]
        assert len(a.reviews()) == 1


def test_todays_counts_come_through_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        for n, card in enumerate(CARDS[:4]):
            a.record(card, 3, T0 + timedelta(minutes=n))
        counted = a.today("demo", T0 + timedelta(hours=1))
    assert counted.new == 4
    with as_device(monkeypatch, "a", path) as a:
        assert a.today("demo", T0 + timedelta(hours=1)) == counted
        assert a.today("demo", T0 + timedelta(days=3)).new == 0


def test_the_statistics_tally_goes_on_from_the_cache_and_equals_a_recount(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizzer.stats.tally import tally_of

    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        study(a, T0, 8)
        a.stats_tally()  # counted once: the cache keeps it
    with as_device(monkeypatch, "b", path) as b:
        study(b, T0 + timedelta(days=1), 3)
    with as_device(monkeypatch, "a", path) as a:
        a.record(CARDS[1], 4, T0 + timedelta(days=3))
        kept = a.stats_tally().to_data()
        assert kept == tally_of(a.reviews(), UTC, 4).to_data()
        a.undo()
        a.undo()  # the second takes back an answer the cached tally had counted
        assert a.stats_tally().to_data() == tally_of(a.reviews(), UTC, 4).to_data()


@pytest.mark.parametrize("damage", ["flip", "cut", "empty"])
def test_a_damaged_states_cache_is_replayed_past_not_believed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A cache's card lines are decoded only when asked for, so damage anywhere in the file
    must be caught when it is opened: the states then come from the logs, as if no cache."""
    path = tmp_path / "store"
    with as_device(monkeypatch, "laptop", path) as a:
        study(a, T0, 12)
        truth = states(a)
    (cache,) = (paths.cache_dir() / "stores").rglob("states.json")
    data = bytearray(cache.read_bytes())
    if damage == "flip":
        row = data.rindex(b"\n", 0, len(data) - 1) + 1  # the last card's row
        at = data.index(b",", data.index(b",", row) + 1) + 1  # its stability's first digit
        data[at] = ord("7") if data[at] != ord("7") else ord("8")
    elif damage == "cut":
        data = data[: len(data) - 30]
    else:
        data = bytearray()
    cache.write_bytes(bytes(data))
    with as_device(monkeypatch, "laptop", path) as a:
        assert states(a) == truth


def test_rows_a_session_never_read_are_kept_through_its_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "laptop", path) as a:
        study(a, T0, 12)
    with as_device(monkeypatch, "laptop", path) as a:
        a.record(CARDS[0], 3, T0 + timedelta(days=9), Answer("typed", 900))
        truth = states(a)
    with as_device(monkeypatch, "laptop", path) as a:
        assert states(a) == truth
    drop_caches()
    with as_device(monkeypatch, "laptop", path) as a:
        assert states(a) == truth
