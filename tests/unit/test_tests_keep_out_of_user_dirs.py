"""Tests never read or write the learner's own progress, decks or cache."""

from __future__ import annotations

from pathlib import Path

from quizzer.paths import default_db_path


def test_the_default_store_of_a_test_is_not_the_learners() -> None:
    real = Path.home() / ".local" / "share"
    assert not default_db_path().is_relative_to(real)
