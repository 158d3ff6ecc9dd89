"""Issue 12's speed report in one run: every figure next to its peer, and whether its goal holds.

Runs each benchmark script of ``SCRIPTS`` in turn (in its quick mode unless ``--full``),
collects the ``FIGURE`` lines they print through ``benchmarks/figures.py`` and prints one
Markdown table: figure, quizzer, peer, ratio, goal, met. The scripts interleave quizzer
with its peer themselves; this only gathers them so one run gives the whole picture.

Run: ``.venv/bin/python benchmarks/scale_report.py [--full] [--only import launch ...]``
(``--out FILE`` also writes the table to a file). It takes several minutes: the fixtures
are 50,000-entry glossaries and million-answer stores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import figures

HERE = Path(__file__).resolve().parent

# name -> (script, quick arguments, full arguments)
SCRIPTS: dict[str, tuple[str, list[str], list[str]]] = {
    "import": ("import_glossary.py", ["--quick"], ["--sizes", "12500", "50000", "200000"]),
    "launch": ("launch_time.py", ["--quick"], []),
    "stats": ("stats_scale.py", ["--quick"], []),
    "answer": ("answer_latency.py", ["--quick"], []),
}


def run_script(name: str, full: bool) -> tuple[list[figures.Figure], float, str]:
    """Run one script; its figures, its wall time and its stderr tail when it failed."""
    script, quick, whole = SCRIPTS[name]
    path = HERE / script
    if not path.exists():
        return [], 0.0, f"{script} not found"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(path), *(whole if full else quick)],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    sys.stdout.write(done.stdout)
    problem = "" if done.returncode == 0 else done.stderr.strip().splitlines()[-5:]
    return figures.parse(done.stdout), elapsed, "\n".join(problem)


def number(value: float | None, unit: str) -> str:
    """A value with its unit, or a dash."""
    if value is None:
        return "—"
    if unit == "s":
        return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
    if unit == "ms":
        return f"{value:.2f} ms"
    return f"{value:,.0f} {unit}"


def table(items: list[figures.Figure]) -> str:
    """The figures as a Markdown table."""
    lines = [
        "| figure | quizzer | peer | peer value | ratio | goal | met |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for item in items:
        ratio = "—" if item.ratio is None else f"{item.ratio:.2f}"
        goal = number(item.goal, item.unit) if item.absolute else f"≤ {item.goal:g}×"
        lines.append(
            f"| {item.figure} | {number(item.quizzer, item.unit)} | {item.peer} | "
            f"{number(item.peer_value, item.unit)} | {ratio} | {goal} | "
            f"{'yes' if item.met else 'no'} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the scripts' full runs")
    parser.add_argument("--only", nargs="+", choices=sorted(SCRIPTS), default=sorted(SCRIPTS))
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args()
    collected: list[figures.Figure] = []
    problems: list[str] = []
    for name in args.only:
        print(f"== {name}", flush=True)
        found, elapsed, problem = run_script(name, args.full)
        print(f"== {name}: {len(found)} figures in {elapsed:.0f} s", flush=True)
        collected.extend(found)
        if problem:
            problems.append(f"{name}: {problem}")
    report = table(collected)
    print()
    print(report)
    for problem in problems:
        print(f"\nfailed: {problem}", file=sys.stderr)
    if args.out:
        args.out.write_text(report + "\n", encoding="utf-8")
    if problems:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
