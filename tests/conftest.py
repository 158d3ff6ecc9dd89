"""Shared test set-up."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Keep each test's parsed-deck cache and device identity out of the user's dirs."""
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("QUIZZER_STATE", str(tmp_path_factory.mktemp("state")))
