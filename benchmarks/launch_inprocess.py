"""The launch benchmark's in-process breakdowns: where a launch's time goes, timed inside one
fresh interpreter along the real path (``benchmarks/launch_time.py`` prints them beside
its medians).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from launch_fixtures import BENCH_DECK

ROOT = Path(__file__).resolve().parents[1]
#: The study launch's command line (the bench deck, one direction, flip mode).
ARGS = ["study", BENCH_DECK, "--from", "en:term", "--to", "ru:definition", "--mode", "flip"]


def in_process(db: Path, decks: Path, root: Path = ROOT) -> dict[str, float]:
    """The study launch timed inside one fresh interpreter along its real path (``quizzer
    study ...``: the CLI, the deck shelf and the store opened, then the app up to the first
    card); CPU seconds beside wall seconds, as this machine is shared."""
    code = f"""
import time, json, asyncio, os
os.environ["QUIZZER_DB"], os.environ["QUIZZER_DECKS"] = {str(db)!r}, {str(decks)!r}
c0, t0 = time.process_time(), time.perf_counter()
from quizzer.cli.main import main
from quizzer.ui.app import QuizzerApp
marks = {{}}
def run(self):
    marks["open"] = (time.process_time() - c0, time.perf_counter() - t0)
    async def go():
        async with self.run_test(size=(100, 30)) as pilot:
            while type(self.screen).__name__ != "StudyScreen" or self.screen.card is None:
                await pilot.pause(0.001)
            await pilot.pause()
            marks["due"] = self.screen.session.left
    asyncio.run(go())
    marks["card"] = (time.process_time() - c0, time.perf_counter() - t0)
QuizzerApp.run = run
main({ARGS!r})
print(json.dumps({{"imports_decks_and_store_open_s": marks["open"][1],
                  "to_first_card_s": marks["card"][1],
                  "cpu_imports_decks_and_store_open_s": marks["open"][0],
                  "cpu_to_first_card_s": marks["card"][0], "cards_in_queue": marks["due"]}}))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    return {k: round(v, 3) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def in_process_home(db: Path, decks: Path, root: Path = ROOT) -> dict[str, float]:
    """The home screen's launch timed inside one fresh interpreter, along its real path
    (``quizzer`` with no command): the CLI's and Textual's imports, opening the deck shelf and
    the store (with their imports), the app up to the home screen with its counts, and on
    until every deck's counts are shown (a big deck's come from a worker after the paint);
    CPU seconds of the whole beside them."""
    code = f"""
import time, json, asyncio, os
os.environ["QUIZZER_DB"], os.environ["QUIZZER_DECKS"] = {str(db)!r}, {str(decks)!r}
t0 = time.perf_counter()
from quizzer.cli import study_cmd
from quizzer.ui.app import QuizzerApp
if hasattr(study_cmd, "home_args"):  # bare `quizzer` builds no parser
    args = study_cmd.home_args()
else:  # (an older checkout, --against)
    from quizzer.cli.main import QUIZ_COMMANDS, build_parser
    args = build_parser((QUIZ_COMMANDS["home"],)).parse_args(["home"])
t1 = time.perf_counter()
service, rtl = study_cmd._open(args)
t2 = time.perf_counter()
app = QuizzerApp(service, rtl_mode=rtl)
async def run():
    async with app.run_test(size=(100, 30)) as pilot:
        while type(app.screen).__name__ != "HomeScreen":
            await pilot.pause(0.001)
        await pilot.pause()
        t3 = time.perf_counter()
        decks = app.screen.query_one("#decks")
        while any("counting" in str(getattr(o.prompt, "plain", o.prompt))
                  for o in decks._options):
            await pilot.pause(0.001)
        marks["counts"] = time.perf_counter(), time.process_time()
        marks["home"] = t3
marks = {{}}
asyncio.run(run())
t3, (t4, c4) = marks["home"], marks["counts"]
service.close()
print(json.dumps({{"imports_s": t1 - t0, "decks_and_store_open_s": t2 - t1,
                  "app_to_home_s": t3 - t2, "home_to_counts_shown_s": t4 - t3,
                  "cpu_to_counts_shown_s": c4}}))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    return {k: round(v, 3) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}
