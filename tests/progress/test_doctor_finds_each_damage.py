"""What :func:`doctor_findings.examine` finds, each kind of damage alone, message by message.

The doctor's tests check that damage is found
and repaired, mostly by a word of the message; here each finding's exact text, its
figures (bytes, lines, cards) and the fields the repair decides from. Real stores on disk,
one built per module and copied for each test.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import cast

import pytest
from tinydb import TinyDB

from quizzer.progress import SCHEMA_VERSION, files, journal
from quizzer.progress.doctor_findings import Findings, Report, examine
from quizzer.progress.journal_events import Event
from tests.progress import store_builder

MEM = Path("/proc/self/mem")  # a regular file whose read fails (EIO), even for root


def _examine(db: Path) -> tuple[Report, Findings]:
    report = Report(db)
    return report, examine(db, report)


def _edit_meta(db: Path, **changes: object) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["meta"]["1"].update(changes)
    db.write_text(json.dumps(doc), encoding="utf-8")


def _journal_lines(db: Path) -> list[bytes]:
    return files.journal_path(db).read_bytes().split(b"\n")


def test_a_new_report_and_findings_hold_nothing(tmp_path: Path) -> None:
    report = Report(tmp_path / "p.json")
    assert (report.problems, report.actions, report.losses, report.notes) == ([], [], [], [])
    assert (report.cards, report.reviews, report.pending, report.writer) == (0, 0, 0, None)
    assert bool(report.healthy)
    report.problems.append("x")
    assert not report.healthy
    assert Report(tmp_path / "p.json").problems == []  # each report its own lists
    f = Findings()
    assert (f.doc, f.snapshot_error, f.backup, f.salvage, f.old_schema) == (None,) * 5
    assert (f.inconsistent, f.torn, f.backup_damaged, f.journal_problem) == (False,) * 3 + (None,)
    assert (f.journal_size, f.events, f.journal_short) == (0, 0, 0)
    assert [f.salvage_dropped, f.bad_lines, f.bad_months, f.bad_mirrors] == [[]] * 4
    assert f.months.manifest is None and f.months.gen == 0


def test_a_sound_store_is_counted_and_found_healthy(db: Path) -> None:
    report, f = _examine(db)
    assert report.problems == []
    assert report.cards == 3  # the snapshot's cards (the journal's are counted by an open)
    assert f.events == 4  # the header and three answers
    assert f.journal_size == files.journal_path(db).stat().st_size
    assert f.doc is not None and f.backup is not None and f.snapshot_error is None
    assert (f.bad_lines, f.torn, f.journal_short, f.inconsistent) == ([], False, 0, False)
    assert (f.old_schema, f.journal_problem, f.backup_damaged, f.salvage) == (None,) * 2 + (
        False,
        None,
    )


def test_damaged_journal_lines_are_listed_by_number(db: Path) -> None:
    lines = _journal_lines(db)
    lines[1], lines[2] = b"x" + lines[1], b"y" + lines[2]
    files.journal_path(db).write_bytes(b"\n".join(lines))
    report, f = _examine(db)
    assert report.problems == [f"{files.journal_path(db)}: damaged line(s) 2, 3"]
    assert f.bad_lines == [2, 3] and not f.torn
    assert f.events == 2
    assert f.journal_size == files.journal_path(db).stat().st_size


def test_a_bad_line_before_the_last_good_one_is_damage_not_a_torn_end(db: Path) -> None:
    lines = _journal_lines(db)
    lines[2] = b"x" + lines[2]
    files.journal_path(db).write_bytes(b"\n".join(lines))
    report, f = _examine(db)
    assert report.problems == [f"{files.journal_path(db)}: damaged line(s) 3"]
    assert f.bad_lines == [3] and not f.torn


def test_a_damaged_header_alone_is_damage_not_a_torn_end(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    files.journal_path(db).write_bytes(b"not a header\n")
    report, f = _examine(db)
    assert f.bad_lines == [1] and not f.torn
    assert f"{files.journal_path(db)}: damaged line(s) 1" in report.problems


def test_only_the_first_ten_damaged_lines_are_named(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    good = journal.encode(journal.header_event(1))
    files.journal_path(db).write_bytes(good + b"".join(b"bad %d\n" % i for i in range(12)))
    report, f = _examine(db)
    assert f.bad_lines == list(range(2, 14))
    assert report.problems == [
        f"{db}: the snapshot is missing",
        f"{files.journal_path(db)}: damaged line(s) 2, 3, 4, 5, 6, 7, 8, 9, 10, 11",
    ]


def test_an_unacknowledged_answer_cut_short_at_the_end_is_a_torn_line(db: Path) -> None:
    jpath = files.journal_path(db)
    jpath.write_bytes(jpath.read_bytes() + b'1234abcd {"op":"rec')
    report, f = _examine(db)
    assert report.problems == [f"{jpath}: last line was cut short (an unacknowledged answer)"]
    assert f.torn and f.bad_lines == [] and f.journal_short == 0
    assert f.events == 4 and f.journal_size == jpath.stat().st_size


def test_acknowledged_lines_missing_are_counted_from_the_writers_mark(db: Path) -> None:
    jpath = files.journal_path(db)
    size = jpath.stat().st_size
    lines = _journal_lines(db)
    kept = len(b"\n".join(lines[:3])) + 1  # the header and two answers
    jpath.write_bytes(jpath.read_bytes()[:-300])
    report, f = _examine(db)
    assert report.problems == [
        f"{jpath}: its writer saved answers up to byte {size}, the lines that verify end at "
        f"byte {kept}: answers are missing",
        f"{jpath}: last line was cut short (an unacknowledged answer)",
    ]
    assert f.journal_short == size - kept
    assert f.torn and f.events == 3


def test_a_journal_missing_only_its_final_newline_lacks_no_answer(db: Path) -> None:
    jpath = files.journal_path(db)
    jpath.write_bytes(jpath.read_bytes()[:-1])
    report, f = _examine(db)
    assert report.problems == [] and f.journal_short == 0 and f.events == 4


def test_a_mark_of_another_journal_generation_is_not_compared(db: Path) -> None:
    jpath = files.journal_path(db)
    gen = journal.header(jpath)
    assert gen is not None
    lock = files.lock_path(db)
    mark = b"journal %012d " % gen
    assert mark in lock.read_bytes()
    lock.write_bytes(lock.read_bytes().replace(mark, b"journal %012d " % (gen - 1)))
    jpath.write_bytes(jpath.read_bytes()[:-300])
    report, f = _examine(db)
    assert f.journal_short == 0
    assert report.problems == [f"{jpath}: last line was cut short (an unacknowledged answer)"]


def test_a_garbled_snapshot_is_named_with_the_parse_error(db: Path) -> None:
    db.write_bytes(b"garbage")
    report, f = _examine(db)
    error = "progress store is damaged (invalid JSON at line 1, column 1, byte 0: expecting value)"
    assert report.problems == [f"{db}: {error}"]
    assert f.snapshot_error == error and f.doc is None and f.salvage is None
    assert report.cards == 0


@pytest.mark.skipif(not MEM.is_file(), reason="needs Linux /proc")
def test_a_snapshot_or_backup_that_cannot_be_read_is_named_with_the_error(db: Path) -> None:
    backup = files.backup_path(db)
    backup.unlink()
    os.symlink(MEM, backup)
    report, f = _examine(db)
    assert report.problems == [
        f"{backup}: can't read: Input/output error (a copy, nothing is lost)"
    ]
    assert f.backup is None and f.backup_damaged
    db.unlink()
    os.symlink(MEM, db)
    report, f = _examine(db)
    assert report.problems[0] == f"{db}: can't read: Input/output error"
    assert f.snapshot_error == "can't read: Input/output error"


def test_a_damaged_backup_is_named_and_not_used(db: Path) -> None:
    files.backup_path(db).write_bytes(b'{"meta": 5}')
    report, f = _examine(db)
    assert report.problems == [
        f"{files.backup_path(db)}: progress store is damaged (unexpected content: table "
        '"meta" is not a table: 5) (a copy, nothing is lost)'
    ]
    assert f.backup is None and f.backup_damaged and f.snapshot_error is None


def test_no_file_at_all_is_no_store(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    report, f = _examine(db)
    assert report.problems == [f"{db}: no progress store here"]
    files.backup_path(db).write_bytes(b"{}")  # a backup alone, no journal: still no store
    report, f = _examine(db)
    assert report.problems[0] == f"{db}: no progress store here"
    assert f.snapshot_error is None


def test_a_new_stores_empty_journal_alone_is_no_damage(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    files.journal_path(db).touch()
    report, f = _examine(db)
    assert report.problems == [] and f.snapshot_error is None


def test_an_empty_journal_beside_a_backup_means_the_snapshot_is_missing(
    db: Path, tmp_path: Path
) -> None:
    other = tmp_path / "q.json"
    files.journal_path(other).touch()
    files.backup_path(other).write_bytes(files.backup_path(db).read_bytes())
    report, f = _examine(other)
    assert f.snapshot_error == "the snapshot is missing"
    assert report.problems[0] == f"{other}: the snapshot is missing"


def test_a_first_journal_without_its_snapshot_means_the_snapshot_is_missing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    store = store_builder.open_db(db)
    store.record(store_builder.card(1), 3, store_builder.JULY)
    store_builder.abandon(store)
    if db.exists():
        db.unlink()
    shutil.rmtree(files.log_dir(db))
    assert journal.generation(files.journal_path(db)) == 1
    report, f = _examine(db)
    assert report.problems == [f"{db}: the snapshot is missing"]
    assert f.snapshot_error == "the snapshot is missing"


def test_a_journal_newer_than_the_snapshot_is_inconsistent(db: Path) -> None:
    gen = journal.header(files.journal_path(db))
    assert gen is not None
    _edit_meta(db, gen=gen - 2)
    report, f = _examine(db)
    assert report.problems == [
        f"{files.journal_path(db)}: generation {gen} is newer than the snapshot's ({gen - 2})"
    ]
    assert f.inconsistent
    assert report.cards == 3


def test_a_snapshot_referring_to_more_journal_than_there_is_is_inconsistent(db: Path) -> None:
    size = files.journal_path(db).stat().st_size
    _edit_meta(db, journal_offset=size)
    report, f = _examine(db)
    assert report.problems == [] and not f.inconsistent  # the whole journal absorbed: fine
    _edit_meta(db, journal_offset=size + 1)
    report, f = _examine(db)
    assert report.problems == [
        f"{db}: refers to {size + 1} bytes of journal, the journal has {size}"
    ]
    assert f.inconsistent


def test_an_offset_into_an_older_journal_is_not_compared_with_its_size(db: Path) -> None:
    gen = journal.header(files.journal_path(db))
    assert gen is not None
    _edit_meta(db, gen=gen + 1, journal_offset=10**6)  # that journal is already absorbed
    report, f = _examine(db)
    assert not f.inconsistent and report.problems == []


def test_a_journal_whose_header_is_gone_is_named(db: Path) -> None:
    files.journal_path(db).unlink()
    report, f = _examine(db)
    gen = json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["gen"]
    problem = (
        f"the journal is missing (the snapshot has absorbed generation {gen}; answers given "
        "since its last compaction, if any, are gone: how many can't be told, only the journal "
        "held them)"
    )
    assert f.journal_problem == problem
    assert report.problems == [f"{files.journal_path(db)}: {problem}"]


def test_a_journal_problem_with_damaged_lines_is_reported_once_as_the_damage(db: Path) -> None:
    lines = _journal_lines(db)
    lines[0] = b"x" + lines[0]  # the header: the journal then stands beside nothing
    files.journal_path(db).write_bytes(b"\n".join(lines))
    report, f = _examine(db)
    assert f.bad_lines == [1] and f.journal_problem is not None
    assert report.problems == [f"{files.journal_path(db)}: damaged line(s) 1"]


def test_a_snapshot_of_a_newer_version_is_named(db: Path) -> None:
    _edit_meta(db, schema=SCHEMA_VERSION + 1)
    report, f = _examine(db)
    assert report.problems == [f"{db}: made by a newer quizzer (schema {SCHEMA_VERSION + 1})"]
    assert f.old_schema is None and report.cards == 0


def test_an_old_version_is_found_to_be_migrated(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    with TinyDB(db) as tdb:  # version 1: TinyDB's own layout
        tdb.table("cards").insert({"card_id": "x"})
    report, f = _examine(db)
    assert report.problems == [
        f"{db}: has the old schema version 1 (current: {SCHEMA_VERSION}); repairing migrates "
        "it, keeping p.json.v1.bak"
    ]
    assert f.old_schema == 1 and f.snapshot_error is None


def test_a_schema_that_is_no_number_is_damage(db: Path) -> None:
    _edit_meta(db, schema="x")
    report, f = _examine(db)
    error = 'progress store is damaged (unexpected content: meta.schema is not a number: "x")'
    assert report.problems == [f"{db}: {error}"] and f.snapshot_error == error
    assert f.salvage is None


def test_bad_meta_is_damage_that_no_card_salvage_mends(db: Path) -> None:
    _edit_meta(db, seq="x")
    report, f = _examine(db)
    error = (
        "progress store is damaged (unexpected content: meta.seq is not a whole number of 0 "
        'or more: "x")'
    )
    assert report.problems == [f"{db}: {error}"]
    assert f.salvage is None


def _spoil_cards(db: Path, n: int) -> list[str]:
    doc = json.loads(db.read_text(encoding="utf-8"))
    spoiled = list(doc["cards"].values())[:n]
    for record in spoiled:
        record["due"] = "garbage"
    db.write_text(json.dumps(doc), encoding="utf-8")
    return [r["card_id"] for r in spoiled]


@pytest.mark.parametrize(("n", "more"), [(1, ""), (2, " and 1 more"), (3, " and 2 more")])
def test_invalid_card_states_are_named_first_and_counted_and_the_rest_salvaged(
    db: Path, n: int, more: str
) -> None:
    spoiled = _spoil_cards(db, n)
    report, f = _examine(db)
    assert f.snapshot_error is not None
    assert f.snapshot_error == (
        f'the state of card {spoiled[0]} is invalid: due is not a time: "garbage"{more}'
    )
    assert report.problems == [f"{db}: {f.snapshot_error}"]
    assert f.salvage_dropped == spoiled
    assert f.salvage is not None and f.doc is not None
    kept = {r["card_id"] for r in f.salvage["cards"].values()}
    assert kept == {r["card_id"] for r in f.doc["cards"].values()} - set(spoiled)
    assert f.salvage["meta"] == f.doc["meta"] and f.salvage["settings"] == f.doc["settings"]


def test_an_old_layout_beside_a_newer_journal_is_damage_not_a_migration(db: Path) -> None:
    with TinyDB(db) as tdb:  # the snapshot replaced by the layout of version 1
        tdb.drop_tables()
        tdb.table("cards").insert({"card_id": "x"})
    report, f = _examine(db)
    assert f.old_schema is None and f.snapshot_error is not None
    assert f.snapshot_error.startswith(
        "progress store is damaged (the snapshot looks like schema 1"
    )
    assert report.problems[0] == f"{db}: {f.snapshot_error}"


def test_a_journal_with_no_line_to_replay_lacks_every_saved_byte(db: Path) -> None:
    jpath = files.journal_path(db)
    size, gen = jpath.stat().st_size, journal.header(jpath)
    # A header that verifies (so the writer's mark is of this journal) but can't be replayed.
    jpath.write_bytes(journal.encode(cast(Event, {"op": "header", "gen": gen, "seq": -1})))
    report, f = _examine(db)
    assert f.bad_lines == [1] and f.events == 0
    assert f.journal_short == size
    assert report.problems[0] == (
        f"{jpath}: its writer saved answers up to byte {size}, the lines that verify end at "
        "byte 0: answers are missing"
    )


def test_bytes_cut_out_of_a_middle_line_are_counted_missing(db: Path) -> None:
    jpath = files.journal_path(db)
    size = jpath.stat().st_size
    lines = _journal_lines(db)
    lines[1] = lines[1][:20] + lines[1][22:]  # two bytes gone from the first answer
    jpath.write_bytes(b"\n".join(lines))
    report, f = _examine(db)
    assert f.bad_lines == [2] and f.journal_short == 2
    assert report.problems == [
        f"{jpath}: its writer saved answers up to byte {size}, the lines that verify end at "
        f"byte {size - 2}: answers are missing",
        f"{jpath}: damaged line(s) 2",
    ]


def test_a_snapshot_that_absorbed_no_journal_needs_none_beside_it(db: Path) -> None:
    doc = json.loads(db.read_text(encoding="utf-8"))
    del doc["meta"]["1"]["gen"]  # generation 0: no journal was ever folded into it
    db.write_text(json.dumps(doc), encoding="utf-8")
    files.journal_path(db).unlink()
    report, f = _examine(db)
    assert f.journal_problem is None and report.problems == []
    del doc["meta"]["1"]["journal_offset"]  # nor any of one: an empty journal is all of it
    db.write_text(json.dumps(doc), encoding="utf-8")
    files.journal_path(db).touch()
    report, f = _examine(db)
    assert not f.inconsistent and report.problems == []
    files.journal_path(db).write_bytes(journal.encode(journal.header_event(1)))
    report, f = _examine(db)
    assert f.inconsistent  # generation 1 was never folded into it
    assert report.problems == [
        f"{files.journal_path(db)}: generation 1 is newer than the snapshot's (0)"
    ]
