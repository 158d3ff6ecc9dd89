"""The home screen's deck list never wraps a line: each deck is its name and one line of
counts, fitted to the list's width at 60×20, 80×24 and 120×40 (at 60 columns the counts
keep "N new · N due" and leave out the deck's size; a long name is cut with "…"), from the
first frame on. Pilot on the real app with real deck files, and tmux for what a terminal
shows."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.textshape import cells
from quizzer.ui.widgets.deck_list import DeckLines, DeckList
from tests.factories import ru_bn_deck
from tests.ui_support import NoticedApp

LONG_NAMES = (
    "Machine learning vocabulary for absolute beginners",
    "مصطلحات التعلم الآلي للمبتدئين",
    "Основы нейронных сетей и обучения",
)
COUNTS = re.compile(r"^\d+ new · \d+ due$")


def _decks(tmp_path: Path) -> Path:
    """User decks with long names beside the bundled ones, one of 1,500 concepts."""
    decks = tmp_path / "decks"
    decks.mkdir()
    for i, name in enumerate(LONG_NAMES):
        deck = replace(ru_bn_deck(f"long{i}", 1500 if i == 0 else 3), name=name)
        write_deck(deck, decks / f"long{i}.toml")
    return decks


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 40)])
async def test_every_deck_is_a_name_and_one_line_of_counts(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    store = open_store(tmp_path / "p.json")
    app = NoticedApp(StudyService(store, open_shelf(_decks(tmp_path))))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        decks = home.query_one("#decks", DeckList)
        width = decks.scrollable_content_region.width
        assert decks.option_count == 2 + len(LONG_NAMES)
        for index in range(decks.option_count):
            prompt = decks.get_option_at_index(index).prompt
            assert isinstance(prompt, DeckLines)
            lines = str(prompt.fitted(width)).split("\n")
            assert len(lines) == 2, lines
            for line in lines:
                assert cells(line) <= width, (line, width)
            counts = lines[1]
            if size[0] == 60:
                assert COUNTS.match(counts), counts
            else:
                assert re.match(r"^\d+ concepts · \d+ new · \d+ due$", counts), counts
        prompt = decks.get_option_at_index(2).prompt
        assert isinstance(prompt, DeckLines)
        first = str(prompt.fitted(width)).split("\n")[0]
        if size[0] < 120:
            assert first.endswith("…") and first.startswith("Machine learning")
        else:
            assert first == LONG_NAMES[0]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tmux_60x20_deck_lines_do_not_wrap(tmp_path: Path) -> None:
    """In a real 60×20 terminal each deck's name is followed by its counts line, and the
    pickers fit beside the list, in the first screen that shows the counts."""
    decks = _decks(tmp_path)
    socket = f"quizzer-decklines-{os.getpid()}"
    quizzer = [sys.executable, "-m", "quizzer", "--db", str(tmp_path / "p.json")]
    env = f"LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color QUIZZER_DECKS={shlex.quote(str(decks))}"
    command = f"env -u COLUMNS -u LINES {env} {shlex.join(quizzer)}; sleep 60"

    def tmux(*args: str) -> str:
        done = subprocess.run(
            ["tmux", "-u", "-L", socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    tmux("new-session", "-d", "-s", "n", "-x", "60", "-y", "20", command)
    try:
        deadline = time.monotonic() + 30
        screen = ""
        while time.monotonic() < deadline:
            screen = tmux("capture-pane", "-p", "-t", "n")
            # Each deck's lines are laid out for the width they are drawn at: the first
            # screen with counts (wide or narrow ones) must already fit.
            if re.search(r"\d+ new · \d+ due", screen):
                break
            time.sleep(0.2)
        # The pickers' column is laid out for 60 columns from the first frame too: the
        # prompt's two pickers side by side, the second one's arrow inside the screen.
        assert screen.splitlines()[3].rstrip().endswith("▼"), screen
        # The deck list's column: between the border characters, left of the pickers.
        rows = [line[3:27].strip() for line in screen.splitlines()[4:18]]
        rows = [row for row in rows if row]
        names = ["Quantization", "Training efficiency", "Machine learning voca"]
        for name in names:
            (at,) = [i for i, row in enumerate(rows) if row.startswith(name)]
            assert COUNTS.match(rows[at + 1]), screen
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)
