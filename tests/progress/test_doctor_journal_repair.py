"""The doctor repairs a damaged journal: what is lost is named, nothing else is lost."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.errors import StoreError
from quizzer.progress import doctor, files, journal, open_store
from quizzer.progress.doctor_findings import Report

START = datetime(2026, 3, 2, 8, tzinfo=UTC)
KEYS = [CardKey(f"deck/c{i}", Pair("en", "term", "fr", "term")) for i in range(3)]


def _answered(db: Path) -> None:
    with open_store(db, tz=UTC) as store:
        for n, key in enumerate(KEYS):
            store.record(key, 3, START + timedelta(minutes=n))


def _drop_state(db: Path, key: CardKey) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["cards"] = {k: r for k, r in doc["cards"].items() if r["card_id"] != key.id}
    db.write_text(json.dumps(doc), encoding="utf-8")


def test_the_ok_line_after_a_rebuild_counts_the_cards_the_rebuild_brought_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.json"
    _answered(db)
    _drop_state(db, KEYS[1])  # its answers are still in the review log
    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "repaired: rebuilt 1 of 3 card states from their review log" in out
    assert out.splitlines()[-1] == f"{db}: ok (3 cards)"
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    assert f"{db}: ok (3 cards)" in capsys.readouterr().out


# Each repair alone, with its exact actions and losses (the doctor's other tests check that
# damage is repaired, mostly by a word of the message).


def _kept(db: Path, prefix: str) -> Path:
    (kept,) = db.parent.glob(prefix + ".damaged-*")
    return kept


def _repair(db: Path) -> Report:
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert doctor.check(db).healthy
    return report


def _lines(db: Path) -> list[bytes]:
    return files.journal_path(db).read_bytes().split(b"\n")


def test_damaged_journal_lines_are_dropped_and_named_as_lost(db: Path) -> None:
    jpath = files.journal_path(db)
    lines = _lines(db)
    lines[1], lines[2] = b"x" + lines[1], b"y" + lines[2]
    damaged = b"\n".join(lines)
    jpath.write_bytes(damaged)
    report = _repair(db)
    kept = _kept(db, "p.json.journal")
    assert kept.read_bytes() == damaged
    assert report.actions[:2] == [
        f"kept the damaged journal as {kept.name}; removed 2 bad line(s), kept 2 that verify",
        "rebuilt 4 card states from the store and 2 journal events",
    ]
    assert report.losses == [
        "p.json.journal: line(s) 2, 3 failed their checksum or can't be replayed; the answers "
        f"on them are lost (their bytes are kept in {kept.name})"
    ]
    assert report.cards == 4


def test_a_damaged_header_is_replaced_and_loses_nothing(db: Path) -> None:
    lines = _lines(db)
    lines[0] = b"x" + lines[0]
    files.journal_path(db).write_bytes(b"\n".join(lines))
    report = _repair(db)
    kept = _kept(db, "p.json.journal")
    assert report.losses == []
    assert report.actions[:2] == [
        f"kept the damaged journal as {kept.name}; removed 1 bad line(s), kept 4 that verify",
        "rebuilt 4 card states from the store and 4 journal events",  # a new header and 3
    ]


def test_a_damaged_first_line_longer_than_a_header_may_have_held_answers(db: Path) -> None:
    lines = _lines(db)
    lines[0] = b'x "op" ' + b"x" * 60  # looks like a line of ours, longer than any header
    files.journal_path(db).write_bytes(b"\n".join(lines))
    report = _repair(db)
    kept = _kept(db, "p.json.journal")
    assert report.losses == [
        "p.json.journal: line(s) 1 failed their checksum or can't be replayed; the answers "
        f"on them are lost (their bytes are kept in {kept.name})"
    ]


def test_more_than_ten_lost_lines_name_the_first_ten(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        store.record(KEYS[0], 3, START)
    head = journal.encode(journal.header_event(journal.header(files.journal_path(db)) or 0))
    files.journal_path(db).write_bytes(head + b"".join(b"bad %d\n" % i for i in range(12)))
    report = _repair(db)
    kept = _kept(db, "p.json.journal")
    assert report.losses == [
        "p.json.journal: line(s) 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 failed their checksum or "
        f"can't be replayed; the answers on them are lost (their bytes are kept in {kept.name})"
    ]


def test_an_unacknowledged_line_cut_short_is_kept_aside_and_the_journal_ends_before_it(
    db: Path,
) -> None:
    jpath = files.journal_path(db)
    whole = jpath.read_bytes()
    jpath.write_bytes(whole + b'1234abcd {"op":"rec')
    report = _repair(db)
    assert (
        report.actions[0] == "dropped the cut-short last journal line (kept in p.json.journal.torn)"
    )
    assert report.losses == []
    assert jpath.with_name("p.json.journal.torn").read_bytes() == b'1234abcd {"op":"rec\n'


def test_saved_lines_gone_are_a_loss_with_their_byte_count(db: Path) -> None:
    jpath = files.journal_path(db)
    size = jpath.stat().st_size
    kept = len(b"\n".join(_lines(db)[:3])) + 1
    jpath.write_bytes(jpath.read_bytes()[:-300])
    report = _repair(db)
    assert report.actions[:2] == [
        "dropped the cut-short last journal line (kept in p.json.journal.torn)",
        "rebuilt 3 card states from the store and 3 journal events",
    ]
    assert report.losses == [
        f"p.json.journal: {size - kept} bytes of saved journal lines are gone; the answers on "
        "them are lost"
    ]


def test_a_missing_journal_is_started_anew_in_the_snapshots_generation(db: Path) -> None:
    jpath = files.journal_path(db)
    gen = journal.header(jpath)
    jpath.unlink()
    report = _repair(db)
    assert report.actions[:2] == [
        "started a new journal",
        "rebuilt 3 card states from the store and 1 journal events",
    ]
    assert report.losses == [
        f"p.json.journal: the journal is missing (the snapshot has absorbed generation {gen}; "
        "answers given since its last compaction, if any, are gone: how many can't be told, "
        "only the journal held them)"
    ]
    assert journal.header(jpath) == gen


def test_a_damaged_backup_is_kept_aside(db: Path) -> None:
    files.backup_path(db).write_bytes(b'{"meta": 5}')
    report = _repair(db)
    kept = _kept(db, "p.json.bak")
    assert report.actions[0] == f"kept the damaged backup as {kept.name}"
    assert kept.read_bytes() == b'{"meta": 5}'
    assert report.losses == []


def test_a_garbled_snapshot_is_kept_and_rebuilt_from_the_backup_and_both_journals(db: Path) -> None:
    db.write_bytes(b"garbage")
    prev = len(files.previous_journal_path(db).read_bytes().splitlines())
    report = _repair(db)
    kept = _kept(db, "p.json")
    assert kept.read_bytes() == b"garbage"
    assert report.actions[:2] == [
        f"kept the damaged store as {kept.name}",
        f"rebuilt 4 card states from the backup p.json.bak and {prev + 4} journal events",
    ]
    assert report.cards == 4 and report.losses == []


def test_an_inconsistent_snapshot_is_kept_and_rebuilt_from_itself(db: Path) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["meta"]["1"]["journal_offset"] = 5000
    db.write_text(json.dumps(doc), encoding="utf-8")
    report = _repair(db)
    kept = _kept(db, "p.json")
    assert report.actions[:2] == [
        f"kept the inconsistent store as {kept.name}",
        "rebuilt 4 card states from the store and 4 journal events",
    ]
    assert json.loads(kept.read_text(encoding="utf-8")) == doc


def test_without_a_backup_the_valid_card_states_are_the_base_naming_five_dropped(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    keys = [CardKey(f"deck/d{i}", Pair("en", "term", "fr", "term")) for i in range(7)]
    with open_store(db, tz=UTC) as store:
        for n, key in enumerate(keys):
            store.record(key, 3, START + timedelta(minutes=n))
    files.backup_path(db).unlink()
    doc = json.loads(db.read_text(encoding="utf-8"))
    spoiled = [r["card_id"] for r in list(doc["cards"].values())[:6]]
    for record in list(doc["cards"].values())[:6]:
        record["due"] = "garbage"
    db.write_text(json.dumps(doc), encoding="utf-8")
    report = doctor.repair(db)
    dropped = ", ".join(spoiled[:5])
    assert report.actions[1].startswith(
        f"rebuilt 1 card states from the damaged store's valid card states (dropped: {dropped}) "
        "and "
    )


def test_a_store_with_nothing_beside_it_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    db.write_bytes(b'{"meta": 5}')
    with pytest.raises(StoreError) as err:
        doctor.repair(db)
    assert err.value.message == (
        'can\'t repair the store: progress store is damaged (unexpected content: table "meta" '
        "is not a table: 5), and no backup, journal or review log beside it to rebuild from"
    )
    assert err.value.hint == (
        "restore it from a backup of your own, or move it aside to start afresh"
    )
    assert db.read_bytes() == b'{"meta": 5}'


def test_with_no_base_left_the_states_come_from_the_journals_alone(db: Path) -> None:
    db.write_bytes(b"garbage")
    files.backup_path(db).unlink()
    report = _repair(db)
    assert report.actions[1] == (  # the generation before the journal's, then the journal
        "rebuilt 4 card states from the journals alone (no snapshot could be used): 9 events "
        "of p.json.journal.prev and p.json.journal"
    )
    # then from the log: the two whose states from the journals differ from its replay
    assert report.actions[2] == "rebuilt 2 of 4 card states from their review log"
    assert report.cards == 4
