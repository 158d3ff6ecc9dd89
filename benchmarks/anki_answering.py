"""The peer of recording an answer: Anki's own engine answering a card, FSRS on, durably.

:class:`AnkiAnswering` builds a real Anki collection with ``n`` cards (Anki's CSV
import, one Basic note per card), puts every card in review with an FSRS memory
state and gives it the same history as quizzer's store (10 revlog rows per card),
then answers random cards the way Anki's reviewer does: when it shows a card it loads
it (``col.get_card``) and computes its four next states (the FSRS step,
``get_scheduling_states``); when the learner presses a grade it builds the answer and
``col.sched.answer_card`` it.

Durability: Anki has no save step any more (``col.save()``/``autosave()`` are
deprecated no-ops, "saving is automatic"): each backend operation commits its own
SQLite transaction, and the collection runs in WAL mode with ``synchronous=FULL``
(checked at build time, :attr:`pragmas`), so the WAL is fsynced before
``answer_card`` returns. That return is the moment an answer is on disk, as
``Store.record``'s return is for quizzer.

What is timed (:meth:`AnkiAnswering.once`): with ``shown`` (what a learner waits for,
the peer of quizzer's record after ``Store.preview``), from the key (``build_answer``)
to ``answer_card``'s return, the card loaded and its next states computed beforehand,
untimed, as the reviewer does when it shows the card; without (``cold``, the peer of a
``Store.record`` with no preview), from ``get_card`` to ``answer_card``'s return.
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
        #: Anki's own connection settings: ("wal", 2) means each commit fsyncs the WAL.
        self.pragmas = (col.db.scalar("pragma journal_mode"), col.db.scalar("pragma synchronous"))
        self.times: list[float] = []
        self.cold_times: list[float] = []

    def once(self, rng: random.Random, *, shown: bool) -> None:
        """Answer one random card (Good mostly, as quizzer's side does), timed: from the key
        to the durable answer when ``shown`` (the card shown first, untimed), else from
        loading the card (into :attr:`cold_times`)."""
        from anki.scheduler.v3 import CardAnswer

        ratings = (CardAnswer.AGAIN, CardAnswer.GOOD, CardAnswer.GOOD, CardAnswer.GOOD)
        cid = self.card_ids[rng.randrange(len(self.card_ids))]
        rating = rng.choice((*ratings, CardAnswer.EASY))
        col = self.col
        t = time.perf_counter()
        card = col.get_card(cid)
        card.start_timer()
        states = col._backend.get_scheduling_states(cid)
        if shown:
            t = time.perf_counter()  # the card is on screen: the learner presses a grade
        answer = col.sched.build_answer(card=card, states=states, rating=rating)
        col.sched.answer_card(answer)
        (self.times if shown else self.cold_times).append(time.perf_counter() - t)

    def close(self) -> tuple[list[float], list[float]]:
        """Close the collection; the answer times after show and cold, sorted."""
        self.col.close()
        for leftover in self.directory.glob("anki-peer.anki2*"):
            os.unlink(leftover)
        return sorted(self.times), sorted(self.cold_times)
