"""`quizzer study` argument handling: directions, defaults and clear errors (exit code 2)."""

from __future__ import annotations

import pytest

from quizzer.cards.card import Pair
from quizzer.cli.main import main
from quizzer.cli.study_cmd import parse_side, resolve_pair
from quizzer.errors import InputError


def test_parse_side_defaults_and_errors() -> None:
    assert parse_side("RU", "--from", "term") == ("ru", "term")
    assert parse_side("bn:definition", "--to", "term") == ("bn", "definition")
    with pytest.raises(InputError, match="unknown language 'xx'"):
        parse_side("xx", "--from", "term")
    with pytest.raises(InputError, match="unknown side"):
        parse_side("en:word", "--to", "term")


def test_resolve_pair() -> None:
    last = Pair("ru", "term", "bn", "definition")
    assert resolve_pair(None, None, last) == last
    assert resolve_pair(None, None, None) == Pair("en", "definition", "en", "term")
    assert resolve_pair("ar", "bn", None) == Pair("ar", "term", "bn", "term")
    assert resolve_pair("fr:definition", None, last) == Pair("fr", "definition", "bn", "definition")
    assert resolve_pair("en:term", None, None) == Pair("en", "term", "en", "definition")
    with pytest.raises(InputError, match="same text"):
        resolve_pair("en:term", "en:term", None)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["study", "no-such-deck"], "no deck named 'no-such-deck'"),
        (["study", "--from", "xx"], "unknown language 'xx'"),
        (["study", "--from", "en:term", "--to", "en"], "same text"),
    ],
)
def test_bad_input_exits_2_without_traceback(tmp_path, capsys, argv, message) -> None:
    code = main([*argv, "--db", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    # The store was closed again: another writer can open it (the lock was released).
    from quizzer.progress import open_store

    with open_store(tmp_path / "p.json") as store:
        assert store.reviews() == []


def test_quiz_commands_import_only_the_study_module() -> None:
    """`quizzer`, `quizzer study` and `quizzer home` skip the other commands' imports."""
    import subprocess
    import sys

    probe = (
        "import sys, quizzer.cli.main as m\n"
        "try:\n    m.main(['study', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(n for n in sys.modules if n.startswith('quizzer.cli.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout
    assert "usage: quizzer study" in out
    loaded = out.strip().splitlines()[-1]
    assert "quizzer.cli.study_cmd" in loaded
    assert "quizzer.cli.stats_cmd" not in loaded and "quizzer.cli.decks_cmd" not in loaded
    full = subprocess.run(
        [sys.executable, "-m", "quizzer", "--help"], capture_output=True, text=True
    ).stdout
    for command in ("study", "home", "stats", "export"):
        assert command in full


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"VTE_VERSION": "7600"}, "terminal"),
        ({"VTE_VERSION": "7600", "TMUX": "/tmp/tmux-1000/default,1,0"}, "app"),
        ({"VTE_VERSION": "7600", "STY": "1234.pts-0.host"}, "app"),
        ({}, "app"),
    ],
)
def test_rtl_auto_under_tmux_shapes_arabic_itself(tmp_path, monkeypatch, env, expected) -> None:
    """`quizzer study --rtl auto`: tmux/screen don't do bidi even in a VTE terminal."""
    from quizzer.ui.app import QuizzerApp
    from quizzer.ui.screens.study import StudyScreen
    from quizzer.ui.textshape import has_rtl

    for name in ("VTE_VERSION", "TMUX", "STY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    seen: dict[str, object] = {}
    real_run = QuizzerApp.run

    async def look(pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, StudyScreen)
        prompt = screen.query_one("#prompt").render()
        seen["prompt"] = str(prompt)
        await pilot.press("q", "enter")

    def headless_run(self, **kwargs):
        seen["rtl"] = self.rtl_mode
        return real_run(self, headless=True, size=(100, 30), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    argv = ["study", "quantization", "--from", "ar", "--to", "en", "--mode", "flip"]
    code = main([*argv, "--rtl", "auto", "--db", str(tmp_path / "p.json")])
    assert code == 0
    assert seen["rtl"] == expected
    prompt = str(seen["prompt"])
    assert has_rtl(prompt)
    # app mode shows presentation forms (joined letters); terminal mode the logical letters.
    joined = any(0xFE70 <= ord(ch) <= 0xFEFF for ch in prompt)
    assert joined == (expected == "app")


def test_an_empty_side_after_the_colon_is_an_error_not_a_default() -> None:
    with pytest.raises(InputError, match="unknown side ''"):
        parse_side("en:", "--from", "term")
