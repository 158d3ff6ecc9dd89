"""The store folder's marker: written once, kept, and refused when it isn't ours."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import quizzer.progress.layout as layout
from quizzer.errors import StoreError


def test_a_new_store_gets_a_marker_and_a_devices_folder(tmp_path: Path) -> None:
    store = tmp_path / "progress"
    marker = layout.create_store(store)
    assert layout.read_marker(store) == marker and not marker.damaged
    assert layout.devices_dir(store).is_dir()
    assert sorted(p.name for p in store.iterdir()) == ["devices", "quizzer-store.json"]


def test_opening_again_keeps_the_first_marker(tmp_path: Path) -> None:
    first = layout.create_store(tmp_path / "s")
    again = layout.create_store(tmp_path / "s")
    assert again == first


def test_two_machines_that_each_make_the_store_write_the_same_bytes(tmp_path: Path) -> None:
    layout.create_store(tmp_path / "laptop")
    layout.create_store(tmp_path / "desktop")
    laptop = (tmp_path / "laptop" / layout.MARKER_NAME).read_bytes()
    assert laptop == (tmp_path / "desktop" / layout.MARKER_NAME).read_bytes()
    # Each machine still names its copy apart, for the caches outside it.
    assert layout.read_marker(tmp_path / "laptop") != layout.read_marker(tmp_path / "desktop")


def test_a_marker_with_an_id_of_its_own_keeps_it(tmp_path: Path) -> None:
    (tmp_path / layout.MARKER_NAME).write_text(
        '{"format": "quizzer-store", "version": 3, "store": "abc", "created": "2026-12-05"}'
    )
    assert layout.read_marker(tmp_path) == layout.StoreMarker("abc")


@pytest.mark.parametrize("damage", [b"", b'{"format": "quizz', b"\x00" * 40])
def test_a_damaged_marker_of_a_store_is_written_again(tmp_path: Path, damage: bytes) -> None:
    layout.create_store(tmp_path)
    (tmp_path / layout.MARKER_NAME).write_bytes(damage)
    assert layout.read_marker(tmp_path).damaged  # type: ignore[union-attr]
    marker = layout.create_store(tmp_path)
    assert not marker.damaged
    assert (tmp_path / layout.MARKER_NAME).read_bytes() == layout.MARKER_BYTES
    assert (tmp_path / layout.DAMAGED_MARKER).read_bytes() == damage


def test_a_marker_created_meanwhile_by_another_device_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    assert layout.create_exclusive(path, b"first\n")
    assert not layout.create_exclusive(path, b"second\n")
    assert path.read_bytes() == b"first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"not json", "not a quizzer store marker"),
        (b'{"format": "other", "store": "x", "version": 3}', "not a quizzer store marker"),
        (b'{"format": "quizzer-store", "store": "x", "version": 99}', "newer quizzer"),
    ],
)
def test_a_marker_quizzer_did_not_write_is_refused(
    tmp_path: Path, text: bytes, message: str
) -> None:
    (tmp_path / layout.MARKER_NAME).write_bytes(text)
    with pytest.raises(StoreError, match=message):
        layout.read_marker(tmp_path)


def test_only_device_folders_are_listed(tmp_path: Path) -> None:
    layout.create_store(tmp_path)
    for name in ("abc", "abc~merged", ".syncthing.tmp", "Upper", "x y"):
        (layout.devices_dir(tmp_path) / name).mkdir()
    (layout.devices_dir(tmp_path) / "file").write_text("")
    assert [p.name for p in layout.device_folders(tmp_path)] == ["abc", "abc~merged"]


def test_months_are_utc() -> None:
    assert (
        layout.month_of(datetime(2026, 12, 1, 0, 30, tzinfo=ZoneInfo("Europe/Paris"))) == "2026-11"
    )
    assert layout.legacy_dir(Path("/x/progress.json")) == Path("/x/progress.json.legacy-v2")
