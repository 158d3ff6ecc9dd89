"""Reading the review log: busy and damaged files told apart, the newest log read."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress import history, journal, monthfile, reviewlog
from quizzer.progress.files import journal_path
from tests.progress.store_builder import LATER, build, card, open_db


def _damage_second_line(db: Path) -> None:
    """Flip a byte inside the journal's second line (an answer), leaving later lines intact."""
    jfile = journal_path(db)
    data = bytearray(jfile.read_bytes())
    start = data.index(b"\n") + 1
    data[start + 20] ^= 0x01
    jfile.write_bytes(bytes(data))


def test_the_review_log_view_refuses_writes(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        table = store.reviews_db().table("reviews")
        assert len(table) == 38
        with pytest.raises(StoreError) as refused:
            table.insert({"id": "x"})
    assert refused.value.message == "the review log view is read-only; use Store.record/undo"


def test_a_damaged_journal_is_reported_as_damage_not_as_a_busy_store(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
    _damage_second_line(db)
    with pytest.raises(StoreError) as damaged:
        history.read_log(db, gen, months)
    assert damaged.value.message == "the journal is damaged at line 2"
    assert damaged.value.line == 2


def test_a_read_whose_files_change_every_time_reports_a_busy_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
    _damage_second_line(db)
    # A compaction replacing the journal between every look (each read then fails on the
    # damaged line): the reader gives up saying the store was busy, not damaged.
    changes = itertools.count()
    monkeypatch.setattr(history, "files_signature", lambda path: (None, next(changes)))
    with pytest.raises(StoreError) as busy:
        history.read_log(db, gen, months)
    assert busy.value.message.startswith("the progress store kept changing while it was read")


def test_a_reader_whose_snapshot_is_two_compactions_old_reads_the_newest_log(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    ids = build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
    for hours in (1, 2):  # two sessions, each compacting September's file again
        with open_db(db) as store:
            ids.append(store.record(card(7), 3, LATER + timedelta(hours=hours)).id)
    # The September file is now two generations past the manifest this reader holds: it
    # vouches by the snapshot on disk instead.
    log = history.read_log(db, gen, months)
    assert sorted(log) == sorted(ids)


def test_reading_one_cards_answers_takes_the_journals_too(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
        wanted = [r.id for r in store.reviews(card(1))]
    assert len(wanted) == 3  # July, August and one still in the journal
    log = history.read_log(db, gen, months, cards=lambda card_id: card_id == card(1).id)
    assert list(log) == wanted


def test_a_journal_answer_with_a_bad_value_names_the_journal_and_the_cure(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
        answer = store.reviews(card(1))[-1].to_dict()
    jfile = journal_path(db)
    bad = dict(answer, id="1789894800000-0badbad0", reviewed_at="garbage")  # checksummed
    jfile.write_bytes(jfile.read_bytes() + journal.encode({"op": "review", "review": bad}))
    with pytest.raises(StoreError) as damaged:
        history.read_log(db, gen, months)
    assert damaged.value.message == (
        'the journal is damaged (journal event "review" for answer 1789894800000-0badbad0 of '
        f'card {bad["card_id"]} is invalid: in its answer, reviewed_at is not a time: "garbage")'
    )
    assert damaged.value.hint == f"run `quizzer doctor --db {db}`"
    assert damaged.value.path == jfile


def test_a_reader_two_compactions_behind_vouches_by_the_newer_manifest(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    ids = build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
    for hours in (1, 2):
        with open_db(db) as store:
            ids.append(store.record(card(7), 3, LATER + timedelta(hours=hours)).id)
    # September's file replaced by a sound file of the same generation holding one answer
    # less: only the snapshot's manifest tells it is short, and then the mirror stands in.
    file = reviewlog.month_path(db, "2026-09")
    copy = monthfile.read_copy(file, "2026-09")
    assert copy.gen is not None
    short = tmp_path / "short" / "2026-09.json"
    reviewlog.write_month(short, copy.reviews[:-1], copy.gen)
    file.write_bytes(short.read_bytes())
    assert sorted(history.read_log(db, gen, months)) == sorted(ids)


def test_a_newer_snapshot_with_a_damaged_manifest_vouches_for_nothing(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
    for hours in (1, 2):
        with open_db(db) as store:
            store.record(card(7), 3, LATER + timedelta(hours=hours))
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["meta"]["1"]["months"] = "garbage"
    db.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(StoreError) as refused:  # not an AttributeError from the manifest
        history.read_log(db, gen, months)
    assert "2026-09.json" in str(refused.value.path)


def test_a_journal_laid_over_its_months_replaces_in_place_and_takes_back(tmp_path: Path) -> None:
    """A compaction cut short after writing its months leaves their answers in the journal
    too: read once each, in the month's place; the journal's undo of a month's answer wins."""
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        gen, months = store.state.gen, store.state.months
        before = store.reviews()
    first, second = before[0], before[1]
    jfile = journal_path(db)
    again = {"op": "review", "review": dict(first.to_dict(), grade=1)}
    undo = {"op": "undo", "review_id": second.id, "card_id": second.card_id, "restore": None}
    jfile.write_bytes(jfile.read_bytes() + journal.encode(again) + journal.encode(undo))
    log = history.read_log(db, gen, months)
    assert list(log) == [r.id for r in before if r.id != second.id]
    assert log.values()[0].grade == 1 and first.id in log and second.id not in log


def test_the_loaded_log_adds_replaces_and_takes_back_as_a_table_by_id(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    build(db)
    with open_db(db, read_only=True) as store:
        log = history.read_log(db, store.state.gen, store.state.months)
    reviews = list(log.values())
    first, last = reviews[0], reviews[-1]
    log[first.id] = replace(first, grade=4)  # the same id: in its place
    assert len(log) == len(reviews) and log.values()[0].grade == 4
    assert log.pop(last.id) == last and last.id not in log and log.pop(last.id) is None
    log[last.id] = last  # a new one (again): last
    assert log.values()[-1] == last and len(log) == len(reviews)
    assert log.pop(first.id, last) != last and first.id not in log
    earlier = replace(last, id="early", reviewed_at=first.reviewed_at - timedelta(days=1))
    log["early"] = earlier
    log.sort()
    assert log.values()[0] == earlier and list(log)[1:] == [r.id for r in reviews[1:]]
