"""`quizzer merge` of files that are not what it wants: foreign notes, damage, other formats.

The packages are Anki's own exports; damage is done to copies of them (a zip cut
short, a collection that won't decompress, a newer format), never hand-made happy paths.
"""

from __future__ import annotations

import re
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from anki.collection import Collection
from anki.decks import DeckId

from quizzer.anki import export_apkg
from quizzer.anki.model import directions_for
from quizzer.anki.package_reader import meta_version, read_package
from quizzer.cli.main import main
from quizzer.errors import InputError
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.services.merge import merge_file
from tests.anki_support import export_with_scheduling, import_package
from tests.factories import ru_bn_deck

DIRECTIONS = directions_for(("meaning",), [("ru", "bn")])


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """Anki's .apkg of a collection with quizzer's notes and two notes of its own, each
    note type answered once, one quizzer card suspended there."""
    tmp = tmp_path_factory.mktemp("mixed")
    ours = tmp / "quizzer.apkg"
    export_apkg([ru_bn_deck("demo", 3)], ours, directions=DIRECTIONS)
    (tmp / "anki").mkdir()
    col = Collection(str(tmp / "anki" / "collection.anki2"))
    try:
        import_package(col, ours)
        basic = col.models.by_name("Basic")
        assert basic is not None
        for front in ("own 1", "own 2"):
            note = col.new_note(basic)
            note["Front"], note["Back"] = front, "back"
            col.add_note(note, DeckId(1))
        for query in ("Front:own*", "note:quizzer*"):
            card = col.get_card(col.find_cards(query)[0])
            card.start_timer()
            col.sched.answerCard(card, 3)
        col.sched.suspend_cards([col.find_cards("note:quizzer*")[-1]])
        out = export_with_scheduling(col, tmp / "mixed.apkg")
    finally:
        col.close()
    return out


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "store" / "progress.json"
    path.parent.mkdir()
    with open_store(path) as store:
        store.record("demo/c0|ru:term>bn:definition", 3, _now(), Answer())
    return path


def _now() -> datetime:
    return datetime.now(UTC)


def _files(db: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in db.parent.rglob("*") if p.is_file()}


def test_notes_quizzer_did_not_export_are_counted_and_left_alone(mixed, db, capsys):
    history = read_package(mixed)
    assert history.collection == "collection.anki21b"
    assert history.foreign_notes == 2 and history.foreign_rows == 1
    assert len(history.rows) == 1 and len(history.suspended) == 1
    assert main(["merge", str(mixed), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "added 1 answers" in out
    assert "2 notes quizzer didn't export, 1 answers on other cards: left alone" in out
    assert "1 cards suspended there, suspended here" in out
    with open_store(db, read_only=True) as store:
        assert len(store.reviews()) == 2
        suspended = [c for c in store.cards() if c.suspended]
        assert [c.card_id for c in suspended] == sorted(history.suspended)


def _rewrite(source: Path, target: Path, change) -> Path:
    """A copy of the package at ``source`` with ``change(name, data)`` applied to each entry."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for info in zin.infolist():
            data = change(info.filename, zin.read(info))
            if data is not None:
                zout.writestr(info, data)
    return target


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("truncated", "damaged Anki package: the zip is cut short"),
        ("bad zstd", "damaged Anki package: collection.anki21b can't be decompressed"),
        ("not sqlite", "damaged Anki package: collection.anki21b can't be decompressed"),
        ("no collection", "not an Anki package: no Anki collection inside the zip"),
        ("newer format", "a format quizzer doesn't know (version 9)"),
        ("bad meta", "damaged Anki package: its meta entry can't be read"),
    ],
)
def test_damaged_or_foreign_packages_exit_2_and_leave_the_store(
    mixed, db, tmp_path, capsys, damage, message
):
    bad = tmp_path / "bad.apkg"
    if damage == "truncated":
        bad.write_bytes(mixed.read_bytes()[: len(mixed.read_bytes()) // 2])
    else:
        changes = {
            "bad zstd": lambda n, d: d[:8] + b"\xff" * 64 + d[72:] if n.endswith("21b") else d,
            "not sqlite": lambda n, d: b"hello" * 10 if n.endswith("21b") else d,
            "no collection": lambda n, d: None if n.startswith("collection") else d,
            "newer format": lambda n, d: b"\x08\x09" if n == "meta" else d,
            "bad meta": lambda n, d: b"\x08\xff" if n == "meta" else d,
        }
        _rewrite(mixed, bad, changes[damage])
    before = _files(db)
    original = bad.read_bytes()
    assert main(["merge", str(bad), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(bad) in err, err
    assert "hint:" in err and "Traceback" not in err
    assert _files(db) == before
    assert bad.read_bytes() == original


def test_a_zip_that_is_no_anki_collection(mixed, tmp_path):
    bad = _rewrite(mixed, tmp_path / "odd.apkg", lambda n, d: d)
    with zipfile.ZipFile(bad, "a") as z:
        z.writestr("collection.anki21b_", b"")
    plain = tmp_path / "sqlite.apkg"
    with zipfile.ZipFile(plain, "w") as z:
        import sqlite3

        conn = sqlite3.connect(":memory:")
        conn.execute("create table t (x)")
        z.writestr("collection.anki2", conn.serialize())
    with pytest.raises(InputError, match="is not an Anki collection"):
        merge_file(plain, tmp_path / "p.json")
    assert not (tmp_path / "p.json").exists()


def test_meta_version_reads_the_protobuf():
    assert meta_version(b"\x08\x03") == 3
    assert meta_version(b"") == 0
    assert meta_version(b"\x12\x02ab\x08\x02") == 2  # an unknown field before it is skipped


def test_dry_run_into_a_store_not_yet_made_creates_nothing(mixed, tmp_path, capsys):
    db = tmp_path / "none" / "progress.json"
    assert main(["merge", str(mixed), "--dry-run", "--db", str(db)]) == 0
    assert "would add 1 answers" in capsys.readouterr().out
    assert not db.parent.exists() or not any(db.parent.iterdir())


class _Tty:
    """A stderr that says it is a terminal and keeps what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_bar_only_on_a_terminal(mixed, db, monkeypatch, capsys):
    tty = _Tty()
    monkeypatch.setattr("sys.stderr", tty)
    assert main(["merge", str(mixed), "--db", str(db)]) == 0
    assert re.search(r"replay \[#+\] 1/1", tty.text)  # the one card answered there
    assert re.search(r"write \[#+\] (\d+)/\1\n", tty.text)  # a full bar, then a new line
    monkeypatch.undo()
    capsys.readouterr()
    assert main(["merge", str(mixed), "--db", str(db)]) == 0
    assert "[" not in capsys.readouterr().err


def test_rows_quizzer_exported_are_told_by_their_millisecond(tmp_path):
    from datetime import UTC, datetime

    from quizzer.anki.package_reader import AnkiHistory, RevlogRow
    from quizzer.scheduling.review import Review
    from quizzer.services.merge import anki_reviews, epoch_ms

    card = "demo/c0|ru:term>bn:definition"
    at = datetime(2026, 5, 1, 8, 0, 0, 123000, tzinfo=UTC)
    logged = Review("r1", card, at, 3, "flip", 1000)
    ms = epoch_ms(at)
    history = AnkiHistory(path=tmp_path, collection="collection.anki21b")
    history.rows = [
        RevlogRow(ms, card, 3, 1000, 0),  # the export's own row
        RevlogRow(ms + 3, card, 3, 1000, 0),  # bumped: other cards took ms .. ms+2
        RevlogRow(ms + 400, card, 1, 800, 1),  # answered in Anki
        RevlogRow(ms + 400, card, 1, 800, 1),  # the same row twice
        RevlogRow(ms + 1, "demo/c1|ru:term>bn:definition", 4, 900, 0),  # another card
    ]
    added, known = anki_reviews(history, [logged])
    assert known == 3
    assert [(r.card_id[-22:], epoch_ms(r.reviewed_at) - ms) for r in added] == [
        ("c0|ru:term>bn:definition"[-22:], 400),
        ("c1|ru:term>bn:definition"[-22:], 1),
    ]
    assert added[0].id == anki_reviews(history, [logged])[0][0].id  # stable ids
