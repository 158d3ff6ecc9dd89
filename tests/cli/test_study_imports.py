"""`quizzer study` imports what its first card needs: not the other screens, the importer,
Anki, the statistics or the merge, which are imported when a command or a screen needs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Runs `quizzer study ARGS` in the real app (headless) up to its first card, then prints
#: the modules loaded by then.
TO_FIRST_CARD = """
import asyncio, json, sys
from quizzer.cli.main import main
from quizzer.ui.app import QuizzerApp
shown = []
def run(self):
    async def go():
        async with self.run_test(size=(100, 30)) as pilot:
            while type(self.screen).__name__ != "StudyScreen" or self.screen.card is None:
                await pilot.pause(0.01)
            shown.append(self.screen.card.id)
    asyncio.run(go())
QuizzerApp.run = run
code = main(sys.argv[1:])
print(json.dumps({"code": code, "card": shown, "modules": sorted(sys.modules)}), file=sys.stderr)
"""

#: Not needed before the first card shows.
LATER = (
    "quizzer.library.importer",
    "quizzer.glossary",
    "quizzer.anki",
    "quizzer.stats",
    "quizzer.services.stats",
    "quizzer.services.merge",
    "quizzer.progress.doctor",
    "quizzer.ui.screens.home",
    "quizzer.ui.screens.stats",
    "quizzer.ui.screens.help",
    "quizzer.cli.import_cmd",
    "quizzer.cli.stats_cmd",
    "quizzer.cli.export_cmd",
    "genanki",
    "fsrs_rs_python",
    # --from and --to name languages of the deck: no tag tables to load for them.
    "langcodes",
    # A flip session checks no typed answer and draws no options: those modules (and
    # rapidfuzz under them) and their panels load with a session of their mode.
    "rapidfuzz",
    "quizzer.study.answers",
    "quizzer.study.multiple_choice",
    "quizzer.ui.widgets.choice_panel",
    "quizzer.ui.widgets.typed_panel",
)


def test_study_loads_only_what_the_first_card_needs(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QUIZZER_CACHE": str(tmp_path / "cache"),
        "QUIZZER_DB": str(tmp_path / "p.json"),
        "QUIZZER_DECKS": str(tmp_path / "decks"),
    }
    argv = ["study", "quantization", "--from", "ru", "--to", "bn", "--mode", "flip"]
    reports = []
    for _ in range(2):  # the first run parses the bundled decks into the cache
        done = subprocess.run(
            [sys.executable, "-c", TO_FIRST_CARD, *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
        reports.append(json.loads(done.stderr.strip().splitlines()[-1]))
    first, second = reports
    assert second["code"] == 0 and second["card"], second
    assert second["card"] == first["card"]  # the cached path shows the same first card
    assert second["card"][0].startswith("quantization/")
    loaded = set(second["modules"])
    assert "quizzer.ui.screens.study" in loaded and "quizzer.progress.store" in loaded
    early = [name for name in LATER if name in loaded]
    assert not early, f"imported before the first card: {early}"
