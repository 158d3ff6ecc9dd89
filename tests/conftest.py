"""Shared test set-up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the whole run, module-scoped fixtures included, out of the learner's own dirs: a
    test that names no store or deck folder gets the defaults under a data dir of its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        patch.setenv("QUIZZER_CACHE", str(tmp_path_factory.mktemp("session-cache")))
        patch.setenv("QUIZZER_STATE", str(tmp_path_factory.mktemp("session-state")))
        patch.delenv("QUIZZER_DB", raising=False)
        patch.delenv("QUIZZER_DECKS", raising=False)
        yield


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Give each test its own parsed-deck cache and device identity."""
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("QUIZZER_STATE", str(tmp_path_factory.mktemp("state")))


@pytest.fixture
def decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user-decks folder ($QUIZZER_DECKS), where imports go and merge looks, and a
    wide terminal for readable output."""
    directory = tmp_path / "decks"
    directory.mkdir()
    monkeypatch.setenv("QUIZZER_DECKS", str(directory))
    monkeypatch.setenv("COLUMNS", "200")
    return directory
