"""Launch time: the home screen, `quizzer study` to its first card, `decks` and `show`, at scale.

Runs the real command in a real terminal (a private tmux server, 100×30) and
polls the screen every 5 ms until the first card's prompt is drawn; the time
from spawning the process to that moment is one launch. The store is built as
``benchmarks/answer_latency.py`` builds it (10 reviews of history per card,
journal and snapshot on disk), then opened and closed once so the launch reads
a compacted snapshot, as it would after a normal session.

The studied deck is the store's own: a generated deck ``bench`` (400 concepts,
every text in en, bn, ar, ru, fr) written to a temporary ``$QUIZZER_DECKS``,
whose 400 × 25 directions are exactly the store's 10k cards. The session
studies ``en term → ru definition`` (400 cards with history, all due), so the
launch really builds that deck's queue from the 10k-card store.

Prints one JSON line per store size with the median and min/max of ``--runs``
launches; the same number of launches of a bare Textual app showing two lines
and a footer, interleaved with them (the floor any Textual app pays on this
machine at this moment), and the ratio; plus an in-process breakdown (imports,
store open, app to first card; for ``--screen home``: imports, decks and store open, app
to the counted home screen). Target: median ≤ 0.6 s at 10k cards.

With ``--big-deck N`` the deck folder also holds a user deck of N Bengali concepts,
imported by ``quizzer import`` from ``benchmarks/big_glossary.py``'s glossary (so its
deck cache is as a user's import leaves it). With ``--screen home`` the launch is
``quizzer`` (the home screen) up to its first paint with counts ("N concepts · …
new"), on the bundled decks alone, or with the big deck beside them.

Without ``--sizes``, the script measures the six opening figures of issue 12 (goal 2)
in one run and prints each through ``benchmarks/figures.py``: the home screen on the
bundled decks alone (goal ×1.3 the bare app), the home screen (first paint, and until the
big deck's own counts line is drawn by its worker: "counts shown") and ``quizzer study`` to
the first card with a 50,000-concept deck and a 100,000-card store (×1.5), and
``quizzer decks`` and ``quizzer show big`` (piped) with that deck (under 1 s; next to
``python -c pass`` for context). ``--quick`` does it with 3 runs each (the one-run report);
``--only FIGURE...`` picks some (bundled, home, counts, study, cli), and ``--fixtures DIR``
builds the decks and stores in DIR and reuses them in a later run (the 100k-card store
takes minutes to build).

Run: ``.venv/bin/python benchmarks/launch_time.py [--quick] [--runs 7]``, or one scenario:
``[--sizes 0 10000] [--big-deck 50000] [--screen study|home]``. ``--against DIR`` also
launches another checkout's quizzer (``git worktree add --detach DIR <commit>``) in the
same interleaved loop, on the same store and decks, and prints its median and in-process
breakdown beside these: before and after a change, in one run.

The fixtures are built by ``benchmarks/launch_fixtures.py``; the in-process breakdowns are
``benchmarks/launch_inprocess.py``'s.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import figures
from launch_fixtures import (
    BENCH_DECK,
    answer_latency,
    build_store,
    import_big_deck,
    write_bench_deck,
)
from launch_inprocess import ARGS, in_process, in_process_home

ROOT = Path(__file__).resolve().parents[1]
SOCKET = f"quizzer-launch-{os.getpid()}"
#: Every prompt of the generated deck reads "Bench concept N" (en term).
PROMPT = re.compile(r"Bench concept \d+")
LABEL = "English term"


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-u", "-L", SOCKET, *args], capture_output=True, text=True)
    return done.stdout


BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Static
class Bare(App):
    def compose(self):
        yield Static("English term")
        yield Static("Bench concept 0")
        yield Footer()
    def on_key(self, event):
        self.exit()
Bare().run()
"""


#: The home screen's deck lines, once counted: "20 concepts · 20 new · 0 due".
HOME_PAINTED = re.compile(r"\d+ concepts · \d+ new")


def one_launch(
    db: Path,
    decks: Path,
    index: int,
    bare: bool = False,
    screen: str = "study",
    root: Path = ROOT,
    until: re.Pattern[str] | None = None,
) -> float:
    """Seconds from spawning quizzer (or, with ``bare``, a one-screen Textual app) to its
    first card on screen (``screen="home"``: to the home screen's first counted deck; with
    ``until``, to the first screen where that pattern shows, e.g. a big deck's counts)."""
    screen_name = screen
    env = (
        f"LANG=C.UTF-8 TERM=xterm-256color QUIZZER_DB={shlex.quote(str(db))} "
        f"QUIZZER_DECKS={shlex.quote(str(decks))}"
    )
    cmd = shlex.join([sys.executable, "-m", "quizzer", *(ARGS if screen == "study" else [])])
    if bare:
        cmd = shlex.join([sys.executable, "-c", BARE_APP])
    session = f"l{index}"
    t0 = time.perf_counter()
    tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "100",
        "-y",
        "30",
        f"cd {shlex.quote(str(root))} && env {env} {cmd}",
    )
    while True:
        pane = tmux("capture-pane", "-p", "-t", session)
        if bare or screen_name == "study":
            painted = bool(PROMPT.search(pane)) and LABEL in pane
        elif until is not None:
            painted = bool(until.search(pane))
        else:
            painted = bool(HOME_PAINTED.search(pane))
        if painted:
            elapsed = time.perf_counter() - t0
            break
        if time.perf_counter() - t0 > 30:
            raise SystemExit(f"no card after 30 s; screen:\n{pane}")
        time.sleep(0.005)
    tmux("send-keys", "-t", session, "q")
    time.sleep(0.3)
    tmux("send-keys", "-t", session, "Enter")
    # Wait for the process to close the store (lock released) before the next launch.
    for _ in range(200):
        if not (db.with_name(db.name + ".lock")).exists() or not tmux(
            "list-panes", "-t", session, "-F", "#{pane_pid}"
        ):
            break
        time.sleep(0.05)
    tmux("kill-session", "-t", session)
    return elapsed


def cli_times(decks: Path, args: list[str], runs: int) -> tuple[float, float]:
    """Median wall seconds of ``quizzer ARGS`` (output to /dev/null, as piped) and of a bare
    ``python -c pass`` interleaved with it (the interpreter's own start, for context)."""
    env = {**os.environ, "QUIZZER_DECKS": str(decks)}
    cmd = [sys.executable, "-m", "quizzer", *args]
    bare = [sys.executable, "-c", "pass"]

    def once(argv: list[str]) -> float:
        t0 = time.perf_counter()
        subprocess.run(argv, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t0

    once(cmd)  # warm the caches (and the deck's stat entry)
    ours: list[float] = []
    peer: list[float] = []
    for _ in range(runs):
        ours.append(once(cmd))
        peer.append(once(bare))
    return statistics.median(ours), statistics.median(peer)


def launches(
    db: Path,
    decks: Path,
    screen: str,
    runs: int,
    against: Path | None = None,
    until: re.Pattern[str] | None = None,
) -> tuple[list[float], list[float], list[float]]:
    """``runs`` launches of quizzer interleaved with as many of the bare app (one warm-up),
    and with ``against``, as many of that checkout's quizzer (before/after in one run)."""
    one_launch(db, decks, 0, screen=screen, until=until)  # warm the OS and bytecode caches
    if against is not None:
        one_launch(db, decks, 0, screen=screen, root=against, until=until)
    times: list[float] = []
    bare: list[float] = []
    theirs: list[float] = []
    for i in range(runs):  # interleaved, so all see the same machine load
        times.append(one_launch(db, decks, 3 * i + 1, screen=screen, until=until))
        bare.append(one_launch(db, decks, 3 * i + 2, bare=True))
        if against is not None:
            theirs.append(
                one_launch(db, decks, 3 * i + 3, screen=screen, root=against, until=until)
            )
    return sorted(times), bare, theirs


def scenario(
    db: Path,
    decks: Path,
    screen: str,
    cards: int,
    big: int,
    runs: int,
    against: Path | None = None,
    until: re.Pattern[str] | None = None,
) -> dict[str, object]:
    """One launch figure: medians of quizzer and the bare app, and the in-process breakdown
    (with ``against``: that checkout's median and breakdown too; with ``until``, the launch
    lasts until that pattern is on screen)."""
    times, bare, theirs = launches(db, decks, screen, runs, against, until)
    median = statistics.median(times)
    other: dict[str, object] = {}
    if against is not None:
        breakdown = in_process if screen == "study" else in_process_home
        other = {
            "against": str(against),
            "against_median_s": round(statistics.median(theirs), 3),
            "against_breakdown": breakdown(db, decks, root=against),
        }
    return {
        "screen": screen,
        "big_deck_concepts": big,
        "cards": cards,
        "runs": runs,
        "median_s": round(median, 3),
        "min_s": round(times[0], 3),
        "max_s": round(times[-1], 3),
        "bare_textual_median_s": round(statistics.median(bare), 3),
        "ratio_to_bare": round(median / statistics.median(bare), 2),
        **(in_process(db, decks) if screen == "study" else in_process_home(db, decks)),
        **other,
    }


def _emit_launch(name: str, result: dict[str, object], goal: float) -> None:
    print(json.dumps(result), flush=True)
    figures.emit(
        name,
        float(result["median_s"]),  # type: ignore[arg-type]
        "bare Textual app",
        float(result["bare_textual_median_s"]),  # type: ignore[arg-type]
        goal=goal,
    )


#: The figures of :func:`suite`, for ``--only``.
FIGURES = ("bundled", "home", "counts", "study", "cli")


def suite(
    tmp: Path,
    runs: int,
    big: int,
    cards: int,
    against: Path | None = None,
    only: tuple[str, ...] = FIGURES,
) -> None:
    """The opening figures of issue 12 in one run (goal 2), those of ``only``. Fixtures
    already in ``tmp`` (``--fixtures``, from an earlier run) are used as they are."""
    # The bundled decks' own folder stays empty: a reused --fixtures folder's home-decks
    # holds the big deck.
    study_decks, home_decks, bundled = tmp / "decks", tmp / "home-decks", tmp / "bundled-decks"
    per = len(answer_latency().PAIRS)
    if not (study_decks / f"{BENCH_DECK}.toml").exists():
        write_bench_deck(study_decks, max(1, -(-cards // per)))
    home_decks.mkdir(exist_ok=True)
    bundled.mkdir(exist_ok=True)
    empty_db, db = tmp / "progress-0.json", tmp / f"progress-{cards}.json"
    if not empty_db.exists():
        build_store(empty_db, 0)
    if "bundled" in only:
        result = scenario(empty_db, bundled, "home", 0, 0, runs, against)
        _emit_launch("home, bundled decks only", result, 1.3)
    if not (study_decks / "big.toml").exists():
        import_big_deck(study_decks, big, tmp)
    if not (home_decks / "big.toml").exists():
        os.link(study_decks / "big.toml", home_decks / "big.toml")
    if not db.exists():
        build_store(db, cards)
    label = f"{big // 1000}k deck + {cards // 1000}k-card store"
    if "home" in only:
        result = scenario(db, home_decks, "home", cards, big, runs, against)
        _emit_launch(f"home, {label}", result, 1.5)
    if "counts" in only:
        # The first paint shows the big deck "counting…": its counts come from a worker.
        counted = re.compile(rf"\b{big} concepts · \d+ new")
        result = scenario(db, home_decks, "home", cards, big, runs, against, until=counted)
        _emit_launch(f"home, {big // 1000}k deck: counts shown", result, 1.5)
    if "study" in only:
        result = scenario(db, study_decks, "study", cards, big, runs, against)
        _emit_launch(f"study to first card, {label}", result, 1.5)
    for figure, argv in (
        ()
        if "cli" not in only
        else (
            (f"decks, {big // 1000}k deck", ["decks"]),
            (f"show, {big // 1000}k deck (piped)", ["show", "big"]),
        )
    ):
        ours, peer = cli_times(home_decks, argv, runs)
        print(
            json.dumps(
                {
                    "command": argv,
                    "median_s": round(ours, 3),
                    "python_pass_median_s": round(peer, 3),
                }
            ),
            flush=True,
        )
        figures.emit(figure, ours, "python -c pass", peer, goal=1.0, absolute=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", help="one scenario: these store sizes")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--big-deck", type=int, default=0, metavar="N")
    parser.add_argument("--screen", choices=("study", "home"), default="study")
    parser.add_argument(
        "--quick", action="store_true", help="the six figures with 3 runs each (one-run report)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="another checkout (e.g. `git worktree add --detach DIR main~3`): its launches "
        "timed interleaved with these, on the same store and decks (before/after in one run)",
    )
    parser.add_argument(
        "--only", nargs="+", choices=FIGURES, default=FIGURES, help="these figures only"
    )
    parser.add_argument(
        "--fixtures",
        type=Path,
        metavar="DIR",
        help="build the decks and stores in DIR and keep them; a later run with the same "
        "DIR uses them as they are (building the 100k-card store takes minutes)",
    )
    args = parser.parse_args(argv)
    # A user's second launch runs quizzer from its cached bytecode (the first one writes it);
    # with PYTHONDONTWRITEBYTECODE set (as on this machine) the warm-up launch can't, and
    # every launch would compile quizzer's ~70 modules from source (~0.1 s CPU).
    for root in (ROOT, *([args.against] if args.against else [])):  # both sides alike
        compileall.compile_dir(root / "quizzer", quiet=1)
    try:
        with tempfile.TemporaryDirectory(prefix="quizzer-launch-") as tmp:
            if args.sizes is None:  # the report: every figure of goal 2
                runs = 3 if args.quick else args.runs
                where = Path(tmp)
                if args.fixtures:
                    where = args.fixtures
                    where.mkdir(parents=True, exist_ok=True)
                big = args.big_deck or 50_000
                suite(where, runs, big, 100_000, args.against, tuple(args.only))
                return 0
            decks = Path(tmp) / "decks"
            per = len(answer_latency().PAIRS)
            write_bench_deck(decks, max(1, -(-max(args.sizes) // per)))
            if args.screen == "home":  # the bundled decks (and the big one), not the bench deck
                decks = Path(tmp) / "home-decks"
                decks.mkdir()
            if args.big_deck:
                import_big_deck(decks, args.big_deck, Path(tmp))
            for cards in args.sizes:
                db = Path(tmp) / f"progress-{cards}.json"
                build_store(db, cards)
                result = scenario(
                    db, decks, args.screen, cards, args.big_deck, args.runs, args.against
                )
                goal = 1.3 if args.screen == "home" and not args.big_deck else 1.5
                _emit_launch(
                    f"{args.screen}, {cards} cards, big deck {args.big_deck}", result, goal
                )
    finally:
        tmux("kill-server")
    return 0


if __name__ == "__main__":
    sys.exit(main())
