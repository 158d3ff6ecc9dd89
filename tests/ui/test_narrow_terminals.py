"""Narrow terminals: every screen and mode at 60×20 and 80×24 (snapshots), and what
must stay readable and reachable there (Pilot): the grade intervals, the home
screen's pickers and Start, the whole help, the stats numbers; the focus back on
the deck list after a session, and the session header's new / learning / due counts.

Regenerate the snapshots after a deliberate change with
``pytest tests/ui/test_narrow_terminals.py --snapshot-update`` and look at them.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Button, Static

from quizzer.stats.compute import compute_stats
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.stats import StatsScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.screens.summary import SummaryScreen
from quizzer.ui.stats_table import RenderedTable
from quizzer.ui.widgets.deck_list import DeckList
from quizzer.ui.widgets.line_button import LineButton
from quizzer.ui.widgets.progress_header import ProgressHeader
from quizzer.ui.widgets.quiz_footer import QuizFooter
from tests.synthetic_history import make_deck, make_history
from tests.ui_support import choice, make_app, show_summary

SIZES = [pytest.param((60, 20), id="60x20"), pytest.param((80, 24), id="80x24")]
NARROW = (60, 20)


class StatsApp(App[None]):
    """A bare app showing the statistics of a fixed synthetic history."""

    def on_mount(self) -> None:
        history = make_history(seed=42, n_cards=60, days=365)
        stats = compute_stats(
            history.reviews, history.cards, history.now, history.tz, 4, decks=[make_deck()]
        )
        self.push_screen(StatsScreen(stats))


def _visible(app: App[None], widget) -> bool:
    """``widget`` is drawn whole inside the screen (not cut off at the right or bottom)."""
    region = widget.region
    screen = app.screen.region
    return region.width > 0 and region.height > 0 and screen.contains_region(region)


# -- snapshots ----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_home_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(tmp_path / "p.json"), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_flip_revealed_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ru:term", "flip"))
    assert snap_compare(app, press=["space"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_choice_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json", choice("training-efficiency", "ru:term>en:term", "choice"))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_typed_near_miss_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(
        tmp_path / "p.json", choice("training-efficiency", "en:definition>en:term", "typed")
    )
    keys = [*"Paremeter-Efficient Fine-Tuning", "enter"]
    assert snap_compare(app, press=keys, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_learn_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "fr:term>en:term", "learn"))
    assert snap_compare(app, press=["_"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_help_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json")
    assert snap_compare(app, press=["question_mark"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_summary_narrow(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json")
    assert snap_compare(app, run_before=show_summary, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_stats_narrow(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(StatsApp(), terminal_size=size)


# -- readable and reachable at 60×20 (Pilot) -----------------------------------


def _inside(widget, container=None) -> bool:
    """``widget`` is drawn whole on screen (and inside ``container``'s visible region)."""
    region = widget.region
    if region.width <= 0 or region.height <= 0:
        return False
    outer = container.region if container is not None else widget.screen.region
    inside: bool = widget.screen.region.contains_region(region)
    return inside and outer.contains_region(region)


def _label_fits(button: Button | LineButton) -> bool:
    """The button's label is on one line, whole."""
    label = button.label.plain if hasattr(button.label, "plain") else str(button.label)
    return _inside(button) and button.size.height == 1 and button.content_size.width > len(label)


async def test_grade_buttons_show_every_interval_at_60x20(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ru:term", "flip"))
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        for grade in (1, 2, 3, 4):
            button = app.screen.query_one(f"#grade-{grade}", Button)
            assert " · " in str(button.label), button.label  # the interval is there
            assert _label_fits(button), (button.label, button.content_size)


async def test_home_pickers_start_and_footer_fit_at_60x20(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        for name in ("from-lang", "from-side", "to-lang", "to-side", "mode", "mode-help"):
            assert _inside(home.query_one(f"#{name}")), name
        assert _label_fits(home.query_one("#start", LineButton))
        footer = home.query_one(QuizFooter)
        keys = footer.entries
        assert {k.description for k in keys} >= {"Start", "Mode", "Stats", "Help", "Quit", "Theme"}
        assert _inside(footer)
        for key in keys:  # every key drawn whole within the footer's width
            assert key.end <= footer.size.width, key.description
        drawn = str(footer.render())
        for key in keys:
            assert f"{key.key_display} {key.description}" in drawn, key.description


async def test_help_scrolls_to_every_key_at_60x20(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        close = app.screen.query_one("#help-close", Static)
        assert not _inside(close)  # the help is longer than 20 lines...
        await pilot.press("end")
        await pilot.pause()
        assert _inside(close)  # ...and scrolls to its end (the learn section, Esc closes)
        right = app.screen.query_one("#help-right", Static)
        assert right.region.right <= 60 and "misses come back soon" in str(right.render())


async def test_stats_tables_fit_at_60x20() -> None:
    app = StatsApp()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        await pilot.pause()
        tables = ["#stats-today", "#stats-states", "#stats-retention", "#stats-mastery"]
        tables += ["#stats-hardest", "#stats-languages", "#stats-pairs"]
        for name in tables:  # side by side only where they fit, wrapped to the width
            table = app.screen.query_one(name, RenderedTable)
            assert table.virtual_region.right <= 60, (name, table.virtual_region)


async def test_typed_feedback_scrolls_into_sight_at_60x20(tmp_path: Path) -> None:
    app = make_app(
        tmp_path / "p.json", choice("training-efficiency", "en:definition>en:term", "typed")
    )
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        await pilot.press(*"Paremeter-Efficient Fine-Tuning", "enter")
        await pilot.pause()
        body = app.screen.query_one("#study-body")
        for name in ("#continue", "#diff", "#i-was-right"):
            assert _inside(app.screen.query_one(name), body), name


# -- back home, the deck list has the focus --------------------------------------


async def test_back_home_from_a_session_the_deck_list_has_the_focus(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        await pilot.press("f", "ctrl+s")  # start from a picker
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is home
        assert isinstance(app.focused, DeckList)
        await pilot.press("enter")  # so Enter starts again, it doesn't open a picker
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)


async def test_help_from_home_keeps_the_focus_where_it_was(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "question_mark")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.focused is app.screen.query_one("#from-lang")


# -- the header counts new, learning and due cards -------------------------------


def _header(app: App[Any]) -> str:
    return app.screen.query_one(ProgressHeader).counts


async def test_header_counts_a_card_in_its_learning_steps_once(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ru:term", "flip"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = _header(app)
        assert first.startswith("0 done · new ") and first.endswith(" · learning 0 · due 0")
        new = int(first.split("new ")[1].split(" ·")[0])
        await pilot.press("space", "3")  # Good: the card comes back in a few minutes
        await pilot.pause()
        assert _header(app) == f"1 done · new {new - 1} · learning 1 · due 0"
        await pilot.press("u")
        await pilot.pause()
        assert _header(app) == first


async def test_learn_header_keeps_round_and_concepts(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "fr:term>en:term", "learn"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = _header(app)
        assert header.startswith("round 1/") and " · 0 done · " in header
        assert header.endswith(" left")


# -- everything readable in a real terminal: tmux at 60×20 ----------------------


class _Tmux:
    """A private tmux server running ``quizzer`` in a 60×20 pane."""

    def __init__(self, db: Path) -> None:
        self.socket = f"quizzer-narrow-{os.getpid()}"
        quizzer = [sys.executable, "-m", "quizzer", "--db", str(db)]
        env = "LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color"
        command = f"env -u COLUMNS -u LINES {env} {shlex.join(quizzer)}; sleep 60"
        self.run("new-session", "-d", "-s", "n", "-x", "60", "-y", "20", command)

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "n")

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        """The screen once ``text`` is on it (a regular expression when it starts with ``re:``)."""
        deadline = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen()
            if re.search(text[3:], shown) if text.startswith("re:") else text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; screen:\n{shown}")

    def keys(self, *names: str) -> None:
        for name in names:
            self.run("send-keys", "-t", "n", name)
            time.sleep(0.15)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tmux_60x20_everything_readable(tmp_path: Path) -> None:
    """At 60×20: home's pickers, Start and the whole footer; the header counts and the four
    grade intervals; the help's last line after scrolling; stats numbers."""
    term = _Tmux(tmp_path / "p.json")
    try:
        home = term.wait_for("Start (Enter · ^s)")
        assert "Mode" in home and "flip" in home and home.rstrip().endswith("^t Theme")
        term.keys("Enter")
        term.wait_for("Space: show the answer")
        term.keys("Space")
        shown = term.wait_for("1 Again · 1m")
        for label in ("2 Hard · ", "3 Good · 10m", "4 Easy · "):
            assert label in shown, shown
        term.keys("3")
        shown = term.wait_for("1 done · ")
        assert "learning 1 · due 0" in shown, shown
        term.keys("?")
        term.wait_for("Everywhere")
        term.keys("End")
        shown = term.wait_for("u b     undo · bury, as above")
        assert "misses come back soon" in shown
        term.keys("Escape", "Escape")
        term.wait_for("Session over")
        term.keys("s")
        term.wait_for("Cards by state")
        shown = term.wait_for(r"re:Learning\s+1\b")  # the numbers beside their labels
        assert re.search(r"New\s+19\b", shown), shown
    finally:
        term.close()
