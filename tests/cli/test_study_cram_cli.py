"""`quizzer study DECK --cram [SELECTION]`: a practice selection is checked before anything
opens (exit 2, nothing written), and a good one starts a practice session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen


@pytest.mark.parametrize("bad", ["due-0", "due-x", "sometimes", "due-99999"])
def test_a_bad_selection_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    db = tmp_path / "p.json"
    assert main(["study", "quantization", "--cram", bad, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "--cram" in err and "not a practice selection" in err and "Traceback" not in err


@pytest.mark.parametrize(("given", "selection"), [(None, "all"), ("DUE-07", "due-7")])
def test_cram_starts_a_practice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str | None, selection: str
) -> None:
    seen: dict[str, Any] = {}
    real_run = QuizzerApp.run

    async def look(pilot: Any) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, StudyScreen):
            seen["cram"] = screen.choice.cram
            await pilot.press("q")
            await pilot.pause()
        # Nothing due in a fresh store: the practice of due cards has none, and says so.
        summary = pilot.app.screen
        assert isinstance(summary, SummaryScreen)
        seen["reason"] = summary.reason
        await pilot.press("enter")

    def headless_run(self: QuizzerApp, **kwargs: Any) -> Any:
        return real_run(self, headless=True, size=(80, 24), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    argv = ["study", "quantization", "--cram", *([given] if given else [])]
    assert main([*argv, "--db", str(tmp_path / "p.json")]) == 0
    if selection == "all":
        assert seen["cram"] == "all"
    else:
        assert seen["reason"] == "No card to practise: due within 7 days."
