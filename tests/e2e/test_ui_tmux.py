"""The terminal test: scripts/tmux_e2e.py drives `quizzer study` in a real tmux by keystrokes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tmux_e2e.py"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tmux_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "ok: the store holds 10 reviews" in out
    assert "presentation forms" in out
    assert "end in column" in out
