"""The statistics cache's two reasons the journal past it can't be folded in.

A reader beside a writer folds the journal's events after the cache's end into the cached
tally (:func:`aggregates.current`). Two things stop it, each with its own reason, the text
``doctor --check``'s note shows: an undo of an answer the cache doesn't know, and a journal
line damaged with good data after it. Either way the figures are counted from the log.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from quizzer.progress import aggregates
from quizzer.progress.figurecache import figures_path
from quizzer.progress.files import journal_path
from tests.progress.test_stats_cache import _filled, _open, _same, _status
from tests.progress.test_stats_cache_tie import _planted


def test_an_undo_of_an_answer_the_cache_doesnt_know_makes_it_out_of_date(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=41)
    with _open(db) as store:
        _same(store, now)  # the writer's tally, written at close with its undo stack
        store.record(next(store.cards()).card_id, 4, now + timedelta(minutes=1))
    figures_path(db).unlink()
    doc = aggregates.read(db)[0]
    assert doc is not None and len(doc["undoable"]) == 1
    _planted(db, {"tie": doc["tie"], "undoable": {}, "tally": doc["tally"].to_data()})
    assert _status(db) == "ok"  # the same tally and tie: usable until the undo
    with _open(db) as writer:
        assert writer.undo() is not None  # the answer in its month file, unknown to the cache
        assert _status(db) == "out of date (an undo of an answer it doesn't know)"
        with _open(db, read_only=True) as reader:
            _same(reader, now + timedelta(hours=1))  # counted from the log, undo and all


def test_a_damaged_journal_line_past_the_cache_makes_it_out_of_date_and_says_where(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=42)
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    figures_path(db).unlink()
    jpath = journal_path(db)
    with _open(db) as writer:
        cards = [c.card_id for c in writer.cards()][:2]
        start = jpath.stat().st_size
        writer.record(cards[0], 3, now + timedelta(minutes=1))
        writer.record(cards[1], 2, now + timedelta(minutes=2))
        assert _status(db) == "ok"  # both answers folded in
        good = jpath.read_bytes()
        line = good[:start].count(b"\n") + 1  # the first answer's line, good data after it
        bad = good[: start + 20] + bytes([good[start + 20] ^ 1]) + good[start + 21 :]
        jpath.write_bytes(bad)
        try:
            assert _status(db) == (
                f"out of date (the journal can't be read: {jpath}: journal line {line} "
                f"(byte {start}) is damaged)"
            )
        finally:
            jpath.write_bytes(good)  # the writer's journal as it wrote it, for its close
