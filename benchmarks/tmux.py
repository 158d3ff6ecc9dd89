"""Apps run in a real terminal: each app in a tmux server of its own, 100 × 30.

Each app's session is created and held by a tmux *control-mode* client (``tmux -C``): tmux
tells it whenever the app writes to its terminal (``%output``), and answers its commands
(``capture-pane``, ``send-keys``) over a pipe in a fraction of a millisecond, with no process
started per look. So a wait for something to be drawn looks at the screen only when the app
has drawn, instead of polling a busy machine; the moment the wanted text is on the screen is
known to the output the app wrote last. One server per app: tmux 3.3's server, creating and
destroying many control-mode sessions, now and then exits on its own.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shlex
import subprocess
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path

#: What the terminal is: the same for every app.
COLUMNS, LINES = 100, 30
#: What tmux writes on a pane whose app has exited.
DEAD = "Pane is dead"
_END = re.compile(r"^%(end|error) \d+ \d+ \d+$")


class Server:
    """Where the apps' tmux servers are made: their configuration, their sockets' names."""

    def __init__(self, folder: Path) -> None:
        self.prefix = f"quizzer-bench-{os.getpid()}"
        self.count = 0
        self.config = folder / "tmux.conf"
        # An app that exits stays on screen (with tmux's "Pane is dead" line), so a failure
        # shows what the app said last.
        self.config.write_text("set-option -g remain-on-exit on\n", encoding="utf-8")

    def socket(self) -> str:
        """A new socket's name, for one app's server."""
        self.count += 1
        return f"{self.prefix}-{self.count}"

    def close(self) -> None:
        """Stop every app's server still running."""
        for number in range(1, self.count + 1):
            subprocess.run(
                ["tmux", "-L", f"{self.prefix}-{number}", "kill-server"],
                capture_output=True,
                check=False,
            )


class Pane:
    """One app started in a tmux server of its own, ``COLUMNS`` × ``LINES``.

    :attr:`started` is the moment just before the server was asked for: the start of a
    launch. ``env`` is the app's whole environment (tmux would give it the server's).
    """

    def __init__(self, server: Server, argv: list[str], cwd: Path, env: Mapping[str, str]) -> None:
        self.socket = server.socket()
        self.name = "app"
        command = ["env", "-i", *(f"{key}={value}" for key, value in env.items()), *argv]
        self.started = time.perf_counter()
        self.client = subprocess.Popen(
            [
                "tmux", "-u", "-C", "-L", self.socket, "-f", str(server.config),
                "new-session", "-s", self.name, "-x", str(COLUMNS), "-y", str(LINES),
                "-c", str(cwd), shlex.join(command),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )  # fmt: skip
        self._buffer = b""
        self.log: deque[str] = deque(maxlen=20)  # the last lines, for an error message
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
        self.log.append(text[:200])
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
                state = "exited" if self.closed else "silent"
                raise RuntimeError(f"tmux did not answer {text!r} ({state}): {list(self.log)}")
            if line.startswith("%begin") and line.endswith(" 1"):
                inside = True  # flags 1: the answer to this client's command (0: tmux's own)
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

    def settle(self, quiet: float = 0.15, limit: float = 2.0) -> None:
        """Wait until the app has written nothing for ``quiet`` seconds (at most ``limit``):
        a learner's pause before the next key, so a key isn't timed behind drawing still
        under way from the one before."""
        start = last = time.perf_counter()
        while (now := time.perf_counter()) - last < quiet and now - start < limit:
            self._fresh = False
            self._line(min(quiet - (now - last), limit - (now - start)))
            if self._fresh:
                last = time.perf_counter()
            if self.closed:
                return

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
            if DEAD in screen:
                raise RuntimeError(f"the app exited:\n{screen}")
            while not self._fresh:
                left = deadline - time.perf_counter()
                if self.closed or left <= 0:
                    raise RuntimeError(
                        f"not drawn ({'exited' if self.closed else 'timeout'}):\n{screen}"
                    )
                self._line(left)

    def close(self, quit_keys: tuple[str, ...] = ("C-c",)) -> None:
        """Quit the app with ``quit_keys`` and wait for it to exit (so it closes its files as
        a learner's quit does), for at most 10 s; then end the session."""
        try:
            self.keys(*quit_keys)
            deadline = time.perf_counter() + 10
            while time.perf_counter() < deadline:
                dead = self.command(f"display-message -p -t {self.name} '#{{pane_dead}}'")
                if dead == ["1"]:
                    break
                self._line(0.05)
        except (RuntimeError, OSError):
            pass
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"],
            capture_output=True,
            check=False,
        )
        assert self.client.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # the client left with the session
            self.client.stdin.close()
        self.client.wait(timeout=10)
