"""`quizzer study DECK --both` studies the direction and its reverse, the reverse's new cards
waiting for the first (the ladder); `quizzer settings --set ladder_days=N` sets the wait and
refuses a negative one (exit 2, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import Pair
from quizzer.cli.main import main
from quizzer.paths import machine_file
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.study import StudyScreen
from tests.ui_support import card_of


def test_both_serves_the_first_direction_and_remembers_the_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    real_run = QuizzerApp.run

    async def look(pilot: Any) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, StudyScreen)
        seen["pairs"] = screen.choice.pairs
        seen["card"] = card_of(screen)
        await pilot.press("q", "enter")

    def headless_run(self: QuizzerApp, **kwargs: Any) -> Any:
        return real_run(self, headless=True, size=(80, 24), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    db = str(tmp_path / "p.json")
    argv = ["study", "quantization", "--from", "en:term", "--to", "bn:term", "--both"]
    assert main([*argv, "--db", db]) == 0
    first, reverse = Pair("en", "term", "bn", "term"), Pair("bn", "term", "en", "term")
    assert seen["pairs"] == (first, reverse)
    assert seen["card"].pair == first
    prefs = json.loads(machine_file(db, ".ui.json").read_text(encoding="utf-8"))
    assert prefs["ui.last_choice"]["also"] == [reverse.code]
    # `quizzer study` alone studies the last choice, both directions.
    seen.clear()
    assert main(["study", "--db", db]) == 0
    assert seen["pairs"] == (first, reverse)


def test_ladder_days_is_a_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "p.json")
    assert main(["settings", "--db", db, "--set", "ladder_days=3"]) == 0
    capsys.readouterr()
    assert main(["settings", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ladder_days"] == 3
    assert main(["settings", "--db", db, "--set", "ladder_days=-1"]) == 2
    assert "ladder_days must be at least 0" in capsys.readouterr().err
