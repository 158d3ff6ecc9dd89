"""Statistics at a million answers: whole-process ``quizzer stats``, and the stats screen.

Builds a real progress store on disk with ``--answers`` answers (default 1,000,000:
20,000 cards, 50 answers each over two years, 4,000 concepts in five directions)
through the store's own bulk path (``Store.merge_batch``, what ``quizzer merge``
uses), once: it is kept in ``$TMPDIR/quizzer-stats-scale-<answers>/`` and reused by
later runs (``--rebuild`` makes it again). The first ``quizzer stats`` after building
counts the figures from the whole log and leaves the statistics cache ``P.stats`` and
the day's figures ``P.figures`` (timed and printed, not a figure); then, interleaved,
``--runs`` times each:

- ``quizzer stats --db P`` as a whole process (to a pipe), next to ``python -c pass``
  (the interpreter's own start, the floor of any command);
- ``quizzer stats`` with ``P.figures`` deleted first (printed as ``recount``, not a
  figure): the figures counted from the card states and ``P.stats``, as after an answer;
- the stats screen: a process that opens the store, pushes the app's ``StatsScreen``
  (figures counted in its worker thread) in a headless Textual app and exits once the
  figures are on the screen, next to a bare Textual app that exits on its first paint.

Medians; figures through :mod:`benchmarks.figures` ("quizzer stats, 1M answers" and
"stats screen figures ready, 1M answers", each bound to 1.0 s absolute). Also prints
``store.reviews()`` (the whole log read) once, for comparison (not with ``--quick``).

``--against DIR`` times another checkout's ``quizzer stats`` and stats screen on the
same store, interleaved with these (before/after in one run; printed, not figures).
The children write bytecode, as an installed package has it.

Run: ``.venv/bin/python benchmarks/stats_scale.py [--answers 1000000] [--runs 7] [--quick]
[--against DIR]`` (``--quick``: 3 runs each).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import figures
from review_history import history

PER_CARD = 50


def build(folder: Path, answers: int, rebuild: bool) -> Path:
    """The store (built once, then reused): ``folder/p.json``."""
    from quizzer.progress import open_store

    db = folder / "p.json"
    done = folder / "built.json"
    if done.exists() and not rebuild:
        return db
    for file in folder.glob("p.json*"):
        if file.is_dir():
            for inner in file.iterdir():
                inner.unlink()
            file.rmdir()
        else:
            file.unlink()
    t0 = time.perf_counter()
    reviews, cards = history(answers // PER_CARD, PER_CARD, datetime.now(UTC) - timedelta(hours=1))
    made = time.perf_counter() - t0
    with open_store(db) as store:
        store.merge_batch(reviews, cards)
    built = time.perf_counter() - t0
    done.write_text(json.dumps({"answers": len(reviews), "cards": len(cards)}))
    print(json.dumps({"built_s": round(built, 1), "history_s": round(made, 1)}), flush=True)
    return db


def _timed(command: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    # Run from the checkout timed: ``python -m`` looks in the working folder first.
    cwd = env["PYTHONPATH"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    return time.perf_counter() - t0


def screen_child(db: str) -> None:
    """A headless app that shows the stats screen and exits once its figures are shown."""
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
            self.set_interval(0.005, lambda: self._done(screen))

        def _done(self, screen: StatsScreen) -> None:
            if screen.stats is not None and screen.query("#stats-today"):
                self.call_after_refresh(self.exit)

    Shown().run(headless=True, size=(110, 40))
    store.close()


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 runs each")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="another checkout: its `quizzer stats` and stats screen timed interleaved too",
    )
    parser.add_argument("--screen-child", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--bare-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.screen_child:
        screen_child(args.screen_child)
        return 0
    if args.bare_child:
        bare_child()
        return 0
    runs = 3 if args.quick else args.runs
    folder = Path(tempfile.gettempdir()) / f"quizzer-stats-scale-{args.answers}"
    folder.mkdir(exist_ok=True)
    db = build(folder, args.answers, args.rebuild)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    env["QUIZZER_CACHE"] = str(folder / "cache")
    # Bytecode is written, as for an installed package (the first run below writes it).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = sys.executable
    stats_cmd = [python, "-m", "quizzer", "stats", "--db", str(db)]
    first = _timed(stats_cmd, env)  # counts from the log when there is no cache yet
    other_env = dict(env, PYTHONPATH=str(Path(args.against).resolve())) if args.against else env
    if args.against:
        _timed(stats_cmd, other_env)
    from quizzer.progress import open_store

    with open_store(db, read_only=True) as store:
        t0 = time.perf_counter()
        n = json.loads((folder / "built.json").read_text())["answers"]
        if not args.quick:  # the whole log read once, for comparison (a minute at 1M)
            n = len(store.reviews())
        whole_log = time.perf_counter() - t0
    here = str(Path(__file__).resolve())
    commands = {
        "stats": stats_cmd,
        "pass": [python, "-c", "pass"],
        "screen": [python, here, "--screen-child", str(db)],
        "bare": [python, here, "--bare-child"],
        "recount": stats_cmd,
    }
    if args.against:
        theirs = str(Path(args.against).resolve() / "benchmarks" / "stats_scale.py")
        commands["against_stats"] = stats_cmd
        commands["against_screen"] = [python, theirs, "--screen-child", str(db)]
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            if name == "recount":
                db.with_name(db.name + ".figures").unlink(missing_ok=True)
            times[name].append(_timed(command, other_env if "against" in name else env))
    med = {name: statistics.median(values) for name, values in times.items()}
    print(
        json.dumps(
            {
                "answers": n,
                "first_stats_s": round(first, 2),
                "store_reviews_s": round(whole_log, 2),
                **{f"{name}_median_s": round(value, 3) for name, value in med.items()},
                "runs": runs,
            }
        ),
        flush=True,
    )
    label = f"{n / 1e6:g}M" if n >= 1_000_000 else f"{n // 1000}k"
    figures.emit(
        f"quizzer stats, {label} answers",
        round(med["stats"], 3),
        "python -c pass",
        round(med["pass"], 3),
        goal=1.0,
        absolute=True,
    )
    figures.emit(
        f"stats screen figures ready, {label} answers",
        round(med["screen"], 3),
        "bare Textual app",
        round(med["bare"], 3),
        goal=1.0,
        absolute=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
