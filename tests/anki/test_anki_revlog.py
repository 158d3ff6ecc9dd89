"""Review rows as Anki writes them: type, ease, ivl, lastIvl, factor, time.

Anki's own engine answers a card with FSRS on — learning steps, graduation, a review
days later, a lapse, relearning, Hard and Easy reviews — with the card's history moved
back in time between answers so that days pass (:func:`_age`). A quizzer store answers
the same card the same way at the same moments; the revlog rows its export writes are
compared with Anki's column by column. Only ``ivl`` may differ, and only by Anki's fuzz
(the quizzer store here has fuzz off; its own fuzz draws from its own generator).
"""

from __future__ import annotations

import json
import math
import sqlite3
import zipfile
from datetime import UTC, datetime, timedelta

import pytest
from anki.collection import Collection
from anki.decks import DeckId
from anki.scheduler.v3 import CardAnswer, Scheduler

from quizzer.anki import export_apkg
from quizzer.anki.progress import progress_from_reviews, revlog_factor
from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.settings import SchedulerSettings
from tests.anki_support import db_of, fixture_deck

DAY_S = 86400
RATINGS = {1: CardAnswer.AGAIN, 2: CardAnswer.HARD, 3: CardAnswer.GOOD, 4: CardAnswer.EASY}
COLUMNS = ("id", "ease", "ivl", "lastIvl", "factor", "time", "type")
#: (days since the previous answer, or None: when Anki has it due; grade; thinking time in ms)
PLAN: tuple[tuple[int | None, Grade, int], ...] = (
    (0, 3, 4000),  # new: learning step 1 -> 2
    (0, 3, 75000),  # graduates; 75 s is over Anki's 60 s cap
    (3, 3, 2000),  # review
    (5, 1, 9000),  # lapse -> relearning
    (0, 3, 3000),  # relearning step done
    (4, 2, 5000),  # Hard
    (None, 4, 1000),  # Easy, on the day it is due
)


def _exported_revlog(tmp, deck, reviews) -> list[tuple[int, ...]]:
    """The revlog rows (:data:`COLUMNS`, oldest first) of ``deck`` exported with ``reviews``."""
    out = tmp / "deck.apkg"
    export_apkg([deck], out, progress=progress_from_reviews(reviews), reviews=reviews)
    with zipfile.ZipFile(out) as package:
        (tmp / "col.anki2").write_bytes(package.read("collection.anki2"))
    conn = sqlite3.connect(tmp / "col.anki2")
    try:
        return conn.execute(f"select {', '.join(COLUMNS)} from revlog order by id").fetchall()
    finally:
        conn.close()


def _age(col: Collection, cid: int, days: int) -> None:
    """Move card ``cid``'s whole history ``days`` days into the past (as if days passed)."""
    db_of(col).execute("update revlog set id = id - ? where cid = ?", days * DAY_S * 1000, cid)
    row = db_of(col).first("select queue, due, data from cards where id = ?", cid)
    assert row is not None
    queue, due, raw = row
    if queue in (2, 3):  # day numbers
        due -= days
    elif queue == 1:  # epoch seconds
        due -= days * DAY_S
    data = json.loads(raw) if raw else {}
    if "lrt" in data:
        data["lrt"] -= days * DAY_S
    db_of(col).execute(
        "update cards set due = ?, data = ? where id = ?", due, json.dumps(data), cid
    )


@pytest.fixture(scope="module")
def both_rows(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    """(Anki's revlog rows, quizzer's exported rows) for the same answers, oldest first."""
    tmp = tmp_path_factory.mktemp("revlog")
    col = Collection(str(tmp / "anki.anki2"))
    try:
        col.set_config("fsrs", True)
        basic = col.models.by_name("Basic")
        assert basic is not None and isinstance(col.sched, Scheduler)
        note = col.new_note(basic)
        note["Front"], note["Back"] = "q", "a"
        col.add_note(note, DeckId(1))
        (cid,) = col.find_cards("")
        for gap, grade, ms in PLAN:
            if gap is None:
                gap = col.get_card(cid).ivl  # Anki's interval, fuzz and all
            if gap:
                _age(col, cid, gap)
            card = col.get_card(cid)
            card.start_timer()
            states = col._backend.get_scheduling_states(cid)
            answer = col.sched.build_answer(card=card, states=states, rating=RATINGS[grade])
            answer.milliseconds_taken = ms  # exactly, not the test's own running time
            col.sched.answer_card(answer)
        anki = [
            dict(zip(COLUMNS, row, strict=True))
            for row in db_of(col).all(f"select {', '.join(COLUMNS)} from revlog order by id")
        ]
    finally:
        col.close()
    deck = fixture_deck()
    key = CardKey(deck.concepts[0].uid, Pair("en", "term", "fr", "term"))
    with open_store(tmp / "p.json", tz=UTC) as store:
        store.set_settings(SchedulerSettings(fuzz=False))
        for row, (_gap, grade, ms) in zip(anki, PLAN, strict=True):
            at = datetime.fromtimestamp(row["id"] / 1000, UTC)
            store.record(key, grade, at, Answer(duration_ms=ms))
        reviews = store.reviews()
    ours = [dict(zip(COLUMNS, row, strict=True)) for row in _exported_revlog(tmp, deck, reviews)]
    assert len(anki) == len(ours) == len(PLAN)
    return anki, ours


def _column(rows: list[dict[str, int]], name: str) -> list[int]:
    return [row[name] for row in rows]


@pytest.mark.parametrize("name", ["type", "ease", "factor", "time"])
def test_revlog_column_is_what_anki_writes(both_rows, name) -> None:
    anki, ours = both_rows
    assert _column(ours, name) == _column(anki, name)


def test_revlog_rows_cover_every_kind_of_answer(both_rows) -> None:
    anki, _ours = both_rows
    assert set(_column(anki, "type")) == {0, 1, 2}  # learn, review, relearn
    assert 60000 in _column(anki, "time")  # the cap is exercised
    assert len(set(_column(anki, "factor"))) >= 4


def test_revlog_ivl_is_what_anki_writes_up_to_its_fuzz(both_rows) -> None:
    anki, ours = both_rows
    for mine, theirs in zip(_column(ours, "ivl"), _column(anki, "ivl"), strict=True):
        if mine < 3:  # learning steps (negative seconds) and short intervals: no fuzz
            assert mine == theirs
        else:  # FSRS's fuzz range around the unfuzzed interval
            delta = 1 + 0.15 * (min(mine, 7) - 2.5) + 0.1 * max(min(mine, 20) - 7, 0)
            assert math.floor(mine - delta) <= theirs <= math.ceil(mine + delta), (mine, theirs)
    assert _column(ours, "ivl")[:2] == _column(anki, "ivl")[:2]  # steps, graduation


def test_revlog_last_ivl_is_the_interval_before_the_answer(both_rows) -> None:
    anki, ours = both_rows
    # Anki's rule, learning steps included: the previous row's ivl (0 for a new card)
    for rows in (anki, ours):
        assert _column(rows, "lastIvl") == [0, *_column(rows, "ivl")[:-1]]
    assert _column(ours, "lastIvl")[:3] == _column(anki, "lastIvl")[:3]


def test_revlog_factor_matches_the_rows_anki_writes(tmp_path) -> None:
    col = Collection(str(tmp_path / "c.anki2"))
    try:
        col.set_config("fsrs", True)
        basic = col.models.by_name("Basic")
        assert basic is not None
        for i in range(3):
            note = col.new_note(basic)
            note["Front"], note["Back"] = f"q{i}", "a"
            col.add_note(note, DeckId(1))
        seen = []
        for ease in (3, 1, 4, 2, 3, 3):
            card = col.sched.getCard()
            assert card is not None
            col.sched.answerCard(card, ease)
            card.load()
            factor = db_of(col).scalar(
                "select factor from revlog where cid = ? order by id desc limit 1", card.id
            )
            assert card.memory_state is not None
            seen.append((card.memory_state.difficulty, factor))
    finally:
        col.close()
    assert len({f for _, f in seen}) >= 3  # several difficulties, not one value checked
    for difficulty, factor in seen:
        assert revlog_factor(difficulty) == factor, (difficulty, factor)


def test_exported_review_rows_carry_anki_factors(tmp_path) -> None:
    deck = fixture_deck()
    key = CardKey(deck.concepts[0].uid, Pair("en", "term", "fr", "term"))
    start = datetime(2026, 3, 1, 9, tzinfo=UTC)
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        answers: tuple[tuple[int, Grade], ...] = ((0, 3), (2, 1), (3, 3), (9, 4))
        for day, grade in answers:
            store.record(key, grade, start + timedelta(days=day), Answer(duration_ms=1500))
        reviews = store.reviews()
    factors = [row[COLUMNS.index("factor")] for row in _exported_revlog(tmp_path, deck, reviews)]
    assert factors == [revlog_factor(r.difficulty) for r in reviews if r.difficulty is not None]
    assert all(100 <= f <= 1100 for f in factors)
