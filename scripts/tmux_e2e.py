#!/usr/bin/env python3
"""End-to-end check of `quizzer study` in a real terminal emulator (tmux), by keystrokes.

Run from the project root: ``.venv/bin/python scripts/tmux_e2e.py`` (exit code 0 = pass).
``tests/e2e/test_ui_tmux.py`` runs it as part of the suite.

In a 100×30 tmux session, with a temporary progress store, it:

1. answers 5 cards in flip mode (Space, then 3) and quits (q, Enter);
2. answers 5 cards in choice mode (1, then Enter) and quits;
3. checks that the store holds exactly those 10 reviews (5 flip, 5 choice);
4. shows an Arabic prompt with ``--rtl app`` and checks the screen holds it in
   visual order (right to left) with joined presentation forms (U+FE70–U+FEFF);
5. reveals a Bengali definition and checks that every row of the card's box has
   its right border in the same column, columns counted the way tmux counts them
   (the C library's ``wcwidth``, not Rich's tables).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIZZER = [sys.executable, "-m", "quizzer"]
WIDTH, HEIGHT = 100, 30
SOCKET = f"quizzer-e2e-{os.getpid()}"
_session = ["e2e-0"]


class Failure(AssertionError):
    """A check failed; the message says which and shows the screen."""


def tmux(*args: str, check: bool = True) -> str:
    """Run a tmux command on our private server; returns stdout."""
    done = subprocess.run(
        ["tmux", "-u", "-L", SOCKET, *args], capture_output=True, text=True, check=False
    )
    if check and done.returncode != 0:
        raise Failure(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def screen() -> str:
    """The visible pane as text."""
    return tmux("capture-pane", "-p", "-t", _session[0])


def wait_for(pred: Callable[[str], bool], what: str, timeout: float = 15.0) -> str:
    """Poll the pane until ``pred`` holds; fail with the screen if it never does."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen()
        if pred(text):
            return text
        time.sleep(0.05)
    raise Failure(f"timed out waiting for {what}; screen:\n{text}")


def keys(*names: str) -> None:
    """Send keys one at a time (Escape followed by a key would read as Alt+key)."""
    for name in names:
        tmux("send-keys", "-t", _session[0], name)
        time.sleep(0.08)


def start(args: list[str], db: Path) -> None:
    """Open the session running ``quizzer`` with ``args``; it stays open after quizzer exits."""
    env = f"LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color QUIZZER_DB={shlex.quote(str(db))}"
    # COLUMNS/LINES (pytest exports 80×24) would override the pane's real size.
    command = f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {env} "
    command += shlex.join([*QUIZZER, *args])
    command += "; echo QUIZZER-EXITED-$?; sleep 600"
    # A fresh session each time (killing the last one could stop the server under us).
    old = _session[0]
    _session[0] = f"e2e-{int(old.rsplit('-', 1)[1]) + 1}"
    tmux("new-session", "-d", "-s", _session[0], "-x", str(WIDTH), "-y", str(HEIGHT), command)
    tmux("kill-session", "-t", old, check=False)


def done_count(text: str) -> int | None:
    """The ``N done`` figure of the study header (its first or, when narrow, second line)."""
    for line in text.splitlines()[:2]:
        if " done · " in line:
            return int(line.split(" done · ")[0].split()[-1])
    return None


def answer_cards(mode: str, count: int) -> None:
    """Answer ``count`` cards by keystrokes in flip or choice mode."""
    for n in range(count):
        hint = "Space: show the answer" if mode == "flip" else "1–4, or ↑ ↓ and Enter"
        wait_for(
            lambda t, n=n, hint=hint: done_count(t) == n and hint in t and "Continue" not in t,
            f"card {n + 1} in {mode} mode",
        )
        if mode == "flip":
            keys("Space")
            wait_for(lambda t: "Again" in t and "Good" in t, "the grade buttons")
            keys("3")
        else:
            keys("1")
            wait_for(lambda t: "Continue (Enter)" in t, "the choice feedback")
            keys("Enter")
        wait_for(lambda t, n=n: done_count(t) == n + 1, f"answer {n + 1} recorded")


def quit_session() -> None:
    """q ends the session; Enter leaves the summary; quizzer exits with 0."""
    keys("q")
    wait_for(lambda t: "Session over" in t, "the summary")
    keys("Enter")
    wait_for(lambda t: "QUIZZER-EXITED-0" in t, "quizzer to exit with 0")


def _libc_wcwidth() -> Callable[[str], int]:
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.setlocale.restype = ctypes.c_char_p
    if not libc.setlocale(6, b"C.UTF-8"):  # LC_ALL
        libc.setlocale(6, b"en_US.UTF-8")
    libc.wcwidth.argtypes = [ctypes.c_wchar]

    def width(ch: str) -> int:
        return max(0, libc.wcwidth(ch))

    return width


def border_columns(text: str, wcwidth: Callable[[str], int]) -> list[tuple[int, int, str]]:
    """(row, column of the last box-drawing border, line) for each row of a box on screen."""
    rows = []
    for index, line in enumerate(text.splitlines()):
        column, last = 0, None
        for ch in line:
            if ch in "│╮╯":
                last = column
            column += wcwidth(ch)
        if last is not None and line.lstrip().startswith(("│", "╭", "╰")):
            rows.append((index, last, line))
    return rows


def check_reviews(db: Path) -> None:
    """The store holds the 10 answers: 5 flip, 5 choice."""
    sys.path.insert(0, str(ROOT))
    from quizzer.progress import open_store

    with open_store(db, read_only=True) as store:
        log = store.reviews()
    modes = sorted(r.mode for r in log)
    if len(log) != 10 or modes != ["choice"] * 5 + ["flip"] * 5:
        raise Failure(f"expected 5 flip + 5 choice reviews, found {modes}")
    print(f"ok: the store holds 10 reviews ({len(set(r.card_id for r in log))} cards)")


def check_arabic(db: Path) -> None:
    """An Arabic prompt in app mode: visual order, joined forms."""
    import arabic_reshaper

    sys.path.insert(0, str(ROOT))
    from quizzer.library.decks import find_deck

    concept = find_deck("quantization").deck.concepts[0]
    logical = concept.text("ar", "term")
    assert logical and all(not ch.isascii() or ch == " " for ch in logical), logical
    start(
        [
            "study",
            "quantization",
            "--from",
            "ar:term",
            "--to",
            "en:term",
            "--mode",
            "flip",
            "--rtl",
            "app",
        ],
        db,
    )
    text = wait_for(lambda t: "Arabic · " in t and " term" in t, "the Arabic card")
    joined = arabic_reshaper.reshape(logical)
    visual = joined[::-1]  # a purely Arabic line reads right to left: reversed in the grid
    lines = [line.strip(" │") for line in text.splitlines()]
    if visual not in lines:
        raise Failure(f"no line holds {visual!r} (visual order of {logical!r}); screen:\n{text}")
    if logical in text or joined in lines:
        raise Failure(f"the Arabic prompt is in logical order; screen:\n{text}")
    forms = sum(0xFE70 <= ord(ch) <= 0xFEFF for ch in visual)
    if forms < len(logical) // 2:
        raise Failure(f"only {forms} presentation forms in {visual!r}")
    print(f"ok: Arabic prompt {logical!r} shown as {visual!r} ({forms} presentation forms)")
    quit_session()


def check_bengali(db: Path) -> None:
    """A Bengali card's box has its right border in one column on every row."""
    wcwidth = _libc_wcwidth()
    if wcwidth("\u09be") != 1:
        raise Failure("the C library doesn't give Bengali vowel sign AA one cell")
    start(
        [
            "study",
            "quantization",
            "--from",
            "en:term",
            "--to",
            "bn:definition",
            "--mode",
            "flip",
            "--rtl",
            "app",
        ],
        db,
    )
    wait_for(lambda t: "English term" in t, "the Bengali card")
    keys("Space")
    sys.path.insert(0, str(ROOT))
    from quizzer.concepts.languages import both_names

    # The card names the language as CLDR does, in English and in itself ("Bangla · বাংলা").
    label = f"{both_names('bn')} definition"
    text = wait_for(lambda t: label in t, "the Bengali answer")
    rows = border_columns(text, wcwidth)
    bengali = [r for r in rows if any("\u0980" <= ch <= "\u09ff" for ch in r[2])]
    if not bengali:
        raise Failure(f"no Bengali row inside a box; screen:\n{text}")
    spill = [line for _row, _col, line in rows if line.rstrip()[-1] not in "│╮╯"]
    if spill:
        raise Failure("text spills past a box's right border:\n" + "\n".join(spill))
    sys.path.insert(0, str(ROOT))
    from quizzer.library.decks import find_deck

    definition = find_deck("quantization").deck.concepts[0].text("bn", "definition") or ""
    inside = " ".join(line.strip().strip("│").strip() for _r, _c, line in rows)
    if " ".join(definition.split()) not in " ".join(inside.split()):
        raise Failure(f"the Bengali definition is cut short on screen:\n{text}")
    columns = {col for _row, col, _line in rows}
    if len(columns) != 1:
        detail = "\n".join(f"{row:2d} col {col:3d} {line}" for row, col, line in rows)
        raise Failure(f"right borders in columns {sorted(columns)}:\n{detail}")
    print(f"ok: {len(rows)} box rows ({len(bengali)} with Bengali) end in column {columns.pop()}")
    quit_session()


def main() -> int:
    """Run every check; print what passed; exit 1 with the screen on the first failure."""
    if not shutil_which("tmux"):
        print("tmux is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="quizzer-e2e-") as tmp:
        db = Path(tmp) / "progress.json"
        try:
            start(
                [
                    "study",
                    "training-efficiency",
                    "--from",
                    "en:definition",
                    "--to",
                    "en:term",
                    "--mode",
                    "flip",
                    "--rtl",
                    "app",
                ],
                db,
            )
            answer_cards("flip", 5)
            quit_session()
            print("ok: 5 cards answered in flip mode")
            start(
                [
                    "study",
                    "quantization",
                    "--from",
                    "en:term",
                    "--to",
                    "ru:term",
                    "--mode",
                    "choice",
                    "--rtl",
                    "app",
                ],
                db,
            )
            answer_cards("choice", 5)
            quit_session()
            print("ok: 5 cards answered in choice mode")
            check_reviews(db)
            check_arabic(Path(tmp) / "arabic.json")
            check_bengali(Path(tmp) / "bengali.json")
        except Failure as exc:
            print(f"FAIL: {exc}", file=sys.stderr)
            return 1
        finally:
            tmux("kill-server", check=False)
    print("all tmux checks passed")
    return 0


def shutil_which(name: str) -> str | None:
    """``shutil.which`` (imported late to keep the module's top short)."""
    import shutil

    return shutil.which(name)


if __name__ == "__main__":
    sys.exit(main())
