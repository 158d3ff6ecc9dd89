"""The store's default zone (the system's, found by tzlocal) at its edges: DST, names, keys.

The zone is set with ``$TZ`` and ``time.tzset()``; each store reads it anew. Study days
must hold each of their moments on the days the clocks change, and a wall time in the hour
repeated when they go back must read as PEP 495 says (``fold``). A ``$TZ`` that is a POSIX
rule names no zone: the store then counts in the offset the C library gives now.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from quizzer.progress.store import Store, system_zone, zone_key
from quizzer.scheduling.studyday import day_bounds, study_day


@pytest.fixture
def use_tz(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Set the process's ``$TZ`` (the C library's too); restored after."""

    def use(value: str) -> None:
        monkeypatch.setenv("TZ", value)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


def test_a_store_opened_without_a_zone_counts_in_the_systems_named_zone(
    use_tz: Callable[[str], None], tmp_path: Path
) -> None:
    use_tz("Europe/Paris")
    with Store(tmp_path / "store") as store:
        assert store.tz == ZoneInfo("Europe/Paris") and zone_key(store.tz) == "Europe/Paris"
    use_tz(":Asia/Dhaka")  # read again, not a stale zone
    assert zone_key(system_zone()) == "Asia/Dhaka"
    use_tz("/usr/share/zoneinfo/America/Sao_Paulo")
    assert zone_key(system_zone()) == "America/Sao_Paulo"


@pytest.mark.parametrize("hour", [2, 3, 4])
@pytest.mark.parametrize("change", ["2026-03-29", "2026-10-25"])
def test_a_study_day_holds_each_of_its_moments_on_the_days_the_clocks_change(
    use_tz: Callable[[str], None], hour: int, change: str
) -> None:
    use_tz("Europe/Paris")
    zone = system_zone()
    start = datetime.fromisoformat(change).replace(tzinfo=UTC) - timedelta(hours=12)
    days = set()
    for i in range(36 * 4):  # each quarter-hour of the 36 hours around the change
        moment = start + timedelta(minutes=15 * i)
        first, end = day_bounds(moment, zone, hour)
        assert first <= moment < end, (moment, hour)
        assert end - first in (timedelta(hours=23), timedelta(hours=24), timedelta(hours=25))
        days.add(study_day(moment, zone, hour))
    assert len(days) == 2  # the day of the change and its neighbour


def test_the_repeated_hour_reads_by_its_fold(use_tz: Callable[[str], None]) -> None:
    use_tz("Europe/Paris")
    zone = system_zone()
    repeated = datetime(2026, 10, 25, 2, 30, tzinfo=zone)
    assert repeated.utcoffset() == timedelta(hours=2) and repeated.tzname() == "CEST"
    assert repeated.replace(fold=1).utcoffset() == timedelta(hours=1)
    assert repeated.replace(fold=1).tzname() == "CET"
    # The second time the clock shows 02:30 is fold 1, and comes back to the same moment.
    moment = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)
    local = moment.astimezone(zone)
    assert (local.hour, local.minute, local.fold) == (2, 30, 1)
    assert local.astimezone(UTC) == moment


@pytest.mark.parametrize("rule", ["CET-1CEST,M3.5.0,M10.5.0/3", "<+0530>-5:30", "Nowhere/Land"])
def test_a_tz_that_names_no_zone_counts_in_the_c_librarys_offset_now(
    use_tz: Callable[[str], None], rule: str
) -> None:
    use_tz(rule)
    zone = system_zone()
    now = datetime.now(UTC)
    assert now.astimezone(zone).utcoffset() == timedelta(seconds=time.localtime().tm_gmtoff)
    assert zone_key(zone) == zone_key(system_zone())  # stable: a cached tally stays valid
    assert zone_key(zone).startswith("timezone:")


def test_without_tz_the_systems_localtime_names_the_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    target = os.readlink("/etc/localtime") if os.path.islink("/etc/localtime") else ""
    if "zoneinfo/" not in target:
        pytest.skip("/etc/localtime is not a link into a zoneinfo directory here")
    monkeypatch.delenv("TZ", raising=False)
    assert zone_key(system_zone()) == target.split("zoneinfo/", 1)[1]


class _Keyed(tzinfo):
    """A zone with a ``key`` attribute that is no zone name."""

    def __init__(self, key: object) -> None:
        self.key = key

    def utcoffset(self, dt: datetime | None) -> timedelta:
        return timedelta(hours=1)

    def dst(self, dt: datetime | None) -> timedelta:
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        return "K"

    def __repr__(self) -> str:
        return f"_Keyed({self.key!r})"


def test_a_zone_is_keyed_by_its_iana_name_else_by_its_repr() -> None:
    assert zone_key(ZoneInfo("Europe/Paris")) == "Europe/Paris"
    assert zone_key(timezone(timedelta(hours=6))) == (
        "timezone:datetime.timezone(datetime.timedelta(seconds=21600))"
    )
    assert zone_key(_Keyed("")) == "_Keyed:_Keyed('')"
    assert zone_key(_Keyed(5)) == "_Keyed:_Keyed(5)"
