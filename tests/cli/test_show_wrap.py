"""`quizzer show` in a terminal wraps to its width; piped, each text stays on one line.

Before, in a terminal the lines ran past the edge, so the terminal broke them
mid-word and a Bengali vowel sign landed at the start of the next line; Arabic continuation
lines started at the left indent. Here the command runs under a pseudo-terminal of a known
size (Rich asks the terminal for its width, as it does in a real one).
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import termios
import unicodedata
from pathlib import Path

import pytest

import quizzer
from quizzer.library.decks import find_deck
from quizzer.ui.textshape import cells, has_rtl

#: The checkout whose `quizzer` is tested (the one on the path, as `python -m` runs it).
ROOT = Path(quizzer.__file__).resolve().parents[1]
DECKS = ("training-efficiency", "quantization")
#: Variables that would make Rich ignore the terminal's size or its being a terminal,
#: or make `--rtl auto` pick terminal bidi.
_DROP = (
    "COLUMNS",
    "LINES",
    "FORCE_COLOR",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "NO_COLOR",
    "VTE_VERSION",
    "TMUX",
    "STY",
)
_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


def _env(decks: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROP}
    env.update(QUIZZER_DECKS=str(decks), TERM="xterm-256color")
    return env


def show_in_terminal(deck: str, columns: int, decks: Path, *extra: str) -> list[str]:
    """The lines `quizzer show DECK` draws on a terminal ``columns`` wide, escapes removed."""
    master, slave = pty.openpty()
    termios.tcsetwinsize(slave, (50, columns))
    proc = subprocess.Popen(
        [sys.executable, "-m", "quizzer", "show", deck, *extra],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=_env(decks),
        cwd=ROOT,
    )
    os.close(slave)
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, "quizzer show did not finish"
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        assert proc.wait(timeout=60) == 0
    text = _ESCAPE.sub("", b"".join(chunks).decode())
    return text.replace("\r\n", "\n").rstrip("\n").split("\n")


def _arabic_block_lines(lines: list[str]) -> tuple[list[str], int]:
    """Lines of right-to-left Arabic texts (label line, `was:` line and their continuations),
    and how many of them are continuation lines. A Latin `ar` term (GPTQ) is left out."""
    found: list[str] = []
    continuations = 0
    lang, inside = "", False
    for line in lines:
        label = re.match(r"  (\w\w) (term|definition) ", line)
        stripped = line.strip()
        if label:
            lang = label.group(1)
            inside = lang == "ar" and has_rtl(line)
        elif stripped.startswith("was:"):
            inside = lang == "ar" and has_rtl(line)
        elif not line.startswith(" " * 16) or stripped[:1] in ("[", "("):
            inside = False
        elif inside:
            continuations += 1
        if inside:
            found.append(line)
    return found, continuations


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("deck", DECKS)
def test_show_in_a_terminal_fits_its_width(deck: str, columns: int, decks: Path) -> None:
    lines = show_in_terminal(deck, columns, decks)
    too_wide = [line for line in lines if cells(line) > columns]
    assert not too_wide, too_wide[:3]
    # No line starts with a combining mark (a Bengali vowel sign cut off its letter).
    for line in lines:
        stripped = line.lstrip(" ")
        assert not stripped or unicodedata.category(stripped[0])[0] != "M", line
    # Words are whole: every word of the en/ru/fr/bn texts is a word of some line.
    words = {word for line in lines for word in line.split()}
    for concept in find_deck(deck).deck:
        for lang in ("en", "ru", "fr", "bn"):
            if lang not in concept.entries:
                continue
            entry = concept.entries[lang]
            for text in (entry.term.text, entry.definition.text):
                missing = [word for word in text.split() if word not in words]
                assert not missing, (concept.id, lang, missing)
    # Arabic (shaped here: tmux-like terminal without bidi) is right-aligned, continuation
    # lines too: each of its lines ends at the right edge.
    arabic, continuations = _arabic_block_lines(lines)
    assert arabic and continuations > 0
    ragged = [line for line in arabic if cells(line) != columns]
    assert not ragged, ragged[:3]


@pytest.mark.parametrize("deck", DECKS)
def test_terminal_bidi_mode_wraps_too(deck: str, decks: Path) -> None:
    lines = show_in_terminal(deck, 60, decks, "--rtl", "terminal")
    assert max(cells(line) for line in lines) <= 60
    starts = [line.lstrip(" ")[:1] for line in lines]
    assert all(unicodedata.category(ch)[0] != "M" for ch in starts if ch)


def expected_piped(deck_id: str) -> str:
    """What `quizzer show` printed to a pipe before wrapping existed: one text per line."""
    deck = find_deck(deck_id).deck
    out = [f"{deck.name}  ({deck.id}, {len(deck)} concepts)"]
    for concept in deck:
        out += ["", concept.id + (f"  {concept.acronym}" if concept.acronym else "")]
        for lang in concept.languages:
            entry = concept.entries[lang]
            for side in ("term", "definition"):
                text = entry.side(side)
                record = text.to_dict()
                source = record["source"]
                if "file" in record:
                    source += f" {record['file']}:{record['line']}"
                out.append(f"  {lang} {side:<10} {text.text}  [{source}]")
                if text.source.kind == "corrected":
                    out.append(f"{'':16}was: {text.source.original}  ({text.source.reason})")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("deck", DECKS)
def test_piped_output_is_unchanged(deck: str, decks: Path) -> None:
    env = {**_env(decks), "COLUMNS": "60"}
    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "show", deck],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert result.stdout == expected_piped(deck)
