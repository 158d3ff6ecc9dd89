"""`quizzer merge` of a progress store copied from another machine; a merge is all or nothing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import merging, open_store
from quizzer.scheduling.answer import Answer, review_id
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.review import Review
from quizzer.services.merge import merge_file, replay

T0 = datetime(2026, 3, 2, 8, tzinfo=UTC)
PAIR = Pair("ru", "term", "bn", "definition")


def _key(i: int) -> CardKey:
    return CardKey(f"demo/c{i}", PAIR)


def _answer(db: Path, plan: list[tuple[int, float, Grade]]) -> None:
    """Record (card, days after T0, grade) answers in the store at ``db``."""
    with open_store(db, tz=UTC) as store:
        for card, days, grade in plan:
            store.record(_key(card), grade, T0 + timedelta(days=days), Answer(duration_ms=900))


def _copy(db: Path, to: Path) -> Path:
    to.mkdir()
    for file in db.parent.iterdir():
        if file.name.startswith(db.name) and not file.name.endswith(".lock"):
            target = to / file.name
            (shutil.copytree if file.is_dir() else shutil.copy2)(file, target)
    return to / db.name


def _picture(db: Path) -> tuple[list[str], dict[str, dict[str, Any]]]:
    with open_store(db, read_only=True, tz=UTC) as store:
        ids = [r.id for r in store.reviews()]
        states = {c.card_id: c.to_dict() for c in store.cards()}
    return ids, states


@pytest.fixture
def two_machines(tmp_path):
    """A store, a copy of it on a second machine, then answers on both sides."""
    home = tmp_path / "home" / "progress.json"
    home.parent.mkdir()
    _answer(home, [(c, d, 3) for c in range(4) for d in (0, 1, 3)])
    laptop = _copy(home, tmp_path / "laptop")
    _answer(home, [(0, 7, 3), (1, 7, 1), (4, 7, 3), (1, 7.1, 3)])  # 4: only here
    _answer(laptop, [(1, 6, 3), (2, 8, 4), (5, 8, 3), (5, 8.01, 3)])  # 5: only there
    return home, laptop


def test_store_merge_gives_the_union_the_same_both_ways(two_machines, tmp_path):
    home, laptop = two_machines
    home_ids, _ = _picture(home)
    laptop_ids, _ = _picture(laptop)
    a = _copy(home, tmp_path / "a")
    b = _copy(laptop, tmp_path / "b")
    report = merge_file(laptop, a)
    assert report.total == 4 and report.known == 12  # the 12 answers from before the copy
    assert merge_file(home, b).total == 4
    ids_a, states_a = _picture(a)
    ids_b, states_b = _picture(b)
    assert len(ids_a) == len(set(ids_a)) == len(set(home_ids) | set(laptop_ids)) == 20
    assert sorted(ids_a) == sorted(ids_b)
    assert states_a == states_b
    for merged in (a, b):  # every card state is what its log replays to
        assert main(["doctor", "--check", "--db", str(merged)]) == 0
    # Card 1 was answered on both sides: its state is the replay of the whole union.
    with open_store(a, read_only=True, tz=UTC) as store:
        union = store.reviews(_key(1))
        expected, _ = replay(_key(1).id, union, store.settings, store.tz)
        assert [r.reviewed_at for r in union] == sorted(r.reviewed_at for r in union)
    assert states_a[_key(1).id] == expected.to_dict()
    # Again, either way: nothing more.
    assert merge_file(laptop, a).total == 0
    assert merge_file(b, a).total == 0
    assert _picture(a) == (ids_a, states_a)


def test_undo_never_takes_back_an_answer_under_a_merge(two_machines):
    home, laptop = two_machines
    merge_file(laptop, home)
    replayed = {_key(i).id for i in (0, 1, 2, 4, 5)}  # answered on either side since the copy
    with open_store(home, tz=UTC) as store:
        before = {c.card_id: c.to_dict() for c in store.cards() if c.card_id in replayed}
        taken = store.undo()
        # The latest answers (cards 1 and 4, day 7) are under the merge, gone from the undo
        # stack: undo takes back the latest answer on a card the merge left alone.
        assert taken is not None and taken.card_id == _key(3).id
        assert {c.card_id: c.to_dict() for c in store.cards() if c.card_id in replayed} == before


def test_suspensions_come_across(two_machines, tmp_path):
    home, laptop = two_machines
    with open_store(laptop, tz=UTC) as store:
        store.set_suspended(_key(3), True, T0 + timedelta(days=9))
    report = merge_file(laptop, home)
    assert report.suspended == 1
    with open_store(home, read_only=True, tz=UTC) as store:
        state = store.card(_key(3))
        assert state is not None and state.suspended


def test_merging_a_store_into_itself_or_a_foreign_file_is_refused(two_machines, tmp_path, capsys):
    home, _ = two_machines
    before = _picture(home)
    assert main(["merge", str(home), "--db", str(home)]) == 2
    assert "the store being merged into" in capsys.readouterr().err
    other = tmp_path / "notes.json"
    other.write_text('{"shopping": ["milk"]}')
    assert main(["merge", str(other), "--db", str(home)]) == 2
    err = capsys.readouterr().err
    assert "neither an Anki package nor a quizzer progress store" in err
    assert "Traceback" not in err
    assert main(["merge", str(tmp_path / "missing.json"), "--db", str(home)]) == 2
    assert other.read_text() == '{"shopping": ["milk"]}'
    assert _picture(home) == before


def test_a_merge_that_fails_midway_leaves_the_store_as_it_was(two_machines, monkeypatch):
    home, laptop = two_machines
    before = _picture(home)

    def full_disk(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(merging, "atomic_write_bytes", full_disk)
    assert main(["merge", str(laptop), "--db", str(home)]) == 3
    monkeypatch.undo()
    assert _picture(home) == before
    assert merge_file(laptop, home).total == 4  # and the store still takes the merge


_BIG_MERGE = """
import sys
from datetime import UTC
from quizzer.services.merge import merge_file
merge_file(sys.argv[1], sys.argv[2])
print("done", flush=True)
"""


def _big_store(db: Path, cards: int, answers: int) -> int:
    """A store of ``cards`` × ``answers`` answers, written as one batch (fast to build)."""
    with open_store(db, tz=UTC) as store:
        reviews, states = [], []
        for card in range(cards):
            card_id = _key(card).id
            raw = []
            for n in range(answers):
                at = T0 + timedelta(hours=n * 5, seconds=card)
                raw.append(Review(review_id(card_id, at), card_id, at, 3, "flip", 800))
            state, replayed = replay(card_id, raw, store.settings, store.tz)
            reviews += replayed
            states.append(state)
        store.merge_batch(reviews, states)
    return cards * answers


def test_killed_midway_the_store_holds_all_of_the_merge_or_none(tmp_path):
    home = tmp_path / "home" / "progress.json"
    home.parent.mkdir()
    _answer(home, [(0, 0, 3)])
    source = tmp_path / "src" / "progress.json"
    source.parent.mkdir()
    total = _big_store(source, 50, 40) + 1
    base = _copy(home, tmp_path / "base")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    outcomes = set()
    for i, delay in enumerate((0.3, 0.8, 1.4)):
        target = _copy(base, tmp_path / f"t{i}")
        proc = subprocess.Popen(
            [sys.executable, "-c", _BIG_MERGE, str(source), str(target)],
            env=env,
            stdout=subprocess.PIPE,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        ids, _ = _picture(target)
        assert len(ids) in (1, total), (delay, len(ids))
        outcomes.add(len(ids))
        # Whatever was left, merging again completes it, never doubling an answer.
        merge_file(source, target)
        ids, _ = _picture(target)
        assert len(ids) == len(set(ids)) == total
    assert outcomes  # (which of the two each kill gave depends on the machine's speed)
