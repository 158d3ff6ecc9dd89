"""A private tmux server for the terminal tests: start quizzer in a pane of a given size,
send keys, read the pane back as tmux draws it."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shlex
import shutil
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Skip a tmux test where tmux isn't installed: it drives a real terminal, there is no stand-in.
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Pane:
    """One tmux session of ``width`` × ``height`` cells on a private server."""

    def __init__(self, socket: str, width: int, height: int) -> None:
        self.socket = socket
        self.width = width
        self.height = height
        self.session = "pane"

    def tmux(self, *args: str, check: bool = True) -> str:
        """Run a tmux command on the private server; its standard output."""
        done = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def run(self, args: Sequence[str], env: dict[str, str]) -> None:
        """Start ``quizzer ARGS`` in the pane; the pane stays open after it exits."""
        settings = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", **env}
        settings["PYTHONPATH"] = str(ROOT)
        assigned = " ".join(f"{key}={shlex.quote(value)}" for key, value in settings.items())
        # COLUMNS/LINES (pytest exports 80×24) would override the pane's real size.
        command = f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {assigned} "
        command += shlex.join([sys.executable, "-m", "quizzer", *args])
        command += "; echo QUIZZER-EXITED-$?; sleep 600"
        self.tmux("kill-session", "-t", self.session, check=False)
        self.tmux(
            "new-session",
            "-d",
            "-s",
            self.session,
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            command,
        )
        self.tmux("set-option", "-t", self.session, "history-limit", "20000")

    def screen(self, history: bool = False) -> str:
        """The pane as text (with ``history``, everything that scrolled off it too)."""
        extra = ["-S", "-"] if history else []
        return self.tmux("capture-pane", "-p", *extra, "-t", self.session)

    def wait_for(self, pred: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        """Poll the pane until ``pred`` holds; fail showing the screen if it never does."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if pred(text):
                return text
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; screen:\n{text}")

    def keys(self, *names: str) -> None:
        """Send keys one at a time (Escape then a key would read as Alt+key)."""
        for name in names:
            self.tmux("send-keys", "-t", self.session, name)
            time.sleep(0.05)

    def type_text(self, text: str) -> None:
        """Type ``text`` literally, character by character as a learner would."""
        for ch in text:
            self.tmux("send-keys", "-t", self.session, "-l", ch)
            time.sleep(0.02)


@contextmanager
def tmux_pane(width: int, height: int) -> Iterator[Pane]:
    """A pane on a private tmux server, which is killed afterwards."""
    pane = Pane(f"quizzer-test-{os.getpid()}-{time.monotonic_ns()}", width, height)
    try:
        yield pane
    finally:
        pane.tmux("kill-server", check=False)


def _libc_wcwidth() -> Callable[[str], int]:
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.setlocale.restype = ctypes.c_char_p
    if not libc.setlocale(6, b"C.UTF-8"):  # LC_ALL
        libc.setlocale(6, b"en_US.UTF-8")
    libc.wcwidth.argtypes = [ctypes.c_wchar]
    libc.wcwidth.restype = ctypes.c_int

    def width(ch: str) -> int:
        return max(0, int(libc.wcwidth(ch)))

    return width


#: Cells a character takes as tmux counts them: the C library's ``wcwidth``.
terminal_width = _libc_wcwidth()


def border_columns(text: str) -> list[tuple[int, int, str]]:
    """(row, column of the last box border, line) for each row of a box on the screen,
    columns counted as tmux counts them."""
    rows = []
    for index, line in enumerate(text.splitlines()):
        column, last = 0, None
        for ch in line:
            if ch in "│╮╯┃┓┛":
                last = column
            column += terminal_width(ch)
        if last is not None and line.lstrip().startswith(("│", "╭", "╰", "┃", "┏", "┗")):
            rows.append((index, last, line))
    return rows


def arabic_marks(text: str) -> list[str]:
    """The combining marks (category Mn) of the Arabic script in ``text``, in order."""
    return [
        ch
        for ch in text
        if unicodedata.category(ch) == "Mn" and unicodedata.name(ch, "").startswith("ARABIC")
    ]
