"""Apps run in a real terminal: a private tmux server, each app in a session of its own.

Each session is created and held by a tmux *control-mode* client (``tmux -C``): tmux tells
it whenever the app writes to its terminal (``%output``), and answers its commands
(``capture-pane``, ``send-keys``) over a pipe in a fraction of a millisecond, with no process
started per look. So a wait for something to be drawn looks at the screen only when the app
has drawn, instead of polling a busy machine; the moment the wanted text is on the screen is
known to the next output the app writes.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path

#: What the terminal is: the same for every app.
COLUMNS, LINES = 100, 30
_END = re.compile(r"^%(end|error) \d+ \d+ \d+$")


class Server:
    """A private tmux server (its own socket), alive until :meth:`close`."""

    def __init__(self) -> None:
        self.socket = f"quizzer-bench-{os.getpid()}"
        self.count = 0
        # A session that does nothing keeps the server up between the apps' sessions.
        self.tmux("new-session", "-d", "-s", "keep", "sleep 86400")

    def tmux(self, *args: str) -> str:
        """Run one tmux command against this server; its output."""
        done = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )
        return done.stdout

    def close(self) -> None:
        """Stop the server and every app still in it."""
        self.tmux("kill-server")


class Pane:
    """One app started in a new session of ``server``, ``COLUMNS`` × ``LINES``.

    :attr:`started` is the moment just before the session was asked for: the start of a
    launch. ``env`` is the app's whole environment (tmux would give it the server's).
    """

    def __init__(self, server: Server, argv: list[str], cwd: Path, env: Mapping[str, str]) -> None:
        server.count += 1
        self.name = f"app{server.count}"
        self.socket = server.socket
        command = ["env", "-i", *(f"{key}={value}" for key, value in env.items()), *argv]
        self.started = time.perf_counter()
        self.client = subprocess.Popen(
            [
                "tmux", "-u", "-C", "-L", server.socket,
                "new-session", "-s", self.name, "-x", str(COLUMNS), "-y", str(LINES),
                "-c", str(cwd), shlex.join(command),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )  # fmt: skip
        self._buffer = b""
        self._fresh = False  # output came since the screen was last captured
        self.closed = False

    def _line(self, timeout: float) -> str | None:
        """The client's next line, or ``None`` after ``timeout`` seconds with none."""
        assert self.client.stdout is not None
        fd = self.client.stdout.fileno()
        deadline = time.perf_counter() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.closed = True
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        text = line.decode("utf-8", errors="replace")
        if text.startswith("%output"):
            self._fresh = True
        elif text.startswith("%exit"):
            self.closed = True
        return text

    def command(self, text: str) -> list[str]:
        """Send one tmux command through the client; the lines of its answer."""
        assert self.client.stdin is not None
        self.client.stdin.write(text.encode() + b"\n")
        self.client.stdin.flush()
        answer: list[str] = []
        inside = False
        while True:
            line = self._line(10.0)
            if line is None:
                raise RuntimeError(f"tmux did not answer {text!r}")
            if line.startswith("%begin"):
                inside = True
            elif inside and _END.match(line):
                return answer
            elif inside:
                answer.append(line)

    def screen(self) -> str:
        """What the terminal shows now."""
        self._fresh = False
        return "\n".join(self.command(f"capture-pane -p -t {self.name}"))

    def keys(self, *keys: str) -> float:
        """Press ``keys`` (tmux's key names); the moment they were sent."""
        sent = time.perf_counter()
        self.command(f"send-keys -t {self.name} {' '.join(keys)}")
        return sent

    def wait_for(self, shown: Callable[[str], bool], timeout: float = 60.0) -> float:
        """The moment the screen first shows what ``shown`` wants: looked at on each output
        of the app (a screen is drawn in one or more writes), the time taken when the output
        that completed it arrived."""
        deadline = time.perf_counter() + timeout
        while True:
            arrived = time.perf_counter()
            screen = self.screen()
            if shown(screen):
                return arrived
            while not self._fresh:
                left = deadline - time.perf_counter()
                if self.closed or left <= 0:
                    raise RuntimeError(
                        f"not drawn ({'exited' if self.closed else 'timeout'}):\n{screen}"
                    )
                self._line(left)

    def close(self, quit_keys: tuple[str, ...] = ("C-c",)) -> None:
        """Quit the app with ``quit_keys`` and wait for it to exit (so it closes its files as
        a learner's quit does); kill the session if it doesn't within 10 s."""
        try:
            if not self.closed:
                self.keys(*quit_keys)
            deadline = time.perf_counter() + 10
            while not self.closed and time.perf_counter() < deadline:
                self._line(deadline - time.perf_counter())
        except (RuntimeError, OSError):
            pass
        if not self.closed:
            subprocess.run(
                ["tmux", "-L", self.socket, "kill-session", "-t", self.name],
                capture_output=True,
                check=False,
            )
        assert self.client.stdin is not None
        self.client.stdin.close()
        self.client.wait(timeout=10)
