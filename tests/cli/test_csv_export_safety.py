"""`quizzer log export --csv`: safe to open in a spreadsheet, safe to print on a terminal.

Typed answers hold formulas, bare carriage returns, line feeds and terminal escape
sequences (the store accepts them; merging another store can carry them in). The CSV
reads back one row per answer, formula-like cells start with ``'`` unless ``--raw``,
and no control character reaches a terminal raw.
"""

from __future__ import annotations

import csv
import io
import os
import pty
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cli.csv_cells import FORMULA_STARTS
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = [
    "=1+1",
    "+SUM(A1:A2)",
    "-2+3",
    "@cmd",
    "\tTAB",
    "\r=1+1",
    "before\rafter",
    "line\nbreak",
    "crlf\r\nrow",
    "\x1b]52;c;cHduZWQ=\x07clipboard",
    "\x1b[2Jcleared",
    '=HYPERLINK("http://x","y")',
    "plain, with a comma",
]
ANSWERS = 71


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A store with 71 typed answers, cycling through the hostile texts."""
    path = tmp_path / "progress.json"
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    with open_store(path) as store:
        for i in range(ANSWERS):
            typed = HOSTILE[i % len(HOSTILE)]
            answer = Answer(mode="typed", typed=typed, correct=False)
            card = f"demo/c{i}|ru:term>bn:definition"
            store.record(card, 1, start + timedelta(minutes=i), answer)
    return path


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_every_answer_reads_back_as_one_row_with_formulas_neutralised(db, tmp_path):
    out = tmp_path / "log.csv"
    assert main(["log", "export", "--csv", str(out), "--db", str(db)]) == 0
    rows = _rows(out.read_bytes().decode("utf-8"))
    assert len(rows) == ANSWERS
    for i, row in enumerate(rows):
        typed = HOSTILE[i % len(HOSTILE)]
        expected = "'" + typed if typed.startswith(FORMULA_STARTS) else typed
        assert row["typed"] == expected
        assert not row["typed"].startswith(FORMULA_STARTS)
        for value in row.values():
            assert not value.startswith(FORMULA_STARTS)


def test_raw_writes_the_exact_text(db, tmp_path):
    out = tmp_path / "log.csv"
    assert main(["log", "export", "--csv", str(out), "--raw", "--db", str(db)]) == 0
    rows = _rows(out.read_bytes().decode("utf-8"))
    assert [row["typed"] for row in rows] == [HOSTILE[i % len(HOSTILE)] for i in range(ANSWERS)]


def test_stdout_that_is_no_terminal_gets_the_file_s_bytes(db, tmp_path, capsys):
    out = tmp_path / "log.csv"
    assert main(["log", "export", "--csv", str(out), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["log", "export", "--csv", "-", "--db", str(db)]) == 0
    assert capsys.readouterr().out == out.read_bytes().decode("utf-8")


@pytest.mark.parametrize("raw", [False, True])
def test_no_control_character_reaches_a_terminal(db, raw):
    """``--csv -`` on a real pseudo-terminal: ESC and BEL come out as escapes, with or
    without ``--raw``; each answer still on one line."""
    primary, secondary = pty.openpty()
    args = ["log", "export", "--csv", "-", "--db", str(db), *(["--raw"] if raw else [])]
    code = "import sys; from quizzer.cli.main import main; sys.exit(main(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=secondary, stderr=subprocess.PIPE, env=env
    )
    os.close(secondary)
    received = b""
    while True:
        try:
            chunk = os.read(primary, 1 << 16)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(primary)
    assert child.wait(timeout=60) == 0
    assert child.stderr is not None and child.stderr.read() == b""
    assert b"\x1b" not in received and b"\x07" not in received
    text = received.decode("utf-8")
    assert "\\x1b]52;c;cHduZWQ=\\x07clipboard" in text
    # The terminal turns each line end into CRLF; one line per answer plus the header.
    assert len(text.replace("\r\n", "\n").rstrip("\n").split("\n")) == ANSWERS + 1
