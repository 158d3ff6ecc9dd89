"""The store tests' one way to open a store: real TinyDB files on disk, under ``tmp_path``.

``open_db(path, **kw)`` is :func:`open_store` with a fixed zone and a seeded
rng, so interval fuzz repeats from run to run. A test module that needs another
zone or seed overrides the ``store_tz`` or ``store_seed`` fixture. ``db`` is a copy of
a small store with a history (``built``, made once per module) for a test to damage.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Any

import pytest

from quizzer.progress import Store, open_store
from tests.progress import store_builder

OpenDb = Callable[..., Store]


@pytest.fixture
def store_tz() -> tzinfo:
    """The learner's zone of the stores ``open_db`` opens."""
    return UTC


@pytest.fixture
def store_seed() -> int:
    """The seed of each opened store's rng (a fresh ``random.Random`` per open)."""
    return 7


@pytest.fixture
def open_db(store_tz: tzinfo, store_seed: int) -> OpenDb:
    """Open the store at ``path`` (``open_store`` keywords pass through, e.g. ``read_only``)."""

    def open_db(path: Path, **kw: Any) -> Store:
        return open_store(path, tz=store_tz, rng=random.Random(store_seed), **kw)

    return open_db


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two compacted sessions, then three answers left in the journal by a killed one."""
    db = tmp_path_factory.mktemp("built") / "p.json"
    store_builder.build(db, july=2, august=3, pending=3)
    return db


@pytest.fixture
def db(built: Path, tmp_path: Path) -> Path:
    """A copy of ``built`` of the test's own, to damage (``p.json`` in ``tmp_path / "s"``)."""
    shutil.copytree(built.parent, tmp_path / "s")
    return tmp_path / "s" / "p.json"
