"""kill -9 at random moments never loses an acknowledged answer nor leaves an unreadable store.

A real child process opens the store as a device, records (and now and then undoes)
answers in a loop, closing and reopening every few answers. Every child starts a month
after the one before, so most opens seal the device's older months (their log rewritten
into a TinyDB file, then removed): a third of the kills are aimed just after an open
begins, a sixth just after an answer starts being written, the rest land anywhere. The
child prints each review id once :meth:`Store.record` has returned — that is the
acknowledgement. The parent SIGKILLs it, then checks that the store opens and holds
every printed review; at most the one being written when the kill came may be there
too, unprinted. The first child opens a store of the old one-file format: the first
kills can land in its migration.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from tinydb import TinyDB

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.scheduling.card_state import CardState

KILLS = 200
#: The first child's first answers; child ``k`` starts ``k`` months later.
START = datetime(2026, 3, 10, 12, tzinfo=UTC)

# Protocol on stdout: "O" an open starting, "o" it done; "r" an answer about to be recorded,
# "+ id" it acknowledged (record() returned); "?" an undo about to start, "- id" that undo
# done; "C" a close starting, "c" it done.
CHILD = r"""
import random, sys, time
from datetime import UTC, datetime, timedelta
from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer

db, seed, start = sys.argv[1], int(sys.argv[2]), datetime.fromisoformat(sys.argv[3])
rng = random.Random(seed)
pairs = [Pair("ru", "term", "bn", "definition"), Pair("ar", "definition", "en", "term")]
keys = [CardKey(f"crash/c{i}", p) for i in range(40) for p in pairs]
now = start + timedelta(days=31 * seed)
out = sys.stdout
out.write("ready\n"); out.flush()
while True:
    out.write("O\n"); out.flush()
    t = time.perf_counter()
    store = open_store(db, tz=UTC, now=now)
    out.write(f"o {time.perf_counter() - t:.4f}\n"); out.flush()
    for _ in range(rng.randrange(2, 12)):
        if store.undo_depth and rng.random() < 0.15:
            out.write("?\n"); out.flush()
            out.write(f"- {store.undo().id}\n"); out.flush()
            continue
        now += timedelta(hours=rng.randrange(1, 60))
        out.write("r\n"); out.flush()
        review = store.record(rng.choice(keys), rng.choice((1, 2, 3, 4)), now,
                              Answer(mode="typed", duration_ms=1500, typed="ответ উত্তর"))
        out.write(f"+ {review.id}\n"); out.flush()
    out.write("C\n"); out.flush()
    store.close()
    out.write("c\n"); out.flush()
"""


def _old_store(db: Path) -> list[str]:
    """A version-1 (plain TinyDB) store file with 4000 cards and 100 reviews; the review ids."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    pair = Pair("en", "term", "fr", "definition")
    keys = [CardKey(f"bulk/c{i}", pair) for i in range(4000)]
    reviews: list[dict[str, Any]] = [
        {
            "id": f"old-{i}",
            "card_id": keys[i].id,
            "reviewed_at": (now + timedelta(minutes=i)).isoformat(),
            "grade": 3,
            "mode": "flip",
            "duration_ms": 1000,
        }
        for i in range(100)
    ]
    with TinyDB(db, ensure_ascii=False) as tdb:
        tdb.table("cards").insert_multiple(CardState.new(k, now).to_dict() for k in keys)
        tdb.table("reviews").insert_multiple(reviews)
    return [str(r["id"]) for r in reviews]


def _run_child(db: Path, seed: int, aim: str, open_s: float, rng: random.Random) -> list[str]:
    """Start a child, SIGKILL it; its output lines.

    ``aim`` is ``"open"`` (soon after an open starts: sealing months, reading the logs),
    ``"record"`` (just after an answer starts being written: the line or its fdatasync) or
    ``""`` (anywhere).
    """
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(seed), START.isoformat()],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    assert child.stdout is not None
    assert child.stdout.readline() == b"ready\n", child.stderr.read() if child.stderr else ""
    lines: list[str] = []
    if aim:
        marker = "O" if aim == "open" else "r"
        while not lines or lines[-1] != marker:
            line = child.stdout.readline()
            assert line, child.stderr.read() if child.stderr else ""
            lines.append(line.decode().strip())
        time.sleep(rng.uniform(0.0, open_s if aim == "open" else 0.002))
    else:
        time.sleep(rng.uniform(0.0, 0.25))
    child.send_signal(signal.SIGKILL)
    child.wait()
    # The rest is read through the buffered reader readline used (communicate() would read
    # the descriptor directly and lose the lines readline had already buffered).
    out, err = child.stdout.read(), child.stderr.read() if child.stderr else b""
    child.stdout.close()
    if child.stderr:
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL, err.decode()
    lines += out.decode().splitlines()
    _check_protocol(lines)
    return lines


#: Each of these lines is followed by its partner, unless the kill came in between.
_PARTNER = {"O": "o", "r": "+", "?": "-", "C": "c"}


def _check_protocol(lines: list[str]) -> None:
    """The child's output is complete: no acknowledgement (nor undo, nor close) went unread."""
    tags = [line.partition(" ")[0] for line in lines]
    for i, (tag, after) in enumerate(itertools.pairwise(tags)):
        assert tag not in _PARTNER or after == _PARTNER[tag], f"line {i}: {lines[i : i + 2]}"


def _doctor_check(db: Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["doctor", "--check", "--db", str(db)])
    return code, out.getvalue()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_answer(tmp_path: Path) -> None:
    db = tmp_path / "progress"
    rng = random.Random(20261205)
    acknowledged: list[str] = _old_store(db)
    unacknowledged_seen = undos = in_open = mid_answer = 0
    open_times: list[float] = [0.05]
    for kill in range(KILLS):
        aim = "open" if kill % 3 == 0 else ("record" if kill % 6 == 1 else "")
        median = sorted(open_times)[len(open_times) // 2]
        lines = _run_child(db, kill, aim, median, rng)
        pending_undo: str | None = None
        mid_answer += bool(lines) and lines[-1] == "r"
        in_open += bool(lines) and lines[-1] == "O"
        for line in lines:
            tag, _, arg = line.partition(" ")
            if tag == "o":
                open_times.append(float(arg))
            elif tag == "+":
                acknowledged.append(arg)
            elif tag == "?":
                pending_undo = acknowledged[-1]
            elif tag == "-":
                # The undo took back the latest answer still standing, across reopens too.
                assert arg == pending_undo, f"kill {kill}: undid {arg}, expected {pending_undo}"
                acknowledged.pop()
                pending_undo = None
                undos += 1
        with open_store(db, tz=UTC, read_only=kill % 2 == 1) as store:
            log = store.reviews()
            ids = [r.id for r in log]
            assert len(ids) == len(set(ids)), f"kill {kill}: an answer is logged twice"
            missing = set(acknowledged) - set(ids)
            if pending_undo is not None and pending_undo in missing:
                # Killed inside undo() after its line was written: it counts.
                acknowledged.remove(pending_undo)
                missing.discard(pending_undo)
            assert not missing, f"kill {kill}: acknowledged answers lost: {sorted(missing)[:3]}"
            extra = set(ids) - set(acknowledged)
            assert len(extra) <= 1, f"kill {kill}: {len(extra)} unacknowledged answers"
            if extra:
                unacknowledged_seen += 1
                acknowledged += sorted(extra)
            assert [r.reviewed_at for r in log] == sorted(r.reviewed_at for r in log)
            # Card states agree with the log: one rep per logged answer.
            per_card: dict[str, int] = {}
            for r in log:
                if r.card_id.startswith("crash/"):
                    per_card[r.card_id] = per_card.get(r.card_id, 0) + 1
            for card_id, count in per_card.items():
                state = store.card(CardKey.parse(card_id))
                assert state is not None and state.reps == count, card_id
        if kill % 25 == 24:
            code, said = _doctor_check(db)
            assert code == 0, f"kill {kill}: doctor --check: {said}"
    assert len(acknowledged) > 100 + KILLS  # the children really did record between kills
    assert undos > 0
    with open_store(db, tz=UTC, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(acknowledged)
    code, said = _doctor_check(db)
    assert code == 0, said
    sealed = [p for p in db.glob("devices/*/*.json") if p.name != "device.json"]
    assert len(sealed) > 12, "the log really spans many sealed months"
    assert in_open >= 20, f"only {in_open} kills landed inside an open"
    assert mid_answer >= 1, "no kill landed inside Store.record"
    print(
        f"{len(acknowledged)} answers, {mid_answer} kills inside record(), {in_open} inside "
        f"an open, {unacknowledged_seen} written but unacknowledged, {undos} undone, "
        f"{len(sealed)} sealed months"
    )
