"""quizzer.cli.gc_pause: the collector held off while the quiz starts, then back on."""

from __future__ import annotations

import gc

import pytest

from quizzer.cli import gc_pause
from quizzer.cli.main import main


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    gc_pause.resume()
    gc.unfreeze()
    if was:
        gc.enable()
    else:
        gc.disable()


def test_pause_then_resume_turns_it_back_on(collector_on):
    gc_pause.pause()
    assert not gc.isenabled() and gc_pause.paused()
    gc_pause.resume()
    assert gc.isenabled() and not gc_pause.paused()
    gc_pause.resume()  # a second resume changes nothing
    assert gc.isenabled()


def test_resume_leaves_a_collector_it_did_not_stop_alone(collector_on):
    gc.disable()  # someone else's choice (e.g. a loader that holds it off itself)
    gc_pause.pause()
    assert not gc_pause.paused()
    gc_pause.resume()
    assert not gc.isenabled()


def test_a_quiz_command_that_fails_before_the_app_leaves_it_on(collector_on, tmp_path, capsys):
    # A deck that does not exist stops `study` before the app starts: the collector is on.
    missing = tmp_path / "none"
    code = main(["study", "nosuchdeck", "--db", str(tmp_path / "p.json"), "--decks", str(missing)])
    assert code == 2
    assert gc.isenabled() and not gc_pause.paused()
    assert "nosuchdeck" in capsys.readouterr().err
