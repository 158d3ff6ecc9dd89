"""Start-up imports: what `quizzer` loads up to the home screen's first paint.

The home screen needs the deck summaries, the store and Textual. Exporting to Anki,
importing glossaries, statistics, the optimizer and the study screen are imported when a
command or a screen needs them; this test fails if one of them creeps back into start-up
(issue 12, goal 2: the first paint within 1.3x a bare Textual app).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.startup_support import REVIEW_LOG

ROOT = Path(__file__).resolve().parents[2]

#: Modules the home screen's first paint must not import (each costs start-up time, and
#: none is needed before a command or a screen asks for it).
HEAVY = (
    "genanki",  # Anki export
    "zstandard",  # Anki package reading
    "anki",  # Anki's engine (a test dependency)
    "fsrs_rs_python",  # the FSRS optimizer
    "rapidfuzz",  # typed-answer and glossary matching
    "hypothesis",
    "quizzer.anki",
    "quizzer.glossary.parse",
    "quizzer.stats",
    "quizzer.services.anki_export",
    "quizzer.services.merge",
    "quizzer.services.stats",
    "quizzer.progress.doctor",
    "quizzer.progress.merging.merge",
    "quizzer.ui.screens.study",
    "quizzer.ui.screens.stats",
    "quizzer.ui.stats_render",
    "quizzer.cli.import_cmd",
    "quizzer.cli.export_cmd",
    "quizzer.cli.stats_cmd",
    # The study engine: built when a session starts (quizzer.services.study.start_flow).
    "quizzer.study.flow",
    "quizzer.study.session",
    # Arabic shaping (~12 ms): only for an Arabic text on screen; the language pickers
    # shape the Arabic name when it is drawn (chosen or listed), not at start-up.
    "arabic_reshaper",
    "bidi",
    # Answering (a review id's random salt), `quizzer merge` and the statistics' zone name:
    # none is needed to open the store and count the decks.
    "secrets",
    "hmac",
    "quizzer.progress.merging",
    "zoneinfo",
    "calendar",
    # OpenSSL's hashes (~7-11 ms): quizzer only hashes with BLAKE2b (quizzer.runtime.hashing).
    "hashlib",
    "_hashlib",
    # Bare `quizzer` builds no parser (quizzer.cli.study_cmd.home_args).
    "argparse",
    "gettext",
    # The review log: opening the store and counting the decks read only the snapshot and
    # the journal.
    *REVIEW_LOG,
    "tinydb",  # the review log's queries (reviews_db); the snapshot's storage doesn't need it
    "filecmp",  # comparing a migration's two journals (quizzer.progress.generations)
    # Answering: the FSRS step, the review record and what an answer or a bury returns.
    "quizzer.scheduling.scheduler",
    "quizzer.scheduling.answer",
    "quizzer.scheduling.review",
    "quizzer.scheduling.card_state",  # a card state object: counting reads the queue's facts
    "quizzer.progress.outcomes",
    # Migrations: a store of an older schema only (the version check is quizzer.progress.schema).
    "quizzer.progress.migrate",
)

#: The only quizzer modules that compile a pattern (re.compile) before the first paint, at
#: import; every other pattern is compiled when first used (a damaged file, an error shown,
#: a card id parsed, a temp file left by a crash), not at start-up (~0.2-0.5 ms each).
COMPILED_AT_IMPORT = ("quizzer.ui.textshape", "quizzer.concepts.concept")

#: Runs `quizzer` (no command) the way the console script does, headless, up to the home
#: screen with its deck list counted, then prints the modules loaded by then.
FIRST_PAINT = """
import asyncio, gc, json, re, sys
compiled = []
_compile = re.compile
def compile(pattern, flags=0):
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if caller.startswith("quizzer"):
        compiled.append(caller)
    return _compile(pattern, flags)
re.compile = compile
from quizzer.ui.app import QuizzerApp

async def first_paint(app):
    async with app.run_test(size=(100, 30)) as pilot:
        while type(app.screen).__name__ != "HomeScreen":
            await pilot.pause(0.01)
        await pilot.pause()
        decks = app.screen.query_one("#decks")
        assert decks.option_count >= 1, "no deck listed"
        prompt = str(decks.get_option_at_index(0).prompt)
        print(json.dumps({"modules": sorted(sys.modules), "prompt": prompt, "compiled": compiled,
                          "gc_enabled": gc.isenabled(), "gc_frozen": gc.get_freeze_count()}))
    app.exit(0)

QuizzerApp.run = lambda self, **kw: asyncio.run(first_paint(self))  # headless, same path
from quizzer.cli.main import main
main([])
"""


def _first_paint(tmp_path: Path, *, fresh: bool = True) -> dict:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QUIZZER_DB": str(tmp_path / "progress.json"),
        "QUIZZER_DECKS": str(tmp_path / "decks"),
        "QUIZZER_CACHE": str(tmp_path / "cache"),
    }
    if fresh:
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
    return json.loads(done.stdout.strip().splitlines()[-1])


#: Not needed either once the decks' cache holds their parse (every launch but the first):
#: TOML is read and written only when a deck file changed or is written.
WARM_ONLY = ("tomllib", "tomli_w")


def test_home_first_paint_imports_nothing_heavy(tmp_path):
    _first_paint(tmp_path)  # the first launch fills the deck cache
    seen = _first_paint(tmp_path, fresh=False)
    modules = set(seen["modules"])
    # The run really reached the counted home screen on the real start-up path.
    assert "quizzer.ui.screens.home" in modules
    assert "quizzer.cli.study_cmd" in modules
    assert "new" in seen["prompt"] and "concepts" in seen["prompt"], seen["prompt"]
    loaded = sorted(
        name
        for name in modules
        for heavy in HEAVY + WARM_ONLY
        if name == heavy or name.startswith(heavy + ".")
    )
    assert loaded == [], f"imported before the home screen's first paint: {loaded}"
    early = sorted(set(seen["compiled"]) - set(COMPILED_AT_IMPORT))
    assert early == [], f"patterns compiled before the home screen's first paint by: {early}"


def test_collector_is_back_after_the_first_paint(tmp_path):
    """`quizzer` holds the cyclic collector off while it starts (quizzer.cli.gc_pause) and turns
    it on again once the home screen is painted, the start-up objects frozen."""
    seen = _first_paint(tmp_path)
    assert seen["gc_enabled"] is True
    assert seen["gc_frozen"] > 10_000  # modules, classes, widgets: moved out of its reach


def test_bare_quizzer_runs_home_with_what_the_parser_gives_home() -> None:
    """The no-argument fast path's arguments are those `quizzer home` parses to."""
    from quizzer.cli.main import QUIZ_COMMANDS, build_parser
    from quizzer.cli.study_cmd import home_args

    parsed = build_parser((QUIZ_COMMANDS["home"],)).parse_args(["home"])
    assert vars(home_args()) == vars(parsed)
    assert vars(parsed)["rtl"] == "auto" and vars(parsed)["db"] is None
