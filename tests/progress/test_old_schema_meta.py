"""Damage in an old-schema snapshot is named and repaired, never a crash or a loop.

A store of schema 3 is migrated when opened; before this, one with ``"gen": "x"`` (or a
negative offset, or ``true`` for a number) made ``quizzer doctor`` and ``doctor --check``
end in a ``ValueError`` traceback (``int("x")`` reading its month manifest). Every version
wrote these fields as whole numbers, so they belong to the old schema's signature
(:func:`quizzer.progress.schema_of`): anything else is a damaged snapshot, named,
and repaired from ``P.bak``, the journals and the review log. Real files on disk.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.progress import SCHEMA_VERSION, files
from quizzer.progress.schema import schema_of
from tests.progress import store_builder


@pytest.mark.parametrize(
    ("name", "value"), [("gen", "x"), ("journal_offset", -1), ("seq", True), ("gen", 1.5)]
)
def test_an_old_schema_snapshot_with_a_bad_meta_number_is_named_and_repaired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, value: object
) -> None:
    db = tmp_path / "p.json"
    ids = store_builder.build(db, july=2, august=3, pending=3)
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["meta"]["1"]["schema"] = 3
    doc["meta"]["1"][name] = value
    bad = json.dumps(doc).encode()
    db.write_bytes(bad)
    with pytest.raises(ValueError, match=f"meta.{name} is not a whole number"):
        schema_of(doc)

    assert main(["stats", "--db", str(db)]) == 3  # store trouble
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"{db}: progress store is damaged" in err and f"meta.{name}" in err

    assert main(["doctor", "--check", "--db", str(db)]) != 0
    out = capsys.readouterr().out
    assert f"meta.{name} is not a whole number of 0 or more: {json.dumps(value)}" in out

    assert main(["doctor", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    (kept,) = tmp_path.glob("p.json.damaged-*")
    assert kept.read_bytes() == bad  # the damaged bytes, for a person to look at
    assert any("from the backup p.json.bak" in line for line in lines), lines
    assert json.loads(db.read_text(encoding="utf-8"))["meta"]["1"]["schema"] == SCHEMA_VERSION
    with store_builder.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"{db}: ok (")
    assert files.backup_path(db).exists()


@pytest.mark.parametrize("backup_schema", [SCHEMA_VERSION, 3])
def test_an_old_schema_snapshot_with_a_bad_card_state_is_repaired_not_refused_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], backup_schema: int
) -> None:
    """Before, ``doctor --check`` said "repairing migrates it" and ``doctor`` then failed
    on the bad value with the hint to run ``quizzer doctor``: a loop with no way out."""
    db = tmp_path / "p.json"
    ids = store_builder.build(db, july=2, august=3, pending=3)
    for path, schema in ((db, 3), (files.backup_path(db), backup_schema)):
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["meta"]["1"]["schema"] = schema
        if path == db:
            first = next(iter(doc["cards"]))
            doc["cards"][first]["due"] = "garbage"
            card_id = doc["cards"][first]["card_id"]
        path.unlink()  # P.bak may share the snapshot's inode
        path.write_text(json.dumps(doc), encoding="utf-8")

    assert main(["doctor", "--check", "--db", str(db)]) == 3
    out = capsys.readouterr().out
    assert (
        f'problem: {db}: the state of card {card_id} is invalid: due is not a time: "garbage"'
        in out
    )
    assert "repairing migrates it" not in out

    assert main(["doctor", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("repaired: rebuilt 4 card states from the backup") for line in lines)
    assert lines[-1] == f"{db}: ok (4 cards)"
    with store_builder.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
    assert main(["doctor", "--check", "--db", str(db)]) == 0


@pytest.mark.parametrize("top", [{"cards": {"1": 5}}, {"settings": 5}])
def test_an_old_schema_of_the_current_layout_with_bad_tables_is_rebuilt_from_the_backup(
    tmp_path: Path, top: dict[str, object]
) -> None:
    """Before, these were refused ("can't migrate … restore it from a backup") although
    ``P.bak``, the journals and the log were intact beside them."""
    from quizzer.progress import doctor

    db = tmp_path / "p.json"
    ids = store_builder.build(db, july=2, august=3, pending=3)
    doc = json.loads(db.read_text(encoding="utf-8"))
    doc["meta"]["1"]["schema"] = 3
    db.unlink()
    db.write_text(json.dumps({**doc, **top}), encoding="utf-8")
    report = doctor.repair(db)
    assert report.actions[0].startswith("kept the damaged store as p.json.damaged-")
    assert report.actions[1].startswith("rebuilt 4 card states from the backup p.json.bak")
    assert report.losses == []
    with store_builder.open_db(db, read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
