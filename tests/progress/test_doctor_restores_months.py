"""The doctor restores a damaged month file from its mirror and the journals, and the mirrors.

The store of :mod:`store_builder`: July compacted in the first session (its journal is
gone), August and one answer of September 15 in the second (its journal kept as
``P.journal.prev``), five September answers in the journal since.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quizzer.progress import doctor, journal, monthfile, reviewlog
from quizzer.progress.journal_events import review_data
from tests.progress.store_builder import build

AUGUST_BAD = (
    "review log file is damaged (invalid JSON at line 1, column 1, byte 0: expecting value)"
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "p.json"
    build(path)
    return path


def _copies(db: Path, month: str) -> tuple[Path, Path]:
    file = reviewlog.month_path(db, month)
    return file, reviewlog.mirror_path(file)


def _ids(file: Path, month: str) -> list[str]:
    copy = monthfile.read_copy(file, month)
    assert copy.problem is None, copy.problem
    return [r["id"] for r in copy.reviews]


def _unstamped(lines: list[str]) -> list[str]:
    return [re.sub(r"damaged-\d{8}T\d{6}Z", "damaged-STAMP", line) for line in lines]


def test_both_copies_damaged_are_named_and_rebuilt_from_the_journals_without_a_false_loss(
    db: Path,
) -> None:
    file, mirror = _copies(db, "2026-08")
    august = _ids(file, "2026-08")
    assert len(august) == 20
    file.write_bytes(b"garbage")
    mirror.write_bytes(b"also garbage")
    assert doctor.check(db).problems == [
        f"{file}: {AUGUST_BAD}",
        f"{mirror}: {AUGUST_BAD} (the mirror can't stand in either)",
    ]
    report = doctor.repair(db)
    assert _unstamped(report.actions)[:3] == [
        "kept the damaged 2026-08.json as 2026-08.json.damaged-STAMP",
        "kept the damaged 2026-08.json.bak as 2026-08.json.bak.damaged-STAMP",
        "restored 20 answers of 2026-08 from no copy that verifies and the journals kept",
    ]
    # Every answer the snapshot listed came back from P.journal.prev: nothing is lost.
    assert report.losses == []
    assert sorted(_ids(file, "2026-08")) == sorted(august)
    assert _ids(mirror, "2026-08") == _ids(file, "2026-08")
    kept = sorted(p.name for p in file.parent.iterdir() if ".damaged-" in p.name)
    assert sorted(p.split(".damaged-")[0] for p in kept) == ["2026-08.json", "2026-08.json.bak"]
    assert doctor.check(db).healthy


def test_answers_given_since_the_snapshot_do_not_hide_a_loss_nor_make_one(db: Path) -> None:
    # September: the manifest counts the answer of September 15 (in P.journal.prev);
    # the five in the journal came after the snapshot.
    file, mirror = _copies(db, "2026-09")
    file.write_bytes(b"garbage")
    mirror.unlink()
    report = doctor.repair(db)
    assert "restored 6 answers of 2026-09 from no copy that verifies and the journals kept" in (
        report.actions
    )
    assert report.losses == []
    # July: its session's journal is gone, so its 12 answers are lost with both copies.
    file, mirror = _copies(db, "2026-07")
    file.write_bytes(b"garbage")
    mirror.write_bytes(b"garbage")
    report = doctor.repair(db)
    assert report.losses == [
        "2026-07: the snapshot listed 12 answers; 0 were found in the journals kept, "
        "the rest are lost (the damaged copies are kept)"
    ]


def test_a_bad_record_in_a_kept_journal_is_not_folded_into_a_rebuilt_month(db: Path) -> None:
    file, mirror = _copies(db, "2026-08")
    august = _ids(file, "2026-08")
    bad = dict(monthfile.read_copy(file, "2026-08").reviews[0], id="1785661200000-0badbad0")
    bad["grade"] = 9  # checksummed, well-formed JSON, a value no answer has
    prev = Path(f"{db}.journal.prev")
    prev.write_bytes(prev.read_bytes() + journal.encode({"op": "review", "review": bad}))
    file.write_bytes(b"garbage")
    mirror.write_bytes(b"garbage")
    doctor.repair(db)
    assert sorted(_ids(file, "2026-08")) == sorted(august)


def test_a_damaged_mirror_is_named_and_rewritten_from_its_month(db: Path) -> None:
    file, mirror = _copies(db, "2026-08")
    mirror.write_bytes(b"garbage")
    assert doctor.check(db).problems == [f"{mirror}: backup of 2026-08.json: {AUGUST_BAD}"]
    report = doctor.repair(db)
    assert _unstamped(report.actions)[:2] == [
        "kept the damaged 2026-08.json.bak as 2026-08.json.bak.damaged-STAMP",
        "rewrote 2026-08.json.bak from 2026-08.json",
    ]
    assert mirror.read_bytes() == file.read_bytes()


def test_a_sound_mirror_that_differs_from_its_month_is_rewritten(db: Path) -> None:
    file, mirror = _copies(db, "2026-08")
    copy = monthfile.read_copy(file, "2026-08")
    changed = [review_data(dict(r)) for r in copy.reviews]
    changed[0]["duration_ms"] += 1
    assert copy.gen is not None
    # Sealed like a month file of the same generation and size: it verifies on its own.
    reviewlog.write_month(file, changed, copy.gen, mirror_only=True)
    assert monthfile.read_copy(mirror, "2026-08").problem is None
    assert doctor.check(db).problems == [
        f"{mirror}: backup of 2026-08.json: differs from its month file"
    ]
    report = doctor.repair(db)
    assert "rewrote 2026-08.json.bak from 2026-08.json" in report.actions
    assert not any("kept the damaged" in a for a in report.actions)  # nothing damaged
    assert mirror.read_bytes() == file.read_bytes()


def test_a_damaged_month_is_restored_from_its_sound_mirror(db: Path) -> None:
    file, _mirror = _copies(db, "2026-08")
    august = _ids(file, "2026-08")
    file.write_bytes(b"garbage")
    assert doctor.check(db).problems == [f"{file}: {AUGUST_BAD}"]
    report = doctor.repair(db)
    assert _unstamped(report.actions)[:2] == [
        "kept the damaged 2026-08.json as 2026-08.json.damaged-STAMP",
        "restored 20 answers of 2026-08 from its mirror 2026-08.json.bak and the journals kept",
    ]
    assert report.losses == []
    assert _ids(file, "2026-08") == august


def test_a_damaged_month_the_manifest_does_not_list_is_reported_as_an_unknown_loss(
    db: Path,
) -> None:
    file, mirror = _copies(db, "2026-10")
    file.write_bytes(b"garbage")
    mirror.write_bytes(b"garbage")
    report = doctor.repair(db)
    assert report.losses == [
        "2026-10: the snapshot listed an unknown number of answers; 0 were found in the "
        "journals kept, the rest are lost (the damaged copies are kept)"
    ]
