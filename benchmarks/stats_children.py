"""The processes ``stats_scale.py`` times: each runs one checkout's own code.

``ANSWER``, ``INSIDE`` and ``REVIEWS`` are run as ``python -c`` in the checkout's folder (it
imports from its working folder first); :func:`screen_child` and :func:`bare_child` by
``stats_scale.py --screen-child DB`` and ``--bare-child``.
"""

from __future__ import annotations

#: A process that answers one card now and closes the store, as a session ends (run by each
#: checkout's own code: ``python -c`` imports from its working folder first). The card is
#: one of a direction the history has none of (its synthetic states carry no difficulty,
#: which FSRS needs to answer them): new at the first run, then answered again.
ANSWER = (
    "import sys\n"
    "from datetime import UTC, datetime\n"
    "from quizzer.progress import open_store\n"
    "with open_store(sys.argv[1]) as store:\n"
    "    store.record('bench/concept-00000|fr:term>en:term', 3, datetime.now(UTC))\n"
)


def screen_child(db: str, every_table: bool = False) -> None:
    """A headless app that shows the stats screen and exits once its figures are shown (with
    ``every_table``: the tables below the first screenful as well, mounted after it); the
    collector paused until its first paint (the loading line), as ``quizzer`` starts."""
    from quizzer.cli import gc_pause

    gc_pause.pause()
    from textual.app import App

    from quizzer.progress import open_store
    from quizzer.services.library import library_decks
    from quizzer.services.stats import stats_from_store
    from quizzer.ui.screens.stats import StatsScreen

    store = open_store(db, read_only=True)

    class Shown(App[None]):
        def on_mount(self) -> None:
            screen = StatsScreen(load=lambda: stats_from_store(store, library_decks()))
            self.push_screen(screen)
            self.call_after_refresh(gc_pause.resume)  # as QuizzerApp(on_first_paint=...)
            self.set_interval(0.005, lambda: self._done(screen))

        def _done(self, screen: StatsScreen) -> None:
            last = "#stats-hardest" if every_table else "#stats-today"
            if screen.stats is not None and screen.query(last):
                self.call_after_refresh(self.exit)

    Shown().run(headless=True, size=(110, 40))
    store.close()


#: The app as a learner runs it (``quizzer``'s own path to the home screen: deck shelf, store
#: opened for writing, the collector paused until the first paint), run by
#: each checkout's own code (``python -c``): once the home screen is up, the statistics are
#: opened as their key does (``QuizzerApp.open_stats``), timed from there to the figures on
#: screen (counted in the screen's worker, then mounted and painted), and on to the tables
#: below the first screenful (``_all``: mounted after it); then closed and opened again.
#: Prints the times as JSON: wall seconds, and the CPU seconds of the process (its threads:
#: the worker's counting and the UI's) meanwhile, which compare better under load.
INSIDE = """
import asyncio, json, os, sys, time
os.environ["QUIZZER_DB"] = sys.argv[1]
from quizzer.cli import gc_pause, study_cmd
from quizzer.cli.main import QUIZ_COMMANDS, build_parser
from quizzer.ui.app import QuizzerApp
gc_pause.pause()  # as `quizzer` does, until the first paint
service, rtl = study_cmd._open(build_parser((QUIZ_COMMANDS["home"],)).parse_args(["home"]))
app = QuizzerApp(service, rtl_mode=rtl, on_first_paint=gc_pause.resume)
times, every = [], []
async def run():
    async with app.run_test(size=(110, 40)) as pilot:
        while type(app.screen).__name__ != "HomeScreen":
            await pilot.pause(0.001)
        await pilot.pause()
        for _ in range(2):
            t0, c0 = time.perf_counter(), time.process_time()
            app.open_stats()
            while not (type(app.screen).__name__ == "StatsScreen"
                       and app.screen.stats is not None and app.screen.query("#stats-today")):
                await pilot.pause(0.001)
            await pilot.pause()  # painted
            times.append((time.perf_counter() - t0, time.process_time() - c0))
            while not app.screen.query("#stats-hardest"):
                await pilot.pause(0.001)
            await pilot.pause()
            every.append(time.perf_counter() - t0)
            app.pop_screen()
            await pilot.pause()
asyncio.run(run())
app.service.close()
(first, first_cpu), (again, again_cpu) = times
print(json.dumps({"first_s": first, "first_cpu_s": first_cpu, "again_s": again,
                  "again_cpu_s": again_cpu, "first_all_s": every[0], "again_all_s": every[1]}))
"""


#: The whole log read (``store.reviews()``, read-only store) by each checkout's own code;
#: prints the seconds, wall and CPU (this thread's), as JSON.
REVIEWS = """
import json, sys, time
from quizzer.progress import open_store
with open_store(sys.argv[1], read_only=True) as store:
    t0, c0 = time.perf_counter(), time.thread_time()
    store.reviews()
    print(json.dumps({"wall_s": time.perf_counter() - t0, "cpu_s": time.thread_time() - c0}))
"""


def bare_child() -> None:
    """A bare Textual app that exits after its first paint (the floor of any screen)."""
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Static

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("Statistics")
            yield Footer()

        def on_mount(self) -> None:
            self.call_after_refresh(self.exit)

    Bare().run(headless=True, size=(110, 40))
