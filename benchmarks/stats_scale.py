"""Statistics at a million answers: whole-process ``quizzer stats``, and the stats screen.

Builds a real progress store on disk with ``--answers`` answers (default 1,000,000:
20,000 cards, 50 answers each over two years, 4,000 concepts in five directions)
through the store's own bulk path (``Store.merge_batch``, what ``quizzer merge``
uses), once: it is kept in ``$TMPDIR/quizzer-stats-scale-<answers>/`` and reused by
later runs (``--rebuild`` makes it again). The first ``quizzer stats`` after building
counts the figures from the whole log and leaves the statistics cache ``P.stats``
(timed and printed, not a figure); then, interleaved, ``--runs`` times each:

- ``quizzer stats --db P`` as a whole process (to a pipe), next to ``python -c pass``
  (the interpreter's own start, the floor of any command);
- the stats screen: a process that opens the store, pushes the app's ``StatsScreen``
  (figures counted in its worker thread) in a headless Textual app and exits once the
  figures are on the screen, next to a bare Textual app that exits on its first paint.

Medians; figures through :mod:`benchmarks.figures` ("quizzer stats, 1M answers" and
"stats screen figures ready, 1M answers", each bound to 1.0 s absolute). Also prints
``store.reviews()`` (the whole log read) once, for comparison (not with ``--quick``).

Run: ``.venv/bin/python benchmarks/stats_scale.py [--answers 1000000] [--runs 7] [--quick]``
(``--quick``: 3 runs each).
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

from quizzer.cards.card import CardKey, Pair
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review

PAIRS = (
    Pair("en", "term", "bn", "term"),
    Pair("ru", "term", "bn", "definition"),
    Pair("ar", "definition", "en", "term"),
    Pair("fr", "term", "ru", "term"),
    Pair("bn", "term", "ar", "term"),
)
PER_CARD = 50
MODES = ("flip", "choice", "typed", "learn", "anki")


def history(answers: int, end: datetime) -> tuple[list[Review], list[CardState]]:
    """``answers`` answers of ``answers // 50`` cards over the two years before ``end``."""
    rng = random.Random(12)
    reviews: list[Review] = []
    cards: list[CardState] = []
    start = end - timedelta(days=730)
    for i in range(answers // PER_CARD):
        key = CardKey(f"bench/concept-{i // len(PAIRS):05d}", PAIRS[i % len(PAIRS)])
        moment = start + timedelta(minutes=rng.randrange(0, 1440 * 60))
        step = (end - moment) / PER_CARD
        interval = 0.0
        for j in range(PER_CARD):
            grade = rng.choices((1, 2, 3, 4), (0.12, 0.1, 0.68, 0.1))[0]
            phase = "new" if j == 0 else ("review" if interval >= 1 else "learning")
            reviews.append(
                Review(
                    id=f"b{i:06d}-{j:02d}",
                    card_id=key.id,
                    reviewed_at=moment,
                    grade=grade,  # type: ignore[arg-type]
                    mode=MODES[(i + j) % len(MODES)],  # type: ignore[arg-type]
                    duration_ms=rng.randrange(1000, 12000),
                    phase=phase,  # type: ignore[arg-type]
                    last_interval_days=interval,
                    interval_days=max(interval, 1.0),
                )
            )
            interval = 0.0 if grade == 1 else min(max(1.0, interval * 2.0), 60.0)
            moment += step * rng.uniform(0.6, 1.0)
        cards.append(
            CardState.studied(
                key.id,
                "review",
                moment + timedelta(days=interval or 1),
                stability=max(interval, 0.5),
                last_review=reviews[-1].reviewed_at,
            )
        )
    reviews.sort(key=lambda r: r.reviewed_at)
    return reviews, cards


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
    reviews, cards = history(answers, datetime.now(UTC) - timedelta(hours=1))
    made = time.perf_counter() - t0
    with open_store(db) as store:
        store.merge_batch(reviews, cards)
    built = time.perf_counter() - t0
    done.write_text(json.dumps({"answers": len(reviews), "cards": len(cards)}))
    print(json.dumps({"built_s": round(built, 1), "history_s": round(made, 1)}), flush=True)
    return db


def _timed(command: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
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
    python = sys.executable
    stats_cmd = [python, "-m", "quizzer", "stats", "--db", str(db)]
    first = _timed(stats_cmd, env)  # counts from the log when there is no cache yet
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
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(_timed(command, env))
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
