"""Practice answers (cram, match) in the statistics come from the store's tally, kept up to
date answer by answer through the cache: counting them reads no device log, and the counts
equal a recount from the whole log (other devices' practice, undos, a lost cache)."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.devicelog as devicelog
from quizzer import paths
from quizzer.progress.store import Store, open_store
from quizzer.services.stats import stats_from_store
from quizzer.stats.figures import SourceCount
from quizzer.stats.sources import practice_sources
from quizzer.stats.tally import Tally

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
CARDS = [f"demo/c{i}|en:term>en:definition" for i in range(4)]
OTHER = "other/c0|en:term>en:definition"


def as_device(monkeypatch: pytest.MonkeyPatch, name: str, path: Path) -> Store:
    monkeypatch.setenv("QUIZZER_DEVICE", name)
    return open_store(path, tz=UTC)


def recount(store: Store, today: date, decks: set[str] | None = None) -> tuple[SourceCount, ...]:
    """The practice counts from the whole log (every practice answer not undone)."""
    tally = Tally()
    for event in store.practice():
        day = event.when.date() if event.when.hour >= 4 else event.when.date() - timedelta(1)
        tally.add_practice(event.card, event.mode, event.grade, day)
    return practice_sources(tally, today, decks)


def test_practice_counts_come_from_the_cache_not_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    now = T0 + timedelta(days=40)
    today = now.date()
    with as_device(monkeypatch, "laptop", path) as a:
        a.record(CARDS[0], 3, T0)
        a.record_practice(CARDS[0], 1, T0 + timedelta(minutes=1), None, "cram")
        a.record_practice(OTHER, 3, T0 + timedelta(days=35), None, "match")
        stats_from_store(a, [], now=now)  # counted once: the cache keeps the tally
    with as_device(monkeypatch, "desktop", path) as b:
        b.record_practice(CARDS[1], 4, now - timedelta(hours=1), None, "cram")
        b.record_practice(CARDS[2], 2, now - timedelta(hours=2), None, "cram")
    reads: list[Any] = []
    real_read = devicelog.read_since

    def counted_read(folder: Path, mark: Any = None) -> Any:
        reads.append(folder.name)
        return real_read(folder, mark)

    monkeypatch.setattr(devicelog, "read_since", counted_read)
    with as_device(monkeypatch, "laptop", path) as a:
        a.record_practice(CARDS[3], 3, now - timedelta(minutes=5), None, "match")
        reads.clear()
        stats = stats_from_store(a, [], now=now)
        assert reads == []  # no log read for the statistics
        assert stats.practice == (SourceCount("cram", 3, 2, 2), SourceCount("match", 2, 2, 2))
        demo = stats_from_store(a, [], now=now, deck_ids=["demo"])
        assert demo.practice == (SourceCount("cram", 3, 2, 2), SourceCount("match", 1, 1, 1))
        assert reads == []
        assert stats.practice == recount(a, today)
        assert demo.practice == recount(a, today, {"demo"})
    shutil.rmtree(paths.cache_dir() / "stores")
    with as_device(monkeypatch, "laptop", path) as a:
        assert stats_from_store(a, [], now=now).practice == stats.practice  # only a shortcut


def test_counted_answers_read_again_at_the_close_are_not_counted_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizzer.stats.tally import tally_of

    path = tmp_path / "store"
    with as_device(monkeypatch, "a", path) as a:
        a.record(CARDS[0], 3, T0)
        a.record_practice(CARDS[1], 3, T0 + timedelta(minutes=1), None, "cram")
        a.stats_tally()  # counts both; the close reads this device's log past its mark again
    with as_device(monkeypatch, "a", path) as a:
        tally = a.stats_tally()
        assert tally.to_data()["decks"] == tally_of(a.reviews(), UTC, 4).to_data()["decks"]
        assert practice_sources(tally, T0.date()) == (SourceCount("cram", 1, 1, 1),)


def test_undone_practice_leaves_the_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "store"
    today = T0.date()
    with as_device(monkeypatch, "a", path) as a:
        a.record_practice(CARDS[0], 3, T0, None, "cram")
        a.record_practice(CARDS[1], 1, T0 + timedelta(minutes=1), None, "cram")
        a.stats_tally()  # counted: the cache keeps the tally
    with as_device(monkeypatch, "a", path) as a:
        a.record_practice(CARDS[2], 4, T0 + timedelta(minutes=2), None, "cram")
        a.undo()  # one the tally hasn't counted yet
        assert practice_sources(a.stats_tally(), today) == (SourceCount("cram", 2, 2, 1),)
        a.undo()  # one the cached tally had counted
        counts = practice_sources(a.stats_tally(), today)
        assert counts == (SourceCount("cram", 1, 1, 1),) == recount(a, today)
    with as_device(monkeypatch, "a", path) as a:
        assert practice_sources(a.stats_tally(), today) == counts
