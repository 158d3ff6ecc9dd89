"""Snapshots of what a learner sees when cards wait for their first direction: the home screen
with both directions chosen (``b``), at 60×20 and 80×24."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_support import make_app


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
def test_home_both_ways(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(tmp_path / "p.json"), press=["b"], terminal_size=size)
