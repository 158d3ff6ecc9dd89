"""Statistics at a million answers: whole-process ``quizzer stats``, and the stats screen.

Builds a real progress store on disk with ``--answers`` answers (default 1,000,000:
20,000 cards, 50 answers each over two years, 4,000 concepts in five directions)
through the store's own bulk path (``Store.merge_batch``, what ``quizzer merge``
uses), once: it is kept in ``$TMPDIR/quizzer-stats-scale-<answers>/`` and reused by
later runs (``--rebuild`` makes it again), opened for writing once so that it has its
card index as any store the app has opened. The first ``quizzer stats`` after building
counts the figures from the whole log and leaves the statistics cache ``P.stats`` and
the day's figures ``P.figures`` (timed and printed, not a figure); then, interleaved,
``--runs`` times each:

- ``quizzer stats --db P`` as a whole process (to a pipe), next to ``python -c pass``
  (the interpreter's own start, the floor of any command);
- ``after_answer``: ``quizzer stats`` after another process answered one card and
  closed the store (compacting it), as after a study session (the answering is not
  timed);
- ``recount``: ``quizzer stats`` with ``P.figures`` deleted first: the figures counted
  from every card state and ``P.stats``;
- the stats screen: a process that opens the store, pushes the app's ``StatsScreen``
  (figures counted in its worker thread) in a headless Textual app and exits once the
  figures are on the screen (its first screenful, 110×40), next to a bare Textual app that
  exits on its first paint; it starts as ``quizzer`` does, the collector paused until the
  first paint (here the screen's loading line: :mod:`quizzer.cli.gc_pause`);
  ``screen_all``: the same until the tables below that screenful, mounted once it is
  painted, are on the screen too (printed, not a figure);
- the stats screen in the running app (``inside``): ``quizzer``'s own way to the home
  screen (the collector paused until the first paint, the store opened for writing), then
  from the statistics key's ``open_stats`` to the figures on screen, measured in the
  process; the first time (``inside_first``) and again after going back (``inside_again``),
  and each on to the tables below the first screenful (``inside_first_all``, ...);
- ``reviews``: ``store.reviews()`` (the whole log read, read-only store) in a process of
  its own, wall and CPU seconds (not with ``--quick``; each checkout reads once untimed
  first, which writes its month caches).

Medians of wall seconds, and of CPU seconds (the kernel's account of each process,
``os.wait4``: on a loaded machine they compare better); figures through
:mod:`benchmarks.figures`: "quizzer stats, 1M answers" (bound 1.0 s), "stats screen
figures ready, 1M answers (whole process)" (≤ 1.5× the bare app, as the opening goals)
and "stats screen in the app, key to figures shown, 1M answers" (bound 1.0 s).

``--against DIR`` times another checkout's ``quizzer stats`` (as is, after an answer,
and recounted), stats screen, in-app screen and log read interleaved with these, on a twin
of the store (the month files and snapshot hard-linked, the rest copied: each checkout
keeps its own caches and answers; before/after in one run; printed, not figures). The
children write bytecode, as an installed package has it; they are in
``benchmarks/stats_children.py``.

Run: ``.venv/bin/python benchmarks/stats_scale.py [--answers 1000000] [--runs 7] [--quick]
[--against DIR]`` (``--quick``: 3 runs each).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
from stats_children import ANSWER, INSIDE, REVIEWS, bare_child, screen_child

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


def indexed(db: Path) -> None:
    """Open the store for writing once if it has no card index yet (the app leaves one)."""
    from quizzer.progress import open_store

    if not db.with_name(db.name + ".cards.idx").exists():
        with open_store(db):
            pass


def twin(folder: Path) -> Path:
    """A copy of the store for another checkout: files only ever replaced whole (the month
    files, the snapshot, its backup) hard-linked, the others copied; made anew each run."""
    other = folder.with_name(folder.name + "-twin")
    shutil.rmtree(other, ignore_errors=True)
    other.mkdir()
    for file in folder.glob("p.json*"):
        if file.is_dir():
            (other / file.name).mkdir()
            for inner in file.iterdir():
                os.link(inner, other / file.name / inner.name)
        elif file.name in ("p.json", "p.json.bak", "p.json.journal.prev"):
            os.link(file, other / file.name)
        else:
            shutil.copy2(file, other / file.name)
    return other / "p.json"


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` as a whole process."""
    t0 = time.perf_counter()
    # Run from the checkout timed: ``python -m`` looks in the working folder first.
    cwd = env["PYTHONPATH"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command[:5]} failed")
    return wall, usage.ru_utime + usage.ru_stime


def _inside(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """The seconds :func:`inside_child` (run by ``command``) measured in the app."""
    done = subprocess.run(
        command, env=env, cwd=env["PYTHONPATH"], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{command[:5]} failed: {done.stderr[-2000:]}")
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


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
    parser.add_argument("--every-table", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bare-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.screen_child:
        screen_child(args.screen_child, args.every_table)
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
    indexed(db)
    stats_cmd = [python, "-m", "quizzer", "stats", "--db", str(db)]
    first = _timed(stats_cmd, env)[0]  # counts from the log when there is no cache yet
    here = str(Path(__file__).resolve())
    # name -> (command, environment, what to do first, untimed)
    commands: dict[str, tuple[list[str], dict[str, str], list[str] | Path | None]] = {
        "stats": (stats_cmd, env, None),
        "pass": ([python, "-c", "pass"], env, None),
        "after_answer": (stats_cmd, env, [python, "-c", ANSWER, str(db)]),
        "recount": (stats_cmd, env, db.with_name(db.name + ".figures")),
        "screen": ([python, here, "--screen-child", str(db)], env, None),
        "screen_all": ([python, here, "--screen-child", str(db), "--every-table"], env, None),
        "bare": ([python, here, "--bare-child"], env, None),
    }
    if args.against:
        other_env = dict(env, PYTHONPATH=str(Path(args.against).resolve()))
        other_db = twin(folder)
        theirs = str(Path(args.against).resolve() / "benchmarks" / "stats_scale.py")
        other_stats = [python, "-m", "quizzer", "stats", "--db", str(other_db)]
        _timed(other_stats, other_env)  # its own caches
        commands.update(
            {
                "against_stats": (other_stats, other_env, None),
                "against_after_answer": (
                    other_stats,
                    other_env,
                    [python, "-c", ANSWER, str(other_db)],
                ),
                "against_recount": (
                    other_stats,
                    other_env,
                    other_db.with_name(other_db.name + ".figures"),
                ),
                "against_screen": (
                    [python, theirs, "--screen-child", str(other_db)],
                    other_env,
                    None,
                ),
            }
        )
    n = json.loads((folder / "built.json").read_text())["answers"]
    # In-app times (the child measures them): checkout -> (python -c code, environment, store).
    inside: dict[str, tuple[list[str], dict[str, str]]] = {
        "inside": ([python, "-c", INSIDE, str(db)], env),
    }
    reads: dict[str, tuple[list[str], dict[str, str]]] = {
        "reviews": ([python, "-c", REVIEWS, str(db)], env),
    }
    if args.against:
        inside["against_inside"] = ([python, "-c", INSIDE, str(other_db)], other_env)
        reads["against_reviews"] = ([python, "-c", REVIEWS, str(other_db)], other_env)
    if args.quick:  # the whole log is read once each, not timed (it writes the month caches)
        reads = {}
    for command, command_env in reads.values():
        _inside(command, command_env)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    in_app: dict[str, list[dict[str, float]]] = {name: [] for name in (*inside, *reads)}
    for _ in range(runs):
        for name, (command, command_env, first_do) in commands.items():
            if isinstance(first_do, Path):
                first_do.unlink(missing_ok=True)
            elif first_do is not None:
                _timed(first_do, command_env)
            times[name].append(_timed(command, command_env))
        for name, (command, command_env) in (*inside.items(), *reads.items()):
            in_app[name].append(_inside(command, command_env))
    med = {name: statistics.median(w for w, _ in values) for name, values in times.items()}
    cpu = {name: statistics.median(c for _, c in values) for name, values in times.items()}
    for name, values in in_app.items():
        for key in values[0]:
            med[f"{name}_{key.removesuffix('_s')}"] = statistics.median(v[key] for v in values)
    print(
        json.dumps(
            {
                "answers": n,
                "first_stats_s": round(first, 2),
                **{f"{name}_median_s": round(value, 3) for name, value in med.items()},
                **{f"{name}_cpu_s": round(value, 3) for name, value in cpu.items()},
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
        f"stats screen figures ready, {label} answers (whole process)",
        round(med["screen"], 3),
        "bare Textual app",
        round(med["bare"], 3),
        goal=1.5,
    )
    figures.emit(
        f"stats screen in the app, key to figures shown, {label} answers",
        round(med["inside_first"], 3),
        "none",
        None,
        goal=1.0,
        absolute=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
