"""Save SVG screenshots of the real app for the README and the docs site.

Drives ``QuizzerApp`` with Textual's Pilot on the bundled decks and a fresh progress store in a
temporary folder, at 100x30, and writes ``docs/assets/home.svg``, ``study-choice.svg``,
``study-flip.svg`` and ``stats.svg``. Run it from the project root after a change to the screens:

    QUIZZER_DB=$(mktemp -d)/p.json PYTHONPATH=$PWD python scripts/screenshots.py

The store, decks and cache the app would otherwise use are never touched: everything it writes
goes to a temporary folder that is removed at the end.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

from textual.pilot import Pilot

from quizzer.cards.card import Pair
from quizzer.library.decks import load_library
from quizzer.progress import open_store
from quizzer.services.study import StudyService
from quizzer.study.selection import StudyChoice
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.stats import StatsScreen
from quizzer.ui.screens.summary import SummaryScreen

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "docs" / "assets"
SIZE = (100, 30)


async def _settle(pilot: Pilot[int], rounds: int = 3) -> None:
    """Let the app handle what the last key posted (a few event-loop turns)."""
    for _ in range(rounds):
        await pilot.pause()


def _app(tmp: Path, name: str, start: StudyChoice | None = None) -> QuizzerApp:
    """The real app on the bundled decks and a fresh store of its own (fixed seeds)."""
    decks = [item.deck for item in load_library(tmp / "no-user-decks")]
    store = open_store(tmp / f"{name}.json", rng=random.Random(7))
    return QuizzerApp(StudyService(store, decks, seed=7), start=start, rtl_mode="app")


def _save(app: QuizzerApp, name: str, saved: list[Path]) -> None:
    app.save_screenshot(filename=name, path=str(ASSETS))
    saved.append(ASSETS / name)


async def _shoot(tmp: Path) -> list[Path]:
    saved: list[Path] = []

    # The home screen, as `quizzer` opens it on the bundled decks.
    app = _app(tmp, "home")
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        _save(app, "home.svg", saved)
        await pilot.press("q")

    # Multiple choice, Arabic term to English definition.
    choice = StudyChoice("quantization", Pair.parse("ar:term>en:definition"), "choice")
    app = _app(tmp, "choice", choice)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot, 5)
        _save(app, "study-choice.svg", saved)

    # Flip, Russian term to Bengali term: the answer shown with the four grade buttons, then a
    # dozen cards answered Good so the statistics have something to count.
    flip = StudyChoice("quantization", Pair.parse("ru:term>bn:term"), "flip")
    app = _app(tmp, "flip", flip)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot, 5)
        await pilot.press("space")
        await _settle(pilot, 5)
        _save(app, "study-flip.svg", saved)
        await pilot.press("3")
        for _ in range(11):
            await pilot.press("space", "3")
            await _settle(pilot)
        await pilot.press("q")
        await _settle(pilot, 5)
        if not isinstance(app.screen, SummaryScreen):
            await pilot.press("enter")  # a confirmation before ending, if one is asked
            await _settle(pilot, 5)
        await pilot.press("s")
        for _ in range(100):
            await _settle(pilot)
            if isinstance(app.screen, StatsScreen) and "Counting" not in app.export_screenshot():
                break
            await asyncio.sleep(0.05)
        _save(app, "stats.svg", saved)
    return saved


def main() -> int:
    ASSETS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="quizzer-shots-") as tmp_name:
        tmp = Path(tmp_name)
        # The app keeps preferences and caches beside the store and in the cache folder:
        # point every place it writes into the temporary folder.
        os.environ["QUIZZER_DB"] = str(tmp / "progress.json")
        os.environ["QUIZZER_DECKS"] = str(tmp / "no-user-decks")
        os.environ["QUIZZER_CACHE"] = str(tmp / "cache")
        os.environ.setdefault("TZ", "UTC")
        saved = asyncio.run(_shoot(tmp))
    for path in saved:
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
