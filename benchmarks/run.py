"""The speed figures a learner feels, each beside its peer measured in the same run.

Writes ``benchmarks/RESULTS.md``: the date, the machine, the commit measured and one
table. See ``benchmarks/README.md`` for what each figure is and how its peer was chosen.

    python benchmarks/run.py [--runs N] [--quick] [--only FIGURE ...] [--against COMMIT]
                             [--out PATH]

Every process timed is started fresh; quizzer, its peer and (with ``--against``) the other
commit take turns round by round, the order turning by one each round (whoever goes first
pays for the flush of what the round before wrote), and each figure is the median of its
rounds. Each checkout builds its own fixtures with its own code (``side.py``), from the
same generated inputs; the other commit is checked out into a temporary ``git worktree``,
removed at the end, and runs with its root first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import big_glossary
from anki_peers import IMPORT, STATS, AnkiAnswering, stats_collection
from side import DIRECTIONS, LANGUAGES
from tmux import Pane, Server

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks"
PYTHON = sys.executable
FIGURES = ("home", "study", "key", "import", "stats", "record")


@dataclass(frozen=True)
class Size:
    """How big the fixtures are, and how many rounds each figure gets."""

    deck: int = 50_000  # concepts in the imported deck beside the store's own
    store: int = 100_000  # cards in the store the app opens
    glossary: int = 50_000  # entries imported
    answers: int = 1_000_000  # answers in the statistics store
    record_cards: int = 10_000  # cards in the store answers are recorded in
    runs: int = 7  # rounds of each whole-process figure
    presses: int = 40  # key presses timed per app
    records: int = 200  # answers recorded per side


QUICK = Size(
    deck=2_000, store=5_000, glossary=2_000, answers=50_000, record_cards=2_000, runs=3,
    presses=10, records=30,
)  # fmt: skip


# -- the checkouts -------------------------------------------------------------------------


@dataclass
class Side:
    """One checkout of quizzer, its own fixtures and caches under ``work``."""

    label: str
    root: Path
    work: Path

    @property
    def decks(self) -> Path:
        """Its decks folder: the bench deck and the imported big deck."""
        return self.work / "decks"

    @property
    def store(self) -> Path:
        """The store the app opens (the bench deck's cards)."""
        return self.work / "store" / "progress.json"

    def env(self, **extra: str) -> dict[str, str]:
        """Its processes' environment: its code first on the path, its own caches and
        folders, bytecode written (as an installed package has it), a UTF-8 terminal."""
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONDONTWRITEBYTECODE", "QUIZZER_DB", "QUIZZER_DECKS")
        }
        home = self.work / "home"
        env.update(
            PYTHONPATH=str(self.root),
            HOME=str(home),
            XDG_DATA_HOME=str(home / "data"),
            XDG_CACHE_HOME=str(home / "cache"),
            XDG_CONFIG_HOME=str(home / "config"),
            QUIZZER_CACHE=str(self.work / "cache"),
            QUIZZER_DECKS=str(self.decks),
            QUIZZER_DB=str(self.store),
            LANG="C.UTF-8",
            LC_ALL="C.UTF-8",
            TERM="xterm-256color",
            COLUMNS="100",
        )
        env.update(extra)
        return env

    def run(self, argv: Sequence[str], **extra: str) -> None:
        """Run ``argv`` in this checkout (it must succeed), untimed."""
        done = subprocess.run(
            list(argv), env=self.env(**extra), cwd=self.root, capture_output=True, check=False
        )
        if done.returncode != 0:
            tail = done.stderr.decode(errors="replace")[-3000:]
            raise SystemExit(f"{self.label}: {' '.join(argv[:6])} failed:\n{tail}")

    def side_py(self, *args: str) -> list[str]:
        """A command line of ``side.py`` running in this checkout."""
        return [PYTHON, str(HERE / "side.py"), *args]


@contextmanager
def checkout(commit: str, into: Path) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary worktree, removed afterwards."""
    path = into / "checkout"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), commit],
        check=True,
        capture_output=True,
    )
    try:
        yield path
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
            check=False,
            capture_output=True,
        )


def turns(names: Sequence[str], rounds: int) -> Iterator[tuple[int, str]]:
    """``(round, name)`` for every name in every round, the order turning by one a round."""
    for index in range(rounds):
        shift = index % len(names)
        for name in (*names[shift:], *names[:shift]):
            yield index, name


def timed(argv: Sequence[str], env: dict[str, str], cwd: Path) -> float:
    """Wall seconds of ``argv`` as a whole process (it must succeed; output discarded)."""
    start = time.perf_counter()
    done = subprocess.run(
        list(argv), env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace")[-3000:]
        raise SystemExit(f"{' '.join(argv[:6])} failed:\n{tail}")
    return elapsed


# -- fixtures ------------------------------------------------------------------------------

_WORDS = {
    "en": ("Bench concept", "A generated definition number"),
    "bn": ("বেঞ্চ ধারণা", "একটি তৈরি সংজ্ঞা নম্বর"),
    "ar": ("مفهوم القياس", "تعريف مولد رقم"),
    "ru": ("Тестовое понятие", "Созданное определение номер"),
    "fr": ("Concept de banc", "Une définition générée numéro"),
}
assert tuple(_WORDS) == LANGUAGES


def bench_deck(concepts: int) -> str:
    """The deck the store's cards belong to (``bench/concept-N``), as TOML: every concept's
    term and definition in the five languages, so each has all 25 directions."""
    lines = ["format = 1", 'id = "bench"', 'name = "Bench"', 'description = "Generated."', ""]
    for i in range(concepts):
        lines += ["[[concepts]]", f'id = "concept-{i}"', ""]
        for lang, (term, definition) in _WORDS.items():
            for part, text in (("term", f"{term} {i}"), ("definition", f"{definition} {i}.")):
                lines += [f"[concepts.{lang}.{part}]", f'text = "{text}"', 'source = "authored"']
                lines.append("")
    return "\n".join(lines)


class Fixtures:
    """The inputs every checkout shares (generated once) and each checkout's own fixtures
    (built by its own code, once, when a figure first needs them)."""

    def __init__(self, size: Size, shared: Path) -> None:
        self.size = size
        self.shared = shared
        self.done: set[tuple[str, str]] = set()

    def _once(self, side: Side | None, what: str) -> bool:
        key = (side.label if side else "", what)
        if key in self.done:
            return False
        self.done.add(key)
        return True

    @property
    def glossary(self) -> Path:
        """The big glossary (and its CSV twin, for Anki), written once."""
        path = self.shared / "glossary.txt"
        if self._once(None, "glossary"):
            big_glossary.write(path, self.size.glossary, self.csv)
        return path

    @property
    def csv(self) -> Path:
        """The glossary's entries as a two-column CSV."""
        return self.shared / "glossary.csv"

    @property
    def mixed_glossary(self) -> Path:
        """The big English and French glossary (and its CSV twin), written once."""
        path = self.shared / "mixed.txt"
        if self._once(None, "mixed"):
            big_glossary.write(path, self.size.glossary, self.mixed_csv, mixed=True)
        return path

    @property
    def mixed_csv(self) -> Path:
        """The mixed glossary's entries as a two-column CSV."""
        return self.shared / "mixed.csv"

    def app(self, side: Side) -> None:
        """The app's decks (the bench deck; the big deck imported by ``quizzer import``, as a
        learner's import leaves it) and its store of the bench deck's cards."""
        if not self._once(side, "app"):
            return
        side.decks.mkdir(parents=True, exist_ok=True)
        concepts = -(-self.size.store // len(DIRECTIONS))
        (side.decks / "bench.toml").write_text(bench_deck(concepts), encoding="utf-8")
        deck_glossary = self.shared / "deck.txt"
        if self._once(None, "deck"):
            big_glossary.write(deck_glossary, self.size.deck)
        side.run([PYTHON, "-m", "quizzer", "import", str(deck_glossary), "--deck", "big"])
        side.store.parent.mkdir(parents=True, exist_ok=True)
        side.run(side.side_py("store", str(side.store), str(self.size.store), "2"))

    def stats_store(self, side: Side) -> Path:
        """The statistics store: ``answers`` answers, 50 a card, over two years; beside it
        (``decks/``) the bench deck of its cards alone, whatever other figures ran."""
        path = side.work / "stats" / "progress.json"
        if self._once(side, "stats"):
            cards = self.size.answers // 50
            (path.parent / "decks").mkdir(parents=True)
            deck = bench_deck(-(-cards // len(DIRECTIONS)))
            (path.parent / "decks" / "bench.toml").write_text(deck, encoding="utf-8")
            side.run(side.side_py("store", str(path), str(cards), "50"))
            env = {"QUIZZER_DECKS": str(path.parent / "decks")}
            side.run([PYTHON, "-m", "quizzer", "stats", "--db", str(path)], **env)  # caches
        return path

    def record_store(self, side: Side) -> Path:
        """The store answers are recorded in: ``record_cards`` cards, 10 answers each."""
        path = side.work / "record" / "progress.json"
        if self._once(side, "record"):
            path.parent.mkdir(parents=True)
            side.run(side.side_py("store", str(path), str(self.size.record_cards), "10"))
        return path

    def anki_stats(self) -> Path:
        """Anki's collection with as many answers as the statistics store."""
        path = self.shared / "anki-stats" / "collection.anki2"
        if self._once(None, "anki-stats"):
            path.parent.mkdir()
            stats_collection(path, self.size.answers // 50, 50)
        return path


# -- results -------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: medians of quizzer, its peer and the other commit."""

    figure: str
    peer: str
    unit: str  # "s" or "ms"
    goal: str  # "ratio" (≤ limit × peer), "absolute" (≤ limit) or "none" (shown, no goal)
    limit: float
    times: dict[str, list[float]] = field(default_factory=dict)

    def median(self, name: str) -> float | None:
        """The median of ``name``'s times, in the row's unit, or ``None``."""
        values = self.times.get(name)
        if not values:
            return None
        scale = 1000 if self.unit == "ms" else 1
        return statistics.median(values) * scale


def _value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "ms":
        return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"
    return f"{value:.2f} s"


def table(rows: list[Row], against: str | None) -> str:
    """The one table of RESULTS.md."""
    head = ["figure", "quizzer", "peer", "peer's median", "ratio", "goal"]
    if against:
        head += [f"{against}", "change"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in rows:
        ours, peer = row.median("quizzer"), row.median("peer")
        ratio = ours / peer if ours is not None and peer else None
        if row.goal == "ratio":
            met = ratio is not None and ratio <= row.limit
            goal = f"≤ {row.limit:g}×"
        elif row.goal == "absolute":
            met = ours is not None and ours <= row.limit
            goal = f"≤ {_value(row.limit, row.unit)}"
        else:
            met, goal = True, "—"
        verdict = "" if row.goal == "none" else (" ✓" if met else " ✗")
        cells = [
            row.figure,
            _value(ours, row.unit),
            row.peer,
            _value(peer, row.unit),
            "—" if ratio is None else f"{ratio:.2f}×",
            goal + verdict,
        ]
        if against:
            theirs = row.median("against")
            change = (
                "—"
                if theirs is None or ours is None
                else f"{round((ours - theirs) / theirs * 100):+d}%"
            )
            cells += [_value(theirs, row.unit), change]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    """The CPU model, its cores, the kernel and Python."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def commit_of(root: Path) -> str:
    """The commit checked out at ``root``, marked when the tree has changes."""
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--", "quizzer"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return head + (" with uncommitted changes to quizzer/" if dirty else "")


# -- the figures ---------------------------------------------------------------------------

#: A Textual app with nothing of quizzer's: a label, a card's prompt and a footer; on "3"
#: it draws the next prompt, on Ctrl+C it quits. The floor any Textual app pays here.
BARE_APP = """
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer, Static

class Bare(App):
    BINDINGS = [Binding("ctrl+c", "quit", "Quit", priority=True), Binding("3", "next", "Good")]
    shown = 0

    def compose(self):
        yield Static("English term")
        yield Static("Bench concept 0", id="card")
        yield Footer()

    def action_next(self):
        self.shown += 1
        self.query_one("#card", Static).update(f"Bench concept {self.shown}")

Bare().run()
"""
#: The home screen's first paint: a deck line with its counts ("20 concepts · 20 new").
HOME_PAINTED = re.compile(r"\d[\d,]* concepts · \d[\d,]* new")
#: Every prompt of the bench deck's studied direction reads "Bench concept N".
PROMPT = re.compile(r"Bench concept (\d+)")
#: The revealed answer (the Russian definition).
ANSWER = "Созданное определение номер"
STUDY = ["study", "bench", "--from", "en:term", "--to", "ru:definition", "--mode", "flip"]


class Bench:
    """The figures, measured for quizzer (``sides[0]``), the other commit and the peers."""

    def __init__(self, size: Size, sides: list[Side], fixtures: Fixtures, server: Server):
        self.size = size
        self.sides = {"quizzer": sides[0], **({"against": sides[1]} if len(sides) > 1 else {})}
        self.fixtures = fixtures
        self.server = server
        self.peer_env = sides[0].env()

    def _pane(self, name: str, argv: list[str]) -> Pane:
        if name == "peer":
            return Pane(self.server, [PYTHON, "-c", BARE_APP], ROOT, self.peer_env)
        side = self.sides[name]
        return Pane(self.server, [PYTHON, "-m", "quizzer", *argv], side.root, side.env())

    def _launch(self, name: str, argv: list[str], painted: Callable[[str], bool]) -> float:
        pane = self._pane(name, argv)
        try:
            if name == "peer":
                drawn = pane.wait_for(lambda screen: "Bench concept 0" in screen)
            else:
                drawn = pane.wait_for(painted)
            return drawn - pane.started
        finally:
            pane.close()

    def launch(self, row: Row, argv: list[str], painted: Callable[[str], bool]) -> Row:
        """From starting the process to the screen drawn, in tmux: quizzer ``argv`` against
        the bare app, one warm-up each (it also writes the bytecode), then the rounds."""
        for side in self.sides.values():
            self.fixtures.app(side)
        names = [*self.sides, "peer"]
        for name in names:
            self._launch(name, argv, painted)
        for _round, name in turns(names, self.size.runs):
            row.times.setdefault(name, []).append(self._launch(name, argv, painted))
        return row

    def home(self) -> Row:
        """The home screen's first paint with the big deck and the big store."""
        row = Row(
            f"home screen, first paint ({self.size.deck:,}-concept deck, "
            f"{self.size.store:,}-card store)",
            "bare Textual app, first paint",
            "s",
            "ratio",
            1.5,
        )
        return self.launch(row, [], lambda screen: bool(HOME_PAINTED.search(screen)))

    def study(self) -> Row:
        """``quizzer study`` to its first card, same fixtures."""
        row = Row(
            "`quizzer study` to the first card (same deck and store)",
            "bare Textual app, first paint",
            "s",
            "ratio",
            1.5,
        )

        def card(screen: str) -> bool:
            return bool(PROMPT.search(screen)) and ANSWER not in screen

        return self.launch(row, STUDY, card)

    def key(self) -> Row:
        """A grade's key press to the next card drawn (the answer recorded on the way): each
        app is started once; the presses take turns among them."""
        row = Row(
            "key press (grade) to the next card drawn",
            "bare Textual app redrawing a label",
            "ms",
            "absolute",
            16.0,
        )
        for side in self.sides.values():
            self.fixtures.app(side)
        names = [*self.sides, "peer"]
        panes = {name: self._pane(name, STUDY) for name in names}
        try:
            for pane in panes.values():
                pane.wait_for(lambda screen: bool(PROMPT.search(screen)))
            shown = {name: 0 for name in names}
            for index, name in turns(names, self.size.presses + 2):
                pane = panes[name]
                if name == "peer":
                    wanted = f"Bench concept {shown[name] + 1}"
                    pane.settle()
                    sent = pane.keys("3")
                    drawn = pane.wait_for(lambda screen, wanted=wanted: wanted in screen)
                    shown[name] += 1
                else:
                    pane.keys("Space")  # reveal the answer, untimed
                    pane.wait_for(lambda screen: ANSWER in screen)
                    pane.settle()
                    before = PROMPT.findall(pane.screen())
                    sent = pane.keys("3")

                    def next_card(screen: str, before: list[str] = before) -> bool:
                        now = PROMPT.findall(screen)
                        return bool(now) and now != before and ANSWER not in screen

                    drawn = pane.wait_for(next_card)
                if index >= 2:  # the first two presses of each warm it up
                    row.times.setdefault(name, []).append(drawn - sent)
        finally:
            for pane in panes.values():
                pane.close()
        return row

    def import_(self) -> list[Row]:
        """``quizzer import`` of the big glossary into an empty folder, against Anki's engine
        importing the same rows from a CSV into a new collection; whole processes. Then the
        same for the English and French glossary (no goal of its own: it shows what telling
        every entry's language among languages of one script costs)."""
        bengali = Row(
            f"import a {self.size.glossary:,}-entry glossary",
            "Anki's CSV import of the same rows",
            "s",
            "ratio",
            1.0,
        )
        self._import(bengali, self.fixtures.glossary, self.fixtures.csv)
        mixed = Row(
            f"import a {self.size.glossary:,}-entry glossary alternating English and French",
            "Anki's CSV import of the same rows",
            "s",
            "none",
            1.0,
        )
        self._import(mixed, self.fixtures.mixed_glossary, self.fixtures.mixed_csv)
        return [bengali, mixed]

    def _import(self, row: Row, glossary: Path, csv: Path) -> None:
        count = 0
        for _round, name in turns([*self.sides, "peer"], self.size.runs):
            count += 1
            if name == "peer":
                argv = [PYTHON, "-c", IMPORT, str(csv), str(self.size.glossary)]
                row.times.setdefault(name, []).append(timed(argv, self.peer_env, ROOT))
                continue
            side = self.sides[name]
            into = side.work / f"import-{count}"
            argv = [PYTHON, "-m", "quizzer", "import", str(glossary), "--deck", "big"]
            argv += ["--into", str(into)]
            row.times.setdefault(name, []).append(timed(argv, side.env(), side.root))
            shutil.rmtree(into)

    def stats(self) -> Row:
        """``quizzer stats`` over a million answers after a session's answer (recorded by
        another process, untimed), against Anki's engine computing its statistics screen
        over a revlog as big; whole processes."""
        row = Row(
            f"`quizzer stats` at {self.size.answers:,} answers, after an answer",
            "Anki's statistics screen, same count",
            "s",
            "absolute",
            1.0,
        )
        stores = {name: self.fixtures.stats_store(side) for name, side in self.sides.items()}
        collection = self.fixtures.anki_stats()
        peer = [PYTHON, "-c", STATS, str(collection)]
        timed(peer, self.peer_env, ROOT)  # warm
        for _round, name in turns([*self.sides, "peer"], self.size.runs):
            if name == "peer":
                row.times.setdefault(name, []).append(timed(peer, self.peer_env, ROOT))
                continue
            side, store = self.sides[name], stores[name]
            side.run(side.side_py("answer", str(store)))
            argv = [PYTHON, "-m", "quizzer", "stats", "--db", str(store)]
            env = side.env(QUIZZER_DECKS=str(store.parent / "decks"))
            row.times.setdefault(name, []).append(timed(argv, env, side.root))
        return row

    def record(self) -> list[Row]:
        """Recording an answer after the card was shown, fsynced, in a store of
        ``record_cards`` cards, against Anki's engine answering a card of a collection as big
        on the same disk, and the disk's raw flush; the answers take turns one by one."""
        vs_anki = Row(
            f"record an answer, p50 ({self.size.record_cards:,} cards, fsynced)",
            "Anki's engine answering a card",
            "ms",
            "ratio",
            1.0,
        )
        vs_flush = Row(
            "record an answer, p50 (same answers)",
            "the disk's raw flush (write + fdatasync)",
            "ms",
            "none",
            0.0,
        )
        children = {}
        for name, side in self.sides.items():
            store = self.fixtures.record_store(side)
            child = subprocess.Popen(
                side.side_py("record", str(store)),
                env=side.env(),
                cwd=side.root,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
            children[name] = child
        anki_dir = self.fixtures.shared / "anki-answering"
        anki_dir.mkdir(exist_ok=True)
        anki = AnkiAnswering(anki_dir, self.size.record_cards)
        flush = Flush(self.fixtures.shared)
        rng, anki_rng = random.Random(5), random.Random(6)
        pick: tuple[int, int] = (0, 3)
        for _round, name in turns([*children, "anki", "flush"], self.size.records):
            if name == "anki":
                anki.once(anki_rng)
            elif name == "flush":
                flush.once()
            else:
                if name == "quizzer":  # each side answers the same card with the same grade
                    pick = (rng.randrange(self.size.record_cards), rng.choice((1, 3, 3, 3, 4)))
                child = children[name]
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write(f"{pick[0]} {pick[1]}\n")
                child.stdin.flush()
                vs_anki.times.setdefault(name, []).append(float(child.stdout.readline()))
        for child in children.values():
            assert child.stdin is not None
            child.stdin.close()
            child.wait()
        vs_anki.times["peer"] = anki.close()
        vs_flush.times = {**vs_anki.times, "peer": flush.close()}
        return [vs_anki, vs_flush]


class Flush:
    """The disk's own cost of a durable answer: append a journal-sized line to a file and
    fdatasync it."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "flush.bin"
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.times: list[float] = []

    def once(self) -> None:
        """One append and flush, timed."""
        start = time.perf_counter()
        os.write(self.fd, b"x" * 460 + b"\n")
        os.fdatasync(self.fd)
        self.times.append(time.perf_counter() - start)

    def close(self) -> list[float]:
        """Close and remove the file; the times."""
        os.close(self.fd)
        self.path.unlink()
        return self.times


# -- the run -------------------------------------------------------------------------------


def write_results(
    out: Path, rows: list[Row], args: argparse.Namespace, size: Size, started: datetime
) -> None:
    """RESULTS.md: when, where, what was measured, and the table."""
    lines = ["# Speed: the figures a learner feels", ""]
    if args.quick:
        lines += [
            "**Quick smoke run (`--quick`)**: small fixtures and few rounds, to check that "
            "the script works. These are not the figures.",
            "",
        ]
    lines += [
        f"- Date: {started:%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Commit measured: {commit_of(ROOT)}"
        + (f", against {args.against} in the same run" if args.against else ""),
        f"- Load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- Rounds: {size.runs} per whole-process figure, {size.presses} key presses and "
        f"{size.records} answers per app; medians",
        f"- Command: `python benchmarks/run.py {' '.join(sys.argv[1:])}`".rstrip(),
        "",
        table(rows, args.against),
        "",
        "Ratio is quizzer's median over the peer's; the goals are in `benchmarks/README.md`,"
        " with how each figure and its peer are measured.",
        "",
    ]
    out.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Measure the figures asked for and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, help="rounds of each whole-process figure")
    parser.add_argument("--quick", action="store_true", help="small fixtures, few rounds")
    parser.add_argument("--only", nargs="+", choices=FIGURES, default=list(FIGURES))
    parser.add_argument("--against", metavar="COMMIT", help="also measure this commit")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    args = parser.parse_args(argv)
    if {"home", "study", "key"} & set(args.only) and shutil.which("tmux") is None:
        parser.error("the screen figures need tmux")
    try:
        import anki  # noqa: F401  (the peer of import, statistics and recording)
    except ImportError:
        if {"import", "stats", "record"} & set(args.only):
            parser.error("the anki package is needed (pip install anki)")
    size = QUICK if args.quick else Size()
    if args.runs:
        size = replace(size, runs=args.runs)
    started = datetime.now(UTC)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="quizzer-bench-") as folder:
        tmp = Path(folder)
        with ExitStack() as stack:
            other = stack.enter_context(checkout(args.against, tmp)) if args.against else None
            sides = [Side("quizzer", ROOT, tmp / "work-quizzer")]
            if other is not None:
                sides.append(Side(args.against, other, tmp / "work-against"))
            for side in sides:
                side.work.mkdir()
                compileall.compile_dir(side.root / "quizzer", quiet=1)
            shared = tmp / "shared"
            shared.mkdir()
            server = Server(tmp)
            bench = Bench(size, sides, Fixtures(size, shared), server)
            try:
                for figure in FIGURES:
                    if figure not in args.only:
                        continue
                    start = time.perf_counter()
                    print(f"{figure}…", end=" ", flush=True)
                    measured = getattr(bench, "import_" if figure == "import" else figure)()
                    rows += measured if isinstance(measured, list) else [measured]
                    print(f"{time.perf_counter() - start:.0f} s", flush=True)
            finally:
                server.close()
    write_results(args.out, rows, args, size, started)
    print(args.out.read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
