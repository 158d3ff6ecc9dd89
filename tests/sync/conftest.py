"""The Syncthing pair fixture: skips, saying why, only when syncthing is not installed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sync import syncthing


@pytest.fixture
def syncthing_pair(tmp_path: Path) -> Iterator[syncthing.Pair]:
    """Two connected Syncthing daemons sharing ``tmp_path/a`` and ``tmp_path/b``."""
    if not syncthing.installed():
        pytest.skip("syncthing is not installed (Debian package `syncthing`; .ci/run installs it)")
    with syncthing.syncthing_pair(tmp_path) as pair:
        yield pair
