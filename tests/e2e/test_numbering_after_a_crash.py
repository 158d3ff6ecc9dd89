"""A crash's leftovers never make a device number two events alike.

A kill between creating a month's log and writing its first line leaves an empty log; the
next open seals it into an empty month. The device must go on numbering its events past
the last one it ever wrote (not restart from what the newest month holds): an event id
used twice would make the union drop the later answer as a repeat. Checked with the
cache kept and with every cache deleted.
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store

PAIR = Pair("ru", "term", "bn", "definition")
CARDS = [CardKey(f"crash/c{i}", PAIR) for i in range(8)]
JANUARY = datetime(2026, 1, 5, 9, tzinfo=UTC)


@pytest.mark.parametrize("cache", ["kept", "deleted"])
def test_an_empty_month_left_by_a_crash_does_not_restart_the_numbering(
    tmp_path: Path, cache: str
) -> None:
    db = tmp_path / "progress"
    ids: list[str] = []
    # Two sessions in two months: the newest month holds fewer events than the device wrote.
    for month, cards in ((JANUARY, CARDS[:3]), (JANUARY + timedelta(days=31), CARDS[3:5])):
        with open_store(db, tz=UTC) as store:
            for i, card in enumerate(cards):
                ids.append(store.record(card, 3, month + timedelta(minutes=i)).id)
    (folder,) = (db / "devices").iterdir()
    # What a kill right after the next month's log was created leaves.
    (folder / "2026-03.log").touch()
    for i, card in enumerate(CARDS[5:]):
        if cache == "deleted":
            shutil.rmtree(os.environ["QUIZZER_CACHE"], ignore_errors=True)
        # An open that answers nothing (the learner looked and quit), then one that answers.
        with open_store(db, tz=UTC) as store:
            pass
        with open_store(db, tz=UTC) as store:
            ids.append(store.record(card, 4, JANUARY + timedelta(days=70 + i)).id)
    assert len(set(ids)) == len(ids) == 8, ids
    with open_store(db, tz=UTC, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
