"""Shared test set-up."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Keep each test's parsed-deck cache out of the user's cache dir."""
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path_factory.mktemp("cache")))
