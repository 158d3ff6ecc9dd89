"""The review log's month files (``progress.reviewlog``) at their edges, on real files on disk.

The
month of a time given in another zone, sorting answers given in mixed zones, which
names in the log folder count as months, reading a copy that is missing, damaged or
stood in for by its mirror, folding undos whose month is known or not, and a month
file kept as a hard link or, without them, as a copy.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.journal_events as events
from quizzer.errors import StoreError
from quizzer.fsutil import keep_link
from quizzer.progress import files, monthfile, reviewlog
from quizzer.progress.journal_events import ReviewData, plain
from quizzer.progress.manifest import Manifest
from quizzer.progress.snapshot import dumps


def _review(
    rid: str, at: str, card: str = "training-efficiency/c001|ru:term>bn:definition"
) -> ReviewData:
    return {
        "id": rid,
        "card_id": card,
        "reviewed_at": at,
        "grade": 3,
        "mode": "flip",
        "duration_ms": 1200,
    }


def _sept(hour: int) -> str:
    return datetime(2026, 9, 20, hour, 0, tzinfo=UTC).isoformat()


def _record(review: ReviewData) -> dict[str, Any]:
    return {"op": "record", "review": review}


def test_the_month_of_a_time_is_its_utc_month() -> None:
    assert reviewlog.month_of("2026-09-30T23:30:00+00:00") == "2026-09"
    assert reviewlog.month_of("2026-09-30T23:30:00Z") == "2026-09"
    assert reviewlog.month_of("2026-09-30T23:30:00-02:00") == "2026-10"
    assert reviewlog.month_of("2026-10-01T00:30:00+02:00") == "2026-09"
    assert reviewlog.month_of("2026-09-30T23:30:00") == "2026-09"  # naive: taken as UTC


def test_a_naive_time_is_taken_as_utc_and_an_aware_one_kept() -> None:
    assert events.timestamp("2026-09-30T23:30:00") == datetime(2026, 9, 30, 23, 30, tzinfo=UTC)
    aware = events.timestamp("2026-09-30T23:30:00-02:00")
    assert aware.utcoffset() == timedelta(hours=-2)


def test_answers_are_sorted_by_time_even_across_zones_and_ties_keep_their_order() -> None:
    utc = [_review("b", _sept(10)), _review("a", _sept(9)), _review("c", _sept(9))]
    reviewlog.sort_by_time(utc)
    assert [d["id"] for d in utc] == ["a", "c", "b"]
    # 10:00+02:00 is 08:00 UTC: by the text it would come after 09:00+00:00.
    mixed = [_review("x", _sept(9)), _review("y", "2026-09-20T10:00:00+02:00")]
    reviewlog.sort_by_time(mixed)
    assert [d["id"] for d in mixed] == ["y", "x"]
    tied = [_review("p", _sept(9)), _review("q", "2026-09-20T11:00:00+02:00")]
    reviewlog.sort_by_time(tied)
    assert [d["id"] for d in tied] == ["p", "q"]


def test_only_month_files_and_mirrors_count_as_months(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    assert files.months(db) == []  # no log folder at all
    assert files.months(db, {"2026-01": [1, 1]}) == ["2026-01"]
    directory = files.log_dir(db)
    directory.mkdir()
    for name in ("2026-09.json", "2026-08.json.bak", "2026-07.json.1.tmp", "2026-9.json"):
        (directory / name).write_bytes(b"{}")
    (directory / "x2026-06.json").write_bytes(b"{}")
    assert files.months(db) == ["2026-08", "2026-09"]
    assert files.months(db, {"2026-01": [1, 1], "2026-09": [1, 1]}) == [
        "2026-01",
        "2026-08",
        "2026-09",
    ]


def test_a_missing_month_reads_empty_and_a_damaged_one_names_file_and_doctor(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    file = reviewlog.month_path(db, "2026-09")
    assert file == tmp_path / "p.json.log" / "2026-09.json"
    assert reviewlog.read_month(file) == []
    reviews = [_review("a", _sept(9))]
    reviewlog.write_month(file, reviews, 1)
    assert reviewlog.read_month(file) == reviews
    file.write_bytes(b"garbage")
    with pytest.raises(StoreError) as caught:
        reviewlog.read_month(file)
    assert caught.value.path == file
    assert caught.value.hint == (f"run `quizzer doctor --db {db}` to restore it from its mirror")
    assert caught.value.message.startswith("review log file")


def test_a_month_is_written_with_its_mirror_or_only_the_mirror(tmp_path: Path) -> None:
    file = reviewlog.month_path(tmp_path / "p.json", "2026-09")
    file.parent.mkdir()
    reviews = [_review("a", _sept(9))]
    reviewlog.write_month(file, reviews, 4, mirror_only=True)
    assert not file.exists()
    mirror = reviewlog.mirror_path(file)
    assert mirror.name == "2026-09.json.bak"
    assert reviewlog.mirror_matches(file, reviews, 4)
    assert not reviewlog.mirror_matches(file, reviews, 5)
    assert not reviewlog.mirror_matches(file, [*reviews, _review("b", _sept(10))], 4)
    reviewlog.write_month(file, reviews, 4)
    assert file.read_bytes() == mirror.read_bytes()
    texts = [dumps(plain(r)) for r in reviews]
    reviewlog.write_texts(file, 1, lambda: iter(texts), 6)
    assert file.read_bytes() == mirror.read_bytes()
    assert monthfile.read_copy(file, "2026-09").gen == 6
    assert reviewlog.read_month(file) == reviews


def test_a_damaged_month_is_read_from_its_mirror_and_a_listed_missing_one_is_damage(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    file = reviewlog.month_path(db, "2026-09")
    file.parent.mkdir()
    reviews = [_review("a", _sept(9))]
    reviewlog.write_month(file, reviews, 2)
    manifest: Manifest = {"2026-09": [1, 2]}
    assert reviewlog.read_vouched(db, "2026-09", manifest, 2) == (reviews, 2)
    file.write_bytes(b"garbage")
    assert reviewlog.read_vouched(db, "2026-09", manifest, 2) == (reviews, 2)
    # Neither copy is there and the snapshot doesn't list the month: empty, not damage.
    assert reviewlog.read_vouched(db, "2026-10", manifest, 2) == ([], None)
    assert reviewlog.read_vouched(db, "2026-10", None, 2) == ([], None)
    with pytest.raises(StoreError) as caught:
        reviewlog.read_vouched(db, "2026-10", {"2026-10": [1, 2]}, 2)
    assert caught.value.message == (
        "review log file is missing (the snapshot lists it, its mirror can't stand in)"
    )
    assert caught.value.path == reviewlog.month_path(db, "2026-10")
    reviewlog.mirror_path(file).write_bytes(b"garbage too")
    with pytest.raises(StoreError) as caught:
        reviewlog.read_vouched(db, "2026-09", manifest, 2)
    assert caught.value.path == file
    assert "missing" not in caught.value.message


def test_a_month_file_neither_copy_of_which_is_listed_is_not_vouched_for(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    file = reviewlog.month_path(db, "2026-09")
    file.parent.mkdir()
    reviewlog.write_month(file, [_review("a", _sept(9))], 2)
    with pytest.raises(StoreError) as caught:
        reviewlog.read_vouched(db, "2026-09", {}, 5)
    assert "not vouched for" in caught.value.message


def test_merging_drops_undone_answers_and_adds_each_new_one_once() -> None:
    a, b, c, d = (_review(x, _sept(9 + i)) for i, x in enumerate("abcd"))
    got = reviewlog.merge([a, b], {"b": b, "c": c, "d": d}, {"a", "d"})
    assert [r["id"] for r in got] == ["b", "c"]
    assert reviewlog.merge([a], {}, set()) == [a]


def test_a_kept_link_is_the_same_file_or_a_copy_without_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "p.json.journal"
    source.write_bytes(b"journal")
    target = tmp_path / "p.json.journal.prev"
    target.write_bytes(b"older")
    stale = target.with_name(target.name + f".{os.getpid()}.tmp")
    stale.write_bytes(b"left by a crash")
    keep_link(source, target)
    assert os.path.samefile(source, target)
    assert not stale.exists()

    def no_links(src: object, dst: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    other = tmp_path / "copy"
    keep_link(source, other)
    assert other.read_bytes() == b"journal" and not os.path.samefile(source, other)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "copy",
        "p.json.journal",
        "p.json.journal.prev",
    ]


def test_undos_come_out_of_the_month_they_name_or_every_month(tmp_path: Path) -> None:
    early, late = _review("e", _sept(9)), _review("l", "2026-10-02T09:00:00+00:00")
    fold = reviewlog.Fold().add_events([_record(early), _record(late)])  # type: ignore[list-item]
    assert fold.touched() == {"2026-09", "2026-10"}
    db = tmp_path / "p.json"
    assert fold.write(db) == 2  # into a store never compacted: sealed by generation 1
    assert files.months(db) == ["2026-09", "2026-10"]
    assert monthfile.read_copy(reviewlog.month_path(db, "2026-10"), "2026-10").gen == 1

    # An undo that names its answer's time is taken out of that month only.
    fold = reviewlog.Fold().add_events(
        [{"op": "undo", "review_id": "l", "at": late["reviewed_at"]}]  # type: ignore[list-item]
    )
    assert fold.unplaced == set() and fold.removes == {"2026-10": {"l"}}
    assert fold.touched() == {"2026-10"}
    assert fold.write(db) == 1
    assert reviewlog.read_month(reviewlog.month_path(db, "2026-10")) == []

    # Without a time, every month is looked through.
    fold = reviewlog.Fold().add_events([{"op": "undo", "review_id": "e"}])  # type: ignore[list-item]
    assert fold.unplaced == {"e"} and fold.touched() == set()
    assert fold.write(db) == 1  # September lost it; October was already empty
    assert reviewlog.read_month(reviewlog.month_path(db, "2026-09")) == []


def test_an_answer_undone_in_the_same_fold_is_never_written(tmp_path: Path) -> None:
    kept, undone = _review("k", _sept(10)), _review("u", _sept(9))
    fold = reviewlog.Fold().add_events(
        [_record(kept), _record(undone), {"op": "undo", "review_id": "u"}]  # type: ignore[list-item]
    )
    assert fold.unplaced == set()
    assert fold.adds == {"2026-09": {"k": kept}}
    assert fold.removes == {"2026-09": {"u"}}
    db = tmp_path / "p.json"
    assert fold.write(db) == 1
    assert reviewlog.read_month(reviewlog.month_path(db, "2026-09")) == [kept]
    # An undo of an answer no month holds writes nothing.
    fold = reviewlog.Fold().add_events(
        [{"op": "undo", "review_id": "z", "at": "2026-11-02T09:00:00+00:00"}]  # type: ignore[list-item]
    )
    assert fold.touched() == {"2026-11"}
    assert fold.write(db) == 0
    assert files.months(db) == ["2026-09"]
    # ...and doesn't keep a later month from being written.
    later = _review("n", "2026-12-02T09:00:00+00:00")
    fold = reviewlog.Fold().add_events(
        [{"op": "undo", "review_id": "z", "at": "2026-11-02T09:00:00+00:00"}, _record(later)]  # type: ignore[list-item]
    )
    assert fold.write(db) == 1
    assert files.months(db) == ["2026-09", "2026-12"]


def test_a_fold_writes_in_time_order_seals_with_the_next_generation_and_updates_the_manifest(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    late, early = _review("b", _sept(11)), _review("a", _sept(9))
    manifest: Manifest = {}
    assert reviewlog.Fold().add_events([_record(late), _record(early)]).write(db, manifest, 3) == 1  # type: ignore[list-item]
    assert manifest == {"2026-09": [2, 4]}
    file = reviewlog.month_path(db, "2026-09")
    assert reviewlog.read_month(file) == [early, late]
    assert monthfile.read_copy(reviewlog.mirror_path(file), "2026-09").gen == 4

    # The same fold again (a compaction redone): nothing written, the manifest kept up.
    again: Manifest = {"2026-09": [2, 4]}
    events = [_record(late), _record(early)]
    assert reviewlog.Fold().add_events(events).write(db, again, 3) == 0  # type: ignore[arg-type]
    assert again == {"2026-09": [2, 4]}
    # ...and a mirror that lags behind is brought up to date.
    reviewlog.write_month(file, [early], 4, mirror_only=True)
    inode = file.stat().st_ino
    assert reviewlog.Fold().add_events(events).write(db, None, 3) == 0  # type: ignore[arg-type]
    assert reviewlog.mirror_matches(file, [early, late], 4)
    assert file.stat().st_ino == inode  # the month file itself is left alone


def test_a_month_from_before_seals_is_sealed_as_it_is_in_time_order(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    file = reviewlog.month_path(db, "2026-09")
    file.parent.mkdir()
    late, early = _review("b", _sept(11)), _review("a", _sept(9))
    file.write_text(json.dumps({"reviews": {"1": late, "2": early}}))
    assert monthfile.read_copy(file, "2026-09").gen is None
    manifest: Manifest = {}
    fold = reviewlog.Fold().add_events([{"op": "undo", "review_id": "zz"}])  # type: ignore[list-item]
    assert fold.write(db, manifest, 7) == 1
    assert manifest == {"2026-09": [2, 8]}
    assert reviewlog.read_month(file) == [early, late]


def test_a_fold_into_a_damaged_or_missing_listed_month_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    events = [_record(_review("a", _sept(9)))]
    with pytest.raises(StoreError) as caught:
        reviewlog.Fold().add_events(events).write(db, {"2026-09": [1, 1]}, 1)  # type: ignore[arg-type]
    assert caught.value.message == "review log file is missing (the snapshot lists it)"
    assert (tmp_path / "p.json.log").is_dir()
    file = reviewlog.month_path(db, "2026-09")
    file.write_bytes(b"garbage")
    with pytest.raises(StoreError) as caught:
        reviewlog.Fold().add_events(events).write(db, None, 1)  # type: ignore[arg-type]
    assert caught.value.path == file
    assert file.read_bytes() == b"garbage"
    assert not reviewlog.mirror_path(file).exists()


def test_a_fold_makes_the_log_folder_and_the_folders_above_it(tmp_path: Path) -> None:
    db = tmp_path / "new" / "p.json"
    fold = reviewlog.Fold().add_events([_record(_review("a", _sept(9)))])  # type: ignore[list-item]
    assert fold.write(db) == 1
    assert reviewlog.read_month(reviewlog.month_path(db, "2026-09")) == [_review("a", _sept(9))]
