"""The entry point's commands: the table naming every command a module registers (so
`quizzer CMD` imports the one module it needs), unknown commands, the help texts."""

from __future__ import annotations

import argparse
import gc
import importlib
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from quizzer.cli.main import COMMAND_MODULES, COMMANDS, main
from quizzer.ui.app import QuizzerApp


class _Recorder:
    """Stands in for argparse's sub-parsers object and notes the names of the commands."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        assert not kwargs.get("aliases"), "an alias would need its own row in the table"
        self.names.append(name)
        kwargs.pop("help", None)
        return argparse.ArgumentParser(prog=name, **kwargs)


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_every_command_a_module_registers_is_in_the_table_under_it(module: str) -> None:
    recorder = _Recorder()
    importlib.import_module(module).register(recorder)
    assert recorder.names, module
    assert {name: COMMANDS.get(name) for name in recorder.names} == dict.fromkeys(
        recorder.names, module
    )


def test_the_table_names_no_command_its_module_does_not_register() -> None:
    registered: list[str] = []
    for module in COMMAND_MODULES:
        recorder = _Recorder()
        importlib.import_module(module).register(recorder)
        registered += recorder.names
    assert sorted(registered) == sorted(COMMANDS)


def test_an_unknown_command_is_refused_with_the_full_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["studdy"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'studdy'" in err
    assert all(name in err for name in COMMANDS)


def test_top_level_help_lists_db(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--db PATH" in out


def test_home_help_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["home", "--help"])
    out = capsys.readouterr().out
    usage, _blank, rest = out.partition("\n\n")
    assert usage.startswith("usage: quizzer home")
    assert rest.startswith("Open the home screen")


@pytest.mark.parametrize("on", [True, False])
def test_a_command_leaves_the_garbage_collector_as_it_found_it(
    on: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # One-shot commands run with the collector off (see main); the caller's choice survives.
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path))
    (gc.enable if on else gc.disable)()
    try:
        assert main(["decks", "--json"]) == 0
        assert gc.isenabled() is on
    finally:
        gc.enable()
    capsys.readouterr()


def test_the_quiz_turns_the_collector_on_at_its_first_paint(
    decks: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Held off while the quiz starts (see main), on again once its first screen is painted.
    seen: dict[str, bool] = {}
    real_run = QuizzerApp.run

    async def look(pilot: Pilot[object]) -> None:
        await pilot.pause()
        seen["after_paint"] = gc.isenabled()
        await pilot.press("q")

    def headless_run(self: QuizzerApp, **kwargs: Any) -> None:
        seen["before_run"] = gc.isenabled()
        real_run(self, headless=True, size=(100, 30), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    gc.enable()
    try:
        assert main(["home", "--db", str(tmp_path / "p.json")]) == 0
        assert seen == {"before_run": False, "after_paint": True}
        assert gc.isenabled()
    finally:
        gc.enable()
