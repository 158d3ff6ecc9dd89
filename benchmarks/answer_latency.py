"""How long recording one answer durably takes, reading the whole log and migrating, by size.

For each size (1k, 10k, 100k cards, 10 reviews of history per card) this builds a
real progress store on disk in an old layout (schema 2: snapshot of every card's
state, journal with the full history) and migrates it to the current schema in a
child process (``migrate_v2_s``, and ``migrate_v2_peak_mb``, the child's peak RSS;
its peer ``parse_v2_s`` only reads and JSON-parses the schema-2 files). It then
opens the migrated store (``open_s``), records ``--answers`` answers of each of two
kinds with :meth:`Store.record` (each one fsynced before it returns), timing every
call, and closes it (``close_s``: the compaction). What is timed is what a learner waits
for, from the key to the durable answer: ``shown_*``, the card previewed first, untimed,
as the study screen shows it, then ``Store.record`` alone; ``cold_*`` (the figure this
script printed before), ``Store.record`` on a card not shown first, reading its state and
the FSRS step included. Each answer is timed in turn with its peers: ``fsync_floor_*``,
the same disk appending one line and fdatasyncing it with no quizzer code (the part of
an answer's cost no store design can avoid), and, at ``--anki-sizes`` (default 100k),
``anki_shown_*`` and ``anki_cold_*``: Anki's engine answering a card of a collection as
big, FSRS on, committed durably, timed the same two ways. ``*_cpu_p50_ms`` is the
process's own CPU time in an answer (the kernel's part of the write and the flush in,
the disk's wait not). ``benchmarks/answer_timing.py`` says exactly what each timing
spans, ``benchmarks/anki_answering.py`` why that is the fair moment for Anki.

``reviews_s`` is reading the whole review log (``store.reviews()``, read-only store),
interleaved with its peer ``json_loads_s`` (``json.loads`` of the same month files'
bytes); medians of ``--read-runs``, after a first read (``reviews_first_s``), which also
writes each month's cache (``quizzer/progress/monthcache.py``). Prints one JSON line per
size, and at 100k cards the speed report's ``FIGURE`` lines (:mod:`figures`).

Run: ``.venv/bin/python benchmarks/answer_latency.py [--sizes 1000 10000 100000]``;
``--quick`` for the speed report's run (100k cards, 200 answers of each kind, one read);
``--record-only`` times only the answers (the store is built by ``merge_batch``, one
answer per card, no migration and no reads: minutes less); ``--against DIR`` also times
another quizzer checkout's ``Store.record`` (say main's, in a child process on a copy of
the store, given the same cards, grades and times), interleaved with these: before/after;
``--profile`` prints where the answers' CPU time goes, by function (the answers after
show, and the cold ones).
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
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import figures
from answer_timing import time_answers

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.languages import LANGUAGES
from quizzer.progress import journal, journal_path, open_store
from quizzer.progress.files import log_dir
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State, full_state, slim_state
from quizzer.scheduling import scheduler as scheduling
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

HISTORY = 10
#: The migration's goal: a one-time cost on first open, in seconds (see the README's Speed).
MIGRATE_GOAL_S = 60.0
START = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
PAIRS = [Pair(a, "term", b, "definition") for a in LANGUAGES for b in LANGUAGES]


def card_keys(n: int) -> list[CardKey]:
    """``n`` distinct cards: concepts in one deck, each in up to 25 directions."""
    per = len(PAIRS)
    return [CardKey(f"bench/concept-{i // per}", PAIRS[i % per]) for i in range(n)]


def template_history(settings: SchedulerSettings) -> list[tuple[dict, dict]]:
    """Ten realistic answers for one card: (review dict, slim state) per answer."""
    rng = random.Random(1)
    key = CardKey("bench/template", PAIRS[0])
    state = CardState.new(key, START)
    now = START
    out = []
    for i in range(HISTORY):
        grade = 1 if i == 6 else 3
        outcome = scheduling.answer(state, grade, now, settings, rng)
        new = outcome.state
        review = {
            "id": "",
            "card_id": key.id,
            "reviewed_at": now.isoformat(),
            "grade": grade,
            "mode": "flip",
            "duration_ms": 3000 + i,
            "phase": outcome.phase,
            "last_interval_days": round(outcome.last_interval_days, 6),
            "interval_days": round(outcome.interval_days, 6),
            "due": new.due.isoformat(),
            "stability": new.stability,
            "difficulty": new.difficulty,
            "typed": None,
            "correct": None,
            "overridden": False,
        }
        out.append((review, slim_state(new.to_dict())))
        state = new
        now = new.due
    return out


def build_v2(path: Path, n: int) -> None:
    """Write a schema-2 store (``n`` cards, :data:`HISTORY` reviews each), as it was written."""
    settings = SchedulerSettings()
    template = template_history(settings)
    st = State()
    st.created = START.isoformat()
    seq = 0
    with open(journal_path(path), "wb") as fh:
        for i, key in enumerate(card_keys(n)):
            before = None
            for j, (review, slim) in enumerate(template):
                seq += 1
                r = dict(review, id=f"h{i:07d}-{j:02d}", card_id=key.id)
                fh.write(journal.encode({"op": "record", "seq": seq, "review": r, "card": slim}))
                before = full_state(slim, r, before)
            st.raw[key.id] = before  # type: ignore[assignment]
        end = fh.tell()
        # Flush the built history now, so the first timed answer doesn't pay for it.
        fh.flush()
        os.fsync(fh.fileno())
    st.seq = seq
    doc = st.to_document(end)
    doc["meta"]["1"]["schema"] = 2  # the version-2 layout: no generation, no log files
    del doc["meta"]["1"]["gen"]
    AtomicJSONStorage(path).write(doc)


def build_current(path: Path, n: int) -> None:
    """A current store of ``n`` cards, each answered once (``--record-only``: no migration)."""
    review, slim = template_history(SchedulerSettings())[-1]
    reviews, states = [], []
    for i, key in enumerate(card_keys(n)):
        r = dict(review, id=f"h{i:07d}", card_id=key.id)
        reviews.append(Review.from_dict(r))
        states.append(CardState.from_dict(full_state(slim, r, None)))  # type: ignore[arg-type]
    with open_store(path, tz=UTC) as store:
        store.merge_batch(reviews, states)


def measure(n: int, args: argparse.Namespace, directory: Path) -> dict[str, float | int]:
    """Build a store of ``n`` cards, migrate it, open it, record answers; the numbers.

    Each answer is timed in turn with the disk's floor and, at the sizes asked
    (``--anki-sizes``), with Anki's engine answering a card of a collection as big.
    """
    path = directory / f"progress-{n}.json"
    result: dict[str, float | int] = {"cards": n}
    if args.record_only:
        build_current(path, n)
        result["history_reviews"] = n
    else:
        build_v2(path, n)
        v2_journal_mb = journal_path(path).stat().st_size / 1e6
        parse_v2_s = parse_v2(path)
        migrate_s, migrate_mb = migrate_in_child(path)
        # Keep only what a schema-4 store has (the migration backups would skew the sizes).
        for leftover in directory.glob(f"{path.name}.*v2.bak"):
            leftover.unlink()
        result["history_reviews"] = n * HISTORY
    result.update(time_answers(path, card_keys(n), args, directory))
    if args.record_only:
        return result
    result.update(
        {
            "migrate_v2_s": round(migrate_s, 2),
            "migrate_v2_peak_mb": round(migrate_mb),
            "parse_v2_s": round(parse_v2_s, 2),
            "v2_journal_mb": round(v2_journal_mb, 1),
            "snapshot_mb": round(path.stat().st_size / 1e6, 1),
            "journal_bytes_after_close": journal_path(path).stat().st_size,
            "log_mb": round(_size(log_dir(path), "*.json") / 1e6, 1),
            "log_mirror_mb": round(_size(log_dir(path), "*.json.bak") / 1e6, 1),
            "months": len(list(log_dir(path).glob("*.json"))),
        }
    )
    logged = n * HISTORY + 2 * args.answers  # the history and both kinds of answer
    # The first read after a compaction also writes each month's cache (monthcache.py);
    # the reads after it are the ones a learner meets from then on.
    with open_store(path, tz=UTC, read_only=True) as ro:
        t0 = time.perf_counter()
        assert len(ro.reviews()) == logged
        result["reviews_first_s"] = round(time.perf_counter() - t0, 2)
    reads, peers = [], []
    for _ in range(args.read_runs):  # interleaved with the peer: the same month files' bytes
        peers.append(json_only(path))
        with open_store(path, tz=UTC, read_only=True) as ro:
            t0 = time.perf_counter()
            assert len(ro.reviews()) == logged
            reads.append(time.perf_counter() - t0)
    result["reviews_s"] = round(statistics.median(reads), 2)
    result["json_loads_s"] = round(statistics.median(peers), 2)
    t0 = time.perf_counter()
    with open_store(path, tz=UTC) as again:
        result["reopen_s"] = round(time.perf_counter() - t0, 3)
        assert len(again) == n
    return result


#: A child process migrating the store given (its peak memory is the migration's own).
_MIGRATE = """
import sys
from datetime import UTC
from pathlib import Path
from quizzer.progress import open_store
with open_store(Path(sys.argv[1]), tz=UTC) as store:
    assert len(store)
"""


def migrate_in_child(path: Path) -> tuple[float, float]:
    """Migrate the store at ``path`` in a fresh process: wall seconds and its peak RSS in MB."""
    t0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", _MIGRATE, str(path)])
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - t0
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode == 0, "the migration failed"
    return elapsed, usage.ru_maxrss / 1024  # Linux: kilobytes


def parse_v2(path: Path) -> float:
    """The migration's peer: reading and JSON-parsing the schema-2 files, nothing else."""
    t0 = time.perf_counter()
    json.loads(path.read_bytes())
    with open(journal_path(path), "rb") as fh:
        for line in fh:
            json.loads(line[9:])  # after the checksum
    return time.perf_counter() - t0


def json_only(path: Path) -> float:
    """Reading the log's peer: ``json.loads`` of every month file's bytes, nothing else."""
    t0 = time.perf_counter()
    for file in sorted(log_dir(path).glob("*.json")):
        json.loads(file.read_bytes())
    return time.perf_counter() - t0


def emit_figures(row: dict[str, float | int]) -> None:
    """The speed report's figures of one size (the goals of issue 12 are at 100k cards)."""
    cards = f"{row['cards'] // 1000}k cards"
    answers = f"{row['history_reviews'] / 1e6:g}M answers"
    floor = row["fsync_floor_p50_ms"]
    for kind, what, anki in (
        ("shown", "after the card shows (key → durable)", "Anki answer_card after show"),
        ("cold", "cold (card not shown first)", "Anki get_card…answer_card"),
    ):
        record, value = f"record p50 {what}, {cards}", row[f"{kind}_p50_ms"]
        figures.emit(record, value, "append+fdatasync", floor, unit="ms", goal=1.5)
        if f"anki_{kind}_p50_ms" in row:
            peer = row[f"anki_{kind}_p50_ms"]
            figures.emit(record, value, anki, peer, unit="ms", goal=1.0)
    if "reviews_s" not in row:  # --record-only
        return
    figures.emit(
        f"store.reviews(), {answers}",
        row["reviews_s"],
        "json.loads of the month files",
        row["json_loads_s"],
        goal=5.0,
        absolute=True,
    )
    figures.emit(
        f"store.reviews(), {answers}, first read (writes the month caches)",
        row["reviews_first_s"],
        "json.loads of the month files",
        row["json_loads_s"],
        goal=5.0,
        absolute=True,
    )
    figures.emit(
        f"migrate {answers} peak RSS",
        row["migrate_v2_peak_mb"],
        "none",
        None,
        unit="MB",
        goal=500,
        absolute=True,
    )
    figures.emit(
        f"migrate {answers} time",
        row["migrate_v2_s"],
        "read+json-parse the schema-2 files",
        row["parse_v2_s"],
        goal=MIGRATE_GOAL_S,
        absolute=True,
    )


def _size(directory: Path, pattern: str) -> int:
    return sum(p.stat().st_size for p in directory.glob(pattern))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--answers", type=int, default=500, help="answers of each kind")
    parser.add_argument("--read-runs", type=int, default=3, help="store.reviews() runs per size")
    parser.add_argument(
        "--anki-sizes", type=int, nargs="*", default=[100000], help="sizes timed with Anki too"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the speed report's run: 100k cards, 200 answers of each kind, 1 read",
    )
    parser.add_argument(
        "--record-only",
        action="store_true",
        help="time only the answers, on a store built without migration (one answer per card)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="another quizzer checkout (e.g. main's) whose Store.record is timed interleaved "
        "with this one's: before/after in one run",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="print (to stderr) where the answers' CPU time goes, by function (cProfile), "
        "after show and cold",
    )
    parser.add_argument("--dir", type=Path, default=None, help="build dir (default: temp)")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.answers, args.read_runs = [100000], 200, 1
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)  # a fresh build dir is fine
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in args.sizes:
            row = measure(n, args, Path(tmp))
            print(json.dumps(row), flush=True)
            if n >= 100000:
                emit_figures(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
