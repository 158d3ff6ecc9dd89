"""The system's zone (``progress.localtz``) at its edges: DST changes, names, zone keys.

The zone
is set with ``$TZ`` and ``time.tzset()`` and checked against :mod:`zoneinfo` for the same
zone: every wall time around the changes, both folds (PEP 495), every UTC moment and back.
Before, wall times in the skipped and repeated hours were resolved by ``mktime``, which
guesses them from its previous call: a study day starting at 02:00 in Paris ended an hour
before its last moment on the day the clocks went forward.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from quizzer.progress.localtz import LocalTimezone, system_timezone_name, zone_key
from quizzer.scheduling.studyday import day_bounds, study_day

#: The days the clocks change in 2026: Paris forward 29 March, back 25 October; New York
#: forward 8 March, back 1 November; Lord Howe (a 30-minute change) forward 4 October.
CHANGES = {
    "Europe/Paris": ["2026-03-29", "2026-10-25"],
    "America/New_York": ["2026-03-08", "2026-11-01"],
    "Australia/Lord_Howe": ["2026-04-05", "2026-10-04"],
}


@pytest.fixture
def system_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield
    monkeypatch.undo()
    time.tzset()


def _use(monkeypatch: pytest.MonkeyPatch, tz: str) -> LocalTimezone:
    monkeypatch.setenv("TZ", tz)
    time.tzset()
    return LocalTimezone()


def _around(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> Iterator[tuple[LocalTimezone, ZoneInfo, datetime]]:
    """``name`` as the system's zone and as zoneinfo's, with each naive quarter-hour of the
    36 hours around its changes (from noon the day before)."""
    local, real = _use(monkeypatch, name), ZoneInfo(name)
    for day in CHANGES[name]:
        start = datetime.fromisoformat(day) - timedelta(hours=12)
        for i in range(36 * 4):
            yield local, real, start + timedelta(minutes=15 * i)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_wall_time_around_a_change_reads_as_zoneinfo_reads_it(
    system_zone: None, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    for local, real, wall in _around(monkeypatch, name):
        for fold in (0, 1):
            ours, theirs = (
                wall.replace(fold=fold, tzinfo=local),
                wall.replace(fold=fold, tzinfo=real),
            )
            assert (ours.utcoffset(), ours.tzname()) == (theirs.utcoffset(), theirs.tzname()), ours
            assert ours.dst() == timedelta(0)  # not told apart: the offset says it all


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_moment_around_a_change_shows_zoneinfos_wall_time_and_comes_back(
    system_zone: None, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    for local, real, naive in _around(monkeypatch, name):
        moment = naive.replace(tzinfo=UTC)
        ours, theirs = moment.astimezone(local), moment.astimezone(real)
        assert (ours.replace(tzinfo=None), ours.fold) == (theirs.replace(tzinfo=None), theirs.fold)
        assert ours.utcoffset() == theirs.utcoffset() and ours.astimezone(UTC) == moment


def test_the_repeated_hour_reads_the_same_whatever_was_asked_before(
    system_zone: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = _use(monkeypatch, "Europe/Paris")
    repeated = datetime(2026, 10, 25, 2, 30, tzinfo=local)
    for before in (datetime(2026, 7, 1, 12), datetime(2026, 12, 1, 12)):
        before.replace(tzinfo=local).utcoffset()
        assert repeated.utcoffset() == timedelta(hours=2) and repeated.tzname() == "CEST"
        assert repeated.replace(fold=1).utcoffset() == timedelta(hours=1)
        assert repeated.replace(fold=1).tzname() == "CET"


@pytest.mark.parametrize("hour", [2, 3, 4])
def test_a_study_day_holds_each_of_its_moments_on_the_days_the_clocks_change(
    system_zone: None, monkeypatch: pytest.MonkeyPatch, hour: int
) -> None:
    for local, real, naive in _around(monkeypatch, "Europe/Paris"):
        moment = naive.replace(tzinfo=UTC)
        start, end = day_bounds(moment, local, hour)
        assert start <= moment < end, (moment, hour)
        assert (start, end) == day_bounds(moment, real, hour)
        assert study_day(moment, local, hour) == study_day(moment, real, hour)


def test_the_zone_now_and_its_name_and_repr(
    system_zone: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = _use(monkeypatch, "Asia/Dhaka")  # no DST: +06 all year
    assert local.utcoffset(None) == timedelta(hours=6)
    assert local.tzname(None) == "+06"
    assert repr(local) == "LocalTimezone()"
    assert system_timezone_name() == "Asia/Dhaka"  # from the process's $TZ
    assert zone_key(local) == "Asia/Dhaka"


def test_a_system_zone_without_a_name_is_keyed_by_what_the_c_library_says(
    system_zone: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = _use(monkeypatch, "CET-1CEST,M3.5.0,M10.5.0/3")  # a POSIX rule, no IANA name
    assert system_timezone_name() is None
    assert zone_key(local) == "local:('CET', 'CEST'):-3600:-7200:1"


@pytest.mark.parametrize(
    ("tz", "name"),
    [
        ("/usr/share/zoneinfo/Europe/Paris", "Europe/Paris"),
        (":/usr/share/zoneinfo/America/Sao_Paulo", "America/Sao_Paulo"),
        ("", None),  # set but empty: $TZ rules (UTC), the link is not asked
        ("Nowhere/Land", None),
        ("/etc/localtime", None),
        ("Europe/../Paris", None),
        ("/home/me/zoneinfo/tzdata/zoneinfo/Asia/Dhaka", "Asia/Dhaka"),  # the last one
    ],
)
def test_a_tz_variable_names_the_zone_only_when_it_is_an_iana_name(
    tmp_path: Path, tz: str, name: str | None
) -> None:
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/Asia/Tokyo")
    assert system_timezone_name({"TZ": tz}, localtime=link) == name


@pytest.mark.parametrize(
    ("target", "name"),
    [
        ("../usr/share/zoneinfo/Europe/Paris", "Europe/Paris"),
        ("/usr/share/zoneinfo/Nowhere/Land", None),
        ("/usr/share/Europe/Paris", None),  # not under a zoneinfo directory
        ("/home/me/zoneinfo/tzdata/zoneinfo/UTC", "UTC"),  # under the last one
    ],
)
def test_the_localtime_link_names_the_zone_only_when_it_leads_to_an_iana_name(
    tmp_path: Path, target: str, name: str | None
) -> None:
    link = tmp_path / "localtime"
    link.symlink_to(target)
    assert system_timezone_name({}, localtime=link) == name


def test_without_tz_the_systems_own_localtime_link_is_read() -> None:
    target = os.readlink("/etc/localtime") if os.path.islink("/etc/localtime") else ""
    if "zoneinfo/" not in target:
        pytest.skip("/etc/localtime is not a link into a zoneinfo directory here")
    assert system_timezone_name({}) == target.split("zoneinfo/", 1)[1]


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
