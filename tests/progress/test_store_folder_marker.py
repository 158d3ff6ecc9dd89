"""The store folder's marker: written once, kept, and refused when it isn't ours."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import quizzer.progress.layout as layout
from quizzer.errors import StoreError

NOW = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)


def test_a_new_store_gets_a_marker_and_a_devices_folder(tmp_path: Path) -> None:
    store = tmp_path / "progress"
    marker = layout.create_store(store, NOW)
    assert layout.read_marker(store) == marker
    assert layout.devices_dir(store).is_dir()
    assert marker.created.startswith("2026-12-05T08:00")
    assert [p.name for p in store.iterdir()] != []
    assert not list(store.glob(".*.tmp"))


def test_opening_again_keeps_the_first_marker(tmp_path: Path) -> None:
    first = layout.create_store(tmp_path / "s", NOW)
    again = layout.create_store(tmp_path / "s", datetime(2027, 1, 1, tzinfo=UTC))
    assert again == first


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
    layout.create_store(tmp_path, NOW)
    for name in ("abc", "abc~merged", ".syncthing.tmp", "Upper", "x y"):
        (layout.devices_dir(tmp_path) / name).mkdir()
    (layout.devices_dir(tmp_path) / "file").write_text("")
    assert [p.name for p in layout.device_folders(tmp_path)] == ["abc", "abc~merged"]


def test_months_are_utc() -> None:
    at = int(datetime(2026, 11, 30, 23, 30, tzinfo=UTC).timestamp() * 1000)
    assert layout.month_of(at) == "2026-11"
    assert layout.legacy_dir(Path("/x/progress.json")) == Path("/x/progress.json.legacy-v2")
