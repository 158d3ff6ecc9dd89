"""kill -9 at random moments never loses an acknowledged answer nor leaves an unreadable store.

A real child process opens the store, records answers in a loop (closing and
reopening now and then, so kills also land in compaction and journal replay)
and prints each review id once :meth:`Store.record` has returned — that is the
acknowledgement. The parent SIGKILLs it at a random moment, then checks that
the store opens and holds every printed review; at most the one being written
when the kill came may be there too, unprinted.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tinydb import TinyDB

from quizzer.core.cards import CardKey, Pair
from quizzer.core.scheduling import CardState
from quizzer.store import open_store

KILLS = 60

CHILD = r"""
import random, sys
from datetime import UTC, datetime, timedelta
from quizzer.core.cards import CardKey, Pair
from quizzer.store import open_store

db, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
pairs = [Pair("ru", "term", "bn", "definition"), Pair("ar", "definition", "en", "term")]
keys = [CardKey(f"crash/c{i}", p) for i in range(40) for p in pairs]
now = datetime(2026, 3, 10, 12, tzinfo=UTC) + timedelta(days=seed)
print("ready", flush=True)
while True:
    store = open_store(db, tz=UTC, rng=rng)
    for _ in range(rng.randrange(3, 40)):
        now += timedelta(seconds=rng.randrange(1, 400))
        review = store.record(rng.choice(keys), rng.choice((1, 2, 3, 4)), now,
                              mode="typed", duration_ms=1500, typed="ответ উত্তর")
        sys.stdout.write(review.id + "\n")
        sys.stdout.flush()
    store.close()
"""


def _old_store(db: Path) -> list[str]:
    """A version-1 (plain TinyDB) store with 4000 cards and 100 reviews; the review ids."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    pair = Pair("en", "term", "fr", "definition")
    keys = [CardKey(f"bulk/c{i}", pair) for i in range(4000)]
    reviews = [
        {
            "id": f"old-{i}",
            "card_id": keys[i].id,
            "reviewed_at": now.isoformat(),
            "grade": 3,
            "mode": "flip",
            "duration_ms": 1000,
        }
        for i in range(100)
    ]
    with TinyDB(db, ensure_ascii=False) as tdb:
        tdb.table("cards").insert_multiple(CardState.new(k, now).to_dict() for k in keys)
        tdb.table("reviews").insert_multiple(reviews)
    return [r["id"] for r in reviews]


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_answer(tmp_path: Path) -> None:
    db = tmp_path / "progress.json"
    rng = random.Random(20261130)
    # Start from a version-1 store with thousands of cards: the first kills can land in its
    # migration, and every compaction rewrites a snapshot big enough to be hit mid-write.
    acknowledged: list[str] = _old_store(db)
    unacknowledged_seen = 0
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for kill in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db), str(kill)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n", child.stderr.read() if child.stderr else ""
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate()
        assert child.returncode == -signal.SIGKILL, err.decode()
        acknowledged += out.decode().split()
        # The next open (writable half the time, read-only otherwise) must succeed.
        with open_store(db, tz=UTC, read_only=kill % 2 == 0) as store:
            ids = [r.id for r in store.reviews()]
            missing = set(acknowledged) - set(ids)
            assert not missing, f"kill {kill}: acknowledged answers lost: {sorted(missing)[:3]}"
            extra = set(ids) - set(acknowledged)
            assert len(extra) <= 1, f"kill {kill}: {len(extra)} unacknowledged answers"
            if extra:
                # The answer being written when the kill came: keep it as acknowledged now.
                unacknowledged_seen += 1
                acknowledged += sorted(extra)
            # Card states agree with the log: one rep per logged answer.
            per_card: dict[str, int] = {}
            for r in store.reviews():
                if r.card_id.startswith("crash/"):
                    per_card[r.card_id] = per_card.get(r.card_id, 0) + 1
            for card_id, count in per_card.items():
                state = store.card(CardKey.parse(card_id))
                assert state is not None and state.reps == count, card_id
    assert len(acknowledged) > 100 + KILLS  # the children really did record between kills
    with open_store(db, tz=UTC, read_only=True) as store:
        assert len(store) >= 4000  # the migrated cards are all still there
    # Some kills must have landed mid-answer or the test would not test the torn write.
    print(f"{len(acknowledged)} answers, {unacknowledged_seen} written but unacknowledged")
