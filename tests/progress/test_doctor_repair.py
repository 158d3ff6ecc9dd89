"""`quizzer doctor` repairs each kind of damage, one at a time, and says what it did.

Real stores on disk, the ``db`` fixture of ``conftest.py`` (two compacted sessions, three
answers left in the journal; snapshot and journal of generation 3, ``P.bak`` and
``P.journal.prev`` of 2), damaged one way each; the doctor's exact actions, losses and
messages, and what it keeps, as a person running ``quizzer doctor`` reads them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.errors import StoreError
from quizzer.progress import doctor, files, journal
from quizzer.progress.doctor_findings import Report, examine
from tests.progress import store_builder


def _doc(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _write(path: Path, doc: dict[str, Any]) -> None:
    path.write_text(json.dumps(doc), encoding="utf-8")


def _reheaded(jpath: Path, gen: int) -> None:
    """The journal's header line replaced by a good one of generation ``gen``."""
    _head, rest = jpath.read_bytes().split(b"\n", 1)
    jpath.write_bytes(journal.encode(journal.header_event(gen)) + rest)


def _repair(db: Path) -> Report:
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert doctor.check(db).healthy
    return report


def _kept(db: Path, prefix: str) -> Path:
    (kept,) = db.parent.glob(prefix + ".damaged-*")
    return kept


# ---- check: the files read again only when a compaction replaced them meanwhile


def test_a_quiet_store_is_read_once_and_again_only_after_a_compaction_replaced_it(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real_examine = examine

    def quiet(path: Path, report: Report) -> Any:
        calls.append(len(calls))
        return real_examine(path, report)

    monkeypatch.setattr(doctor, "examine", quiet)
    report = doctor.check(db)
    assert calls == [0] and report.healthy
    assert (report.cards, report.pending) == (4, 3)

    def compacted_meanwhile(path: Path, report: Report) -> Any:
        found = quiet(path, report)
        if len(calls) == 1:  # a session answers and closes during the first read
            with store_builder.open_db(path) as store:
                store.record(store_builder.card(7), 3, store_builder.LATER)
        return found

    calls.clear()
    monkeypatch.setattr(doctor, "examine", compacted_meanwhile)
    report = doctor.check(db)
    assert calls == [0, 1] and report.healthy
    assert (report.cards, report.pending) == (5, 0)  # what the second read found


def test_the_ok_line_counts_the_changes_left_in_the_journal(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{db}: ok (4 cards, 3 change(s) in the journal since the last compaction)"


# ---- what the repair takes as its base, and which journals it replays over it


def test_a_journal_newer_than_its_snapshot_is_replayed_not_started_anew(db: Path) -> None:
    doc = _doc(db)
    doc["meta"]["1"]["gen"] = 2  # the journal (3) and P.journal.prev (2) now both follow it
    _write(db, doc)
    prev = len(files.previous_journal_path(db).read_bytes().splitlines())
    report = _repair(db)
    kept = _kept(db, "p.json")
    assert report.actions[:2] == [  # no "started a new journal": its answers are replayed
        f"kept the inconsistent store as {kept.name}",
        f"rebuilt 4 card states from the store and {prev + 4} journal events",
    ]
    assert report.losses == [] and report.cards == 4
    assert report.reviews == 4  # the journal's lines that verify: its header and 3 answers


def test_with_a_backup_beside_it_damaged_card_states_are_not_the_base(db: Path) -> None:
    doc = _doc(db)
    next(iter(doc["cards"].values()))["due"] = "garbage"
    _write(db, doc)
    prev = len(files.previous_journal_path(db).read_bytes().splitlines())
    report = _repair(db)
    kept = _kept(db, "p.json")
    assert report.actions[:2] == [
        f"kept the damaged store as {kept.name}",
        f"rebuilt 4 card states from the backup p.json.bak and {prev + 4} journal events",
    ]
    assert report.losses == []


def test_a_journal_two_generations_past_the_backup_names_the_generation_gone(db: Path) -> None:
    db.write_bytes(b"garbage")
    _reheaded(files.journal_path(db), 4)  # the backup and P.journal.prev are of generation 2
    prev = len(files.previous_journal_path(db).read_bytes().splitlines())
    report = _repair(db)
    assert report.actions[1:3] == [
        "journal generations 3..3 are gone: card states answered then may be older (their "
        "answers are in the review log)",
        f"rebuilt 4 card states from the backup p.json.bak and {prev + 4} journal events",
    ]
    assert report.losses == [] and report.cards == 4


def test_a_previous_journal_of_another_generation_is_not_replayed_over_the_backup(
    db: Path,
) -> None:
    db.write_bytes(b"garbage")
    _reheaded(files.previous_journal_path(db), 1)  # the backup is of generation 2
    report = _repair(db)
    assert report.actions[1:3] == [
        "rebuilt 4 card states from the backup p.json.bak and 4 journal events",
        "rebuilt 2 of 4 card states from their review log",  # what P.journal.prev held
    ]
    assert report.losses == []


def test_a_bad_value_in_the_previous_journal_is_skipped_and_named_and_the_rest_replayed(
    db: Path,
) -> None:
    db.write_bytes(b"garbage")
    prev = files.previous_journal_path(db)
    lines = prev.read_bytes().splitlines(keepends=True)
    event: Any = journal.decode(lines[1])
    assert event is not None and event["op"] == "record" and len(lines) > 3
    event["review"]["grade"] = 9
    lines[1] = journal.encode(event)  # checksummed, so only its value is wrong
    prev.write_bytes(b"".join(lines))
    report = _repair(db)
    (loss,) = report.losses
    assert loss == (
        f'p.json.journal.prev: journal event "record" for answer {event["review"]["id"]} of card '
        f"{event['review']['card_id']} is invalid: in its answer, grade is 9, not 1 to 4 "
        "(skipped)"
    )
    replayed = len(lines) - 1 + 4  # every other line of P.journal.prev, then the journal
    assert report.actions[1] == (
        f"rebuilt 4 card states from the backup p.json.bak and {replayed} journal events"
    )


def test_a_journal_older_than_the_backup_is_absorbed_and_the_store_opens_again(db: Path) -> None:
    db.write_bytes(b"garbage")
    _reheaded(files.journal_path(db), 1)  # a header that verifies: absorbed by generation 2
    report = _repair(db)
    assert report.actions[1] == (
        "rebuilt 2 card states from the backup p.json.bak and 0 journal events"
    )
    with store_builder.open_db(db) as store:
        store.record(store_builder.card(7), 3, store_builder.LATER)
    assert doctor.check(db).healthy


def test_a_rebuild_keeps_when_the_store_was_created(db: Path) -> None:
    created = _doc(db)["meta"]["1"]["created"]
    jpath = files.journal_path(db)
    lines = jpath.read_bytes().split(b"\n")
    lines[2] = b"x" + lines[2]
    jpath.write_bytes(b"\n".join(lines))
    report = _repair(db)
    assert report.actions[1] == "rebuilt 4 card states from the store and 3 journal events"
    assert _doc(db)["meta"]["1"]["created"] == created


def test_a_store_rebuilt_from_nothing_gets_a_creation_time(db: Path) -> None:
    db.write_bytes(b"garbage")
    files.backup_path(db).unlink()
    report = doctor.repair(db)
    assert report.actions[1].startswith("rebuilt 4 card states from the journals alone")
    created = _doc(db)["meta"]["1"]["created"]
    assert isinstance(created, str) and created[:2] == "20"


# ---- a damaged journal header next to a damaged snapshot: the backup says the generation


def test_a_damaged_header_beside_a_damaged_snapshot_takes_the_generation_after_the_backup(
    db: Path,
) -> None:
    db.write_bytes(b"garbage")
    jpath = files.journal_path(db)
    jpath.write_bytes(b"x" + jpath.read_bytes())
    prev = len(files.previous_journal_path(db).read_bytes().splitlines())
    report = _repair(db)
    assert report.actions[1:3] == [
        f"kept the damaged store as {_kept(db, 'p.json').name}",
        f"rebuilt 4 card states from the backup p.json.bak and {prev + 4} journal events",
    ]  # and no "journal generations … are gone"
    assert report.losses == []


# ---- salvaging a journal: which first line is a damaged header, which lines are kept


#: The longest damaged first line still taken for a header (one of a million generations,
#: and a byte more), so that damage to it alone is no loss.
_HEADER_LIKE = len(journal.encode(journal.header_event(10**6))) + 1


def _first_line(db: Path, first: bytes) -> Report:
    jpath = files.journal_path(db)
    _head, rest = jpath.read_bytes().split(b"\n", 1)
    jpath.write_bytes(first + rest)
    return _repair(db)


def _lost_line_1(db: Path) -> list[str]:
    return [
        "p.json.journal: line(s) 1 failed their checksum or can't be replayed; the answers on "
        f"them are lost (their bytes are kept in {_kept(db, 'p.json.journal').name})"
    ]


@pytest.mark.parametrize(
    "damaged",
    [b'0000dead {"oq":"header","gen":3}', b'0000dead {"op":"heaDer","gen":3}'],
    ids=["op-key-flipped", "header-word-flipped"],
)
def test_one_flipped_byte_in_the_header_loses_nothing(db: Path, damaged: bytes) -> None:
    report = _first_line(db, damaged + b"\n")
    assert report.losses == []
    assert journal.header(files.journal_path(db)) is not None


def test_a_damaged_first_line_as_long_as_the_longest_header_loses_nothing(db: Path) -> None:
    line = b'"op" header '
    report = _first_line(db, line + b"x" * (_HEADER_LIKE - len(line) - 1) + b"\n")
    assert report.losses == []


def test_a_damaged_first_line_a_byte_longer_may_have_held_answers(db: Path) -> None:
    line = b'"op" header '
    report = _first_line(db, line + b"x" * (_HEADER_LIKE - len(line)) + b"\n")
    assert report.losses == _lost_line_1(db)


def test_a_salvaged_journal_keeps_a_last_line_without_its_newline_and_drops_bad_values(
    db: Path,
) -> None:
    jpath = files.journal_path(db)
    lines = jpath.read_bytes().splitlines(keepends=True)
    event: Any = journal.decode(lines[1])
    assert event is not None and len(lines) == 4
    event["review"]["grade"] = 9
    lines[1] = journal.encode(event)  # checksummed, but it can't be replayed
    lines[3] = lines[3].rstrip(b"\n")  # the last answer, whole but for its newline
    jpath.write_bytes(b"".join(lines))
    report = _repair(db)
    kept = _kept(db, "p.json.journal")
    assert report.actions[0] == (
        f"kept the damaged journal as {kept.name}; removed 1 bad line(s), kept 3 that verify"
    )
    assert report.losses == [
        "p.json.journal: line(s) 2 failed their checksum or can't be replayed; the answers on "
        f"them are lost (their bytes are kept in {kept.name})"
    ]
    last = journal.decode(lines[3] + b"\n")
    assert last is not None
    with store_builder.open_db(db, read_only=True) as store:  # the last answer is kept
        assert last["review"]["id"] in {r.id for r in store.reviews()}


# ---- migrating, and what the doctor can't repair


def _with_schema(db: Path, version: int, **top: Any) -> bytes:
    """The snapshot marked as of schema ``version`` (with ``top`` keys replaced); its bytes."""
    doc = _doc(db)
    doc["meta"]["1"]["schema"] = version
    _write(db, {**doc, **top})
    return db.read_bytes()


def test_doctor_migrates_an_old_schema_and_names_the_copy_it_keeps(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _with_schema(db, 3)
    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "repaired: migrated from schema 3 to 4 (the old file is kept as p.json.v3.bak)" in out
    assert (db.parent / "p.json.v3.bak").read_bytes() == old


def test_an_old_layout_the_migration_cannot_read_is_refused_and_left_as_it_is(db: Path) -> None:
    # Schema 2 (its journals gone, as a schema-2 store has no headed journal) can't be
    # checked before its migration reads it: refused, the file left as it is.
    for jpath in (files.journal_path(db), files.previous_journal_path(db)):
        jpath.unlink(missing_ok=True)
    old = _with_schema(db, 2, cards={"1": 5})
    with pytest.raises(StoreError) as err:
        doctor.repair(db)
    assert err.value.message == (
        'can\'t migrate the store from schema 2: unexpected content (card record "1" has no card '
        "id)"
    )
    assert err.value.hint == "restore it from a backup, or move it aside to start afresh"
    assert db.read_bytes() == old


def test_a_store_of_a_newer_quizzer_is_left_as_it_is_and_still_wrong(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _with_schema(db, 5)
    assert main(["doctor", "--db", str(db)]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"still wrong: {db}: made by a newer quizzer (schema 5)"
    report = doctor.repair(db)
    assert report.problems == [f"{db}: made by a newer quizzer (schema 5)"]
    assert (report.cards, report.actions) == (0, [])  # no card state it could read
    assert db.read_bytes() == old
