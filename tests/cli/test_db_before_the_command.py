"""`quizzer --db PATH COMMAND …`, the order `quizzer --help` shows, reaches the command with
that store, as `quizzer COMMAND --db PATH …` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.cli.main import main


@pytest.mark.parametrize("form", ["separate", "joined"])
def test_db_given_before_the_command_is_the_commands_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    db = tmp_path / "p.json"
    assert main(["settings", "--set", "ladder_days=3", "--db", str(db)]) == 0
    capsys.readouterr()
    words = ["--db", str(db)] if form == "separate" else [f"--db={db}"]
    assert main([*words, "settings"]) == 0
    shown = capsys.readouterr().out
    assert "ladder_days" in shown
    line = next(line for line in shown.splitlines() if "ladder_days" in line)
    assert "3" in line, line


def test_an_unknown_word_after_db_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--db", str(tmp_path / "p.json"), "sttas"])
    assert stop.value.code == 2
    assert "sttas" in capsys.readouterr().err
