"""Start-up imports: what `quizzer` loads up to the home screen's first paint.

The home screen needs the deck summaries, the store and Textual. The heavy optional work
(exporting to Anki, merging, importing glossaries, statistics, the optimizer) and the other
screens are imported when a command runs or a screen is pushed; this test fails if one of
them creeps into start-up, where every launch would pay for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[2]

#: Modules the home screen's first paint must not import: heavy optional work, and screens
#: that are imported when they are pushed.
HEAVY = (
    "genanki",  # Anki export
    "zstandard",  # Anki package reading
    "anki",  # Anki's engine (a test dependency)
    "fsrs_rs_python",  # the FSRS optimizer
    "hypothesis",
    "lingua",  # language identification, for imports only
    "quizzer.anki",
    "quizzer.glossary.parse",
    "quizzer.stats",
    "quizzer.services.anki_export",
    "quizzer.services.merge",
    "quizzer.services.stats",
    "quizzer.progress.doctor",
    "quizzer.ui.screens.study",
    "quizzer.ui.screens.stats",
    "quizzer.ui.stats_render",
    "quizzer.cli.import_cmd",
    "quizzer.cli.export_cmd",
    "quizzer.cli.stats_cmd",
)

#: Runs `quizzer` (no command) the way the console script does, headless, up to the home
#: screen with its deck list counted, then prints the modules loaded by then.
FIRST_PAINT = """
import asyncio, json, sys
from quizzer.ui.app import QuizzerApp

async def first_paint(app):
    async with app.run_test(size=(100, 30)) as pilot:
        while type(app.screen).__name__ != "HomeScreen":
            await pilot.pause(0.01)
        await pilot.pause()
        decks = app.screen.query_one("#decks")
        assert decks.option_count >= 1, "no deck listed"
        prompt = str(decks.get_option_at_index(0).prompt)
        print(json.dumps({"modules": sorted(sys.modules), "prompt": prompt}))
    app.exit(0)

QuizzerApp.run = lambda self, **kw: asyncio.run(first_paint(self))  # headless, same path
from quizzer.cli.main import main
main([])
"""


def _first_paint(tmp_path: Path) -> dict[str, object]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QUIZZER_DB": str(tmp_path / "progress.json"),
        "QUIZZER_DECKS": str(tmp_path / "decks"),
        "QUIZZER_CACHE": str(tmp_path / "cache"),
    }
    (tmp_path / "decks").mkdir()
    done = subprocess.run(
        [sys.executable, "-c", FIRST_PAINT],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return seen


def test_home_first_paint_imports_nothing_heavy(tmp_path: Path) -> None:
    seen = _first_paint(tmp_path)
    modules = set(cast("list[str]", seen["modules"]))
    # The run really reached the counted home screen on the real start-up path.
    assert "quizzer.ui.screens.home" in modules
    prompt = str(seen["prompt"])
    assert "new" in prompt and "concepts" in prompt, prompt
    loaded = sorted(
        name for name in modules for heavy in HEAVY if name == heavy or name.startswith(heavy + ".")
    )
    assert loaded == [], f"imported before the home screen's first paint: {loaded}"
