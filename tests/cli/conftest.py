"""Fixtures for the command tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user-decks folder ($QUIZZER_DECKS) and a wide terminal for readable output."""
    directory = tmp_path / "decks"
    directory.mkdir()
    monkeypatch.setenv("QUIZZER_DECKS", str(directory))
    monkeypatch.setenv("COLUMNS", "200")
    return directory
