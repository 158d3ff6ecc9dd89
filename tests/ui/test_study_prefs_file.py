"""The study screen's preferences file (``P.ui.json``) is read only if it is a regular file.

A FIFO there once blocked the app at start, forever.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from quizzer.paths import machine_file
from quizzer.progress import open_store
from quizzer.services.study import MAX_PREFS_BYTES, StudyService
from quizzer.study.selection import StudyChoice
from tests.ui_support import bundled_decks, choice


def _picked() -> StudyChoice:
    return choice("quantization", "ru:term>en:definition", "typed")


def _within(seconds: float, fifo: Path, work: Callable[[], object]) -> None:
    """Run ``work`` in a thread; fail (after releasing a reader stuck on ``fifo``) if it hangs."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # pragma: no cover - reported below
            failure.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # unblocks the reader's open
        thread.join(5)
        pytest.fail(f"reading the preferences blocked on the FIFO {fifo}")
    if failure:
        raise failure[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_the_preferences_is_neither_read_nor_replaced(tmp_path: Path) -> None:
    prefs = machine_file(tmp_path / "p.json", ".ui.json")
    prefs.parent.mkdir(parents=True, exist_ok=True)
    with open_store(tmp_path / "p.json") as store:
        service = StudyService(store, bundled_decks())
        os.mkfifo(prefs)

        def use() -> None:
            assert service.last_choice() is None
            assert service.last_theme() is None
            service.remember(_picked())
            service.remember_theme("textual-light")

        _within(10, prefs, use)
    assert stat.S_ISFIFO(os.lstat(prefs).st_mode)  # not replaced by a regular file


def test_an_oversized_preferences_file_is_neither_read_nor_replaced(tmp_path: Path) -> None:
    prefs = machine_file(tmp_path / "p.json", ".ui.json")
    prefs.parent.mkdir(parents=True, exist_ok=True)
    with open_store(tmp_path / "p.json") as store:
        service = StudyService(store, bundled_decks())
        service.remember(_picked())
        assert service.last_choice() == _picked()
        big = b'{"pad": "' + b"x" * MAX_PREFS_BYTES + b'"}'
        prefs.write_bytes(big)
        assert service.last_choice() is None
        service.remember(_picked())
    assert prefs.read_bytes() == big  # someone's big file, kept as it was


def test_remembering_the_same_choice_again_leaves_the_file_alone(tmp_path: Path) -> None:
    """`quizzer study` with the last choice writes (and fsyncs) nothing before its first card;
    another choice is written."""
    prefs = machine_file(tmp_path / "p.json", ".ui.json")
    prefs.parent.mkdir(parents=True, exist_ok=True)
    with open_store(tmp_path / "p.json") as store:
        service = StudyService(store, bundled_decks())
        service.remember(_picked())
        before = os.stat(prefs)
        service.remember(_picked())
        after = os.stat(prefs)
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
        other = StudyChoice(_picked().deck, _picked().pair, "flip")
        service.remember(other)
        assert os.stat(prefs).st_ino != before.st_ino  # replaced atomically, by a new file
        assert service.last_choice() == other
