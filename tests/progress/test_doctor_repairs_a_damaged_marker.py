"""A damaged store marker is a problem ``doctor --check`` reports (not ok) and a repair
writes again, its bytes kept beside it; the answers, in the device folders, are untouched."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import quizzer.progress.doctor as doctor
import quizzer.progress.layout as layout
from quizzer.progress import open_store

NOW = datetime(2026, 3, 2, 9, tzinfo=UTC)
CARD = "demo/c1|en:term>fr:term"


def test_a_damaged_marker_is_reported_then_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIZZER_DEVICE", "desk")
    store = tmp_path / "store"
    with open_store(store, tz=UTC) as opened:
        opened.record(CARD, 3, NOW)
    marker = layout.marker_path(store)
    marker.write_bytes(b"garbage{")
    found = doctor.check(store)
    assert not found.healthy
    assert found.problems == [f"{marker}: the store's marker is damaged (doesn't read)"]
    assert found.cards == 1
    fixed = doctor.repair(store)
    assert fixed.problems == [] and any("wrote the marker again" in a for a in fixed.actions)
    assert marker.read_bytes() == layout.MARKER_BYTES
    assert (store / layout.DAMAGED_MARKER).read_bytes() == b"garbage{"
    assert doctor.check(store).healthy
    with open_store(store, tz=UTC, read_only=True) as opened:
        assert [r.card_id for r in opened.reviews()] == [CARD]
