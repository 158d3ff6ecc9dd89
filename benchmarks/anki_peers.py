"""Anki's own engine (the ``anki`` package) as the peer of three figures.

Recording an answer: :class:`AnkiAnswering` builds a real Anki collection with ``n`` cards
(Anki's CSV import, one Basic note per card), puts every card in review with an FSRS
memory state and the same history as quizzer's store (10 revlog rows per card), then
answers random cards the way Anki's reviewer does: when it shows a card it loads it
(``col.get_card``) and computes its four next states (the FSRS step); when the learner
presses a grade it builds the answer and ``col.sched.answer_card`` it. What is timed is
from the key (``build_answer``) to ``answer_card``'s return, as quizzer's record after the
card was shown. Anki has no save step any more (``col.save()`` is a deprecated no-op): each
backend operation commits its own SQLite transaction, in WAL mode with ``synchronous=FULL``
(checked at build time), so the WAL is fsynced before
``answer_card`` returns: the moment the answer is on disk, as ``Store.record``'s return is.

Importing a glossary: :data:`IMPORT` is a process creating a collection and importing a
two-column CSV with ``Collection.import_csv``, then closing it.

Statistics: :func:`stats_collection` builds a collection whose revlog holds as many answers
as quizzer's statistics store, spread over the same two years; :data:`STATS` is a process
opening it and computing what Anki's statistics screen shows (every graph, over the whole
history), then closing it.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

DAY_MS = 86_400_000
HISTORY = 10


class AnkiAnswering:
    """A collection of ``n`` reviewed cards in ``directory``; :meth:`once` times one answer."""

    def __init__(self, directory: Path, n: int) -> None:
        from anki.collection import Collection, ImportCsvRequest

        self.directory = directory
        csv = directory / "anki-notes.csv"
        with open(csv, "w", encoding="utf-8") as fh:
            fh.writelines(f"front {i}\tback {i}\n" for i in range(n))
        self.col = Collection(str(directory / "anki-peer.anki2"))
        col = self.col
        metadata = col.get_csv_metadata(str(csv), None)
        imported = col.import_csv(ImportCsvRequest(path=str(csv), metadata=metadata))
        assert len(imported.log.new) == n, len(imported.log.new)
        csv.unlink()
        col.set_config("fsrs", True)
        self.card_ids: list[int] = list(col.find_cards(""))
        today = col.sched.today
        now_ms = int(time.time() * 1000)
        # Every card in review, due today, with a memory state and 10 answers of history.
        col.db.execute(
            "update cards set type = 2, queue = 2, ivl = 20, due = ?, reps = ?, data = ?",
            today,
            HISTORY,
            json.dumps({"s": 20.0, "d": 5.0, "dr": 0.9, "lrt": now_ms // 1000 - 20 * 86400}),
        )
        # One statement, so one commit: row by row, each insert would be a durable commit.
        col.db.execute(
            "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
            " select ? + row_number() over (order by c.id, h.n), c.id, -1, 3, 20, 10, 2500, 3000, 1"
            " from cards c, (with recursive h(n) as (select 1 union all select n + 1 from h"
            " where n < ?) select n from h) h",
            now_ms - HISTORY * 20 * DAY_MS,
            HISTORY,
        )
        assert col.db.scalar("select count() from revlog") == n * HISTORY
        col.db.execute("pragma wal_checkpoint(truncate)")  # the build flushed, as quizzer's is
        # Anki's own connection settings: WAL with synchronous=FULL (2) fsyncs each commit.
        pragmas = (col.db.scalar("pragma journal_mode"), col.db.scalar("pragma synchronous"))
        assert pragmas == ("wal", 2), f"Anki's answers would not be durable: {pragmas}"
        self.times: list[float] = []

    def once(self, rng: random.Random) -> None:
        """Answer one random card (Good mostly, as quizzer's side does): the card loaded and
        its next states computed first, untimed, as the reviewer does when it shows it, then
        timed from the key (``build_answer``) to the durable answer."""
        from anki.scheduler.v3 import CardAnswer

        ratings = (CardAnswer.AGAIN, CardAnswer.GOOD, CardAnswer.GOOD, CardAnswer.GOOD)
        cid = self.card_ids[rng.randrange(len(self.card_ids))]
        rating = rng.choice((*ratings, CardAnswer.EASY))
        col = self.col
        card = col.get_card(cid)
        card.start_timer()
        # The next states of the four grades, as the reviewer asks for them (no public
        # wrapper in Anki's Python layer).
        states = col._backend.get_scheduling_states(cid)
        start = time.perf_counter()
        answer = col.sched.build_answer(card=card, states=states, rating=rating)
        col.sched.answer_card(answer)
        self.times.append(time.perf_counter() - start)

    def close(self) -> list[float]:
        """Close and remove the collection; the answers' times."""
        self.col.close()
        for leftover in self.directory.glob("anki-peer.anki2*"):
            os.unlink(leftover)
        return self.times


#: A process importing the CSV ``argv[1]`` (``argv[2]`` rows) into a new collection.
IMPORT = """
import os, sys, tempfile
from anki.collection import Collection, ImportCsvRequest
col = Collection(os.path.join(tempfile.mkdtemp(), "collection.anki2"))
metadata = col.get_csv_metadata(sys.argv[1], None)
log = col.import_csv(ImportCsvRequest(path=sys.argv[1], metadata=metadata))
col.close()
assert len(log.log.new) == int(sys.argv[2]), len(log.log.new)
"""

#: A process computing Anki's statistics screen over the collection ``argv[1]``'s whole
#: history. Anki's Python layer has no wrapper for it (its screen asks the engine over the
#: web view's bridge), so the engine's ``graphs`` is called directly; days=0 is "deck life".
STATS = """
import sys
from anki.collection import Collection
col = Collection(sys.argv[1])
graphs = col._backend.graphs(search="", days=0)
assert graphs.reviews.count or graphs.card_counts
col.close()
"""


def stats_collection(path: Path, cards: int, per_card: int) -> None:
    """A collection at ``path`` with ``cards`` review cards, each with ``per_card`` answers
    in its revlog spread over the two years before now (12% Again), FSRS on."""
    from anki.collection import Collection, ImportCsvRequest

    csv = path.with_suffix(".csv")
    with open(csv, "w", encoding="utf-8") as fh:
        fh.writelines(f"front {i}\tback {i}\n" for i in range(cards))
    col = Collection(str(path))
    metadata = col.get_csv_metadata(str(csv), None)
    col.import_csv(ImportCsvRequest(path=str(csv), metadata=metadata))
    csv.unlink()
    col.set_config("fsrs", True)
    now_ms = int(time.time() * 1000)
    start = now_ms - 730 * DAY_MS
    col.db.execute(
        "update cards set type = 2, queue = 2, ivl = 20, due = ?, reps = ?, data = ?",
        col.sched.today,
        per_card,
        json.dumps({"s": 20.0, "d": 5.0, "dr": 0.9, "lrt": now_ms // 1000 - 20 * 86400}),
    )
    # One statement, one commit; answer k of the whole history at start + k * step.
    col.db.execute(
        "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
        " select ? + (row_number() over (order by h.n, c.id)) * ?, c.id, -1,"
        " case when abs(c.id * 31 + h.n * 17) % 100 < 12 then 1 else 3 end,"
        " 20, 10, 2500, 4000, 1"
        " from cards c, (with recursive h(n) as (select 1 union all select n + 1 from h"
        " where n < ?) select n from h) h",
        start,
        730 * DAY_MS // (cards * per_card),
        per_card,
    )
    assert col.db.scalar("select count() from revlog") == cards * per_card
    col.close()
