"""A store file nested too deeply to parse is damage: every command says so, the doctor repairs it.

JSON's decoders follow nesting by recursion and give up with ``RecursionError``, which the
store's "damaged, run the doctor" handling used not to catch: one ``[[[[…`` in the snapshot
made every command, ``doctor`` included, end in a traceback. Each case here plants such a
value in one real file of a real store and runs the real commands.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.progress import journal_path, reviewlog
from quizzer.progress.files import stats_path
from tests.progress import store_builder as sb

DEEP = b"[" * 200_000 + b"]" * 200_000


def _into_snapshot(db: Path) -> Path:
    raw = db.read_bytes()
    assert b'"settings":{' in raw
    db.write_bytes(raw.replace(b'"settings":{', b'"settings":{"x":' + DEEP + b",", 1))
    return db


def _into_journal(db: Path) -> Path:
    body = b'{"t":' + DEEP + b"}"
    with open(journal_path(db), "ab") as fh:
        fh.write(b"%08x " % zlib.crc32(body) + body + b"\n")
    return journal_path(db)


def _into_month(db: Path) -> Path:
    file = reviewlog.month_path(db, "2026-08")
    raw = file.read_bytes()
    assert raw.startswith(b'{"reviews":{')
    file.write_bytes(b'{"x":' + DEEP + b"," + raw[1:])
    return file


def _into_stats(db: Path) -> Path:
    file = stats_path(db)
    head = file.read_bytes().partition(b"\n")[0].split(b" ")
    body = b'{"x":' + DEEP + b"}"
    file.write_bytes(b"%s %s %08x\n" % (head[0], head[1], zlib.crc32(body)) + body)
    return file


DAMAGE: dict[str, Callable[[Path], Path]] = {
    "snapshot": _into_snapshot,
    "journal": _into_journal,
    "month-file": _into_month,
    "stats-cache": _into_stats,
}


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "decks"))
    (tmp_path / "decks").mkdir()
    db = tmp_path / "s" / "p.json"
    db.parent.mkdir()
    return db, sb.build(db, july=4, august=5, pending=3)


def _run(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str]:
    code = main(list(words))
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "RecursionError" not in text, text
    return code, text


def _log_ids(db: Path) -> list[str]:
    with sb.open_db(db, read_only=True) as opened:
        return [r.id for r in opened.reviews()]


@pytest.mark.parametrize("where", list(DAMAGE))
def test_a_deeply_nested_store_file_is_damage_that_the_doctor_repairs(
    store: tuple[Path, list[str]], where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = store
    damaged = DAMAGE[where](db)
    for command in (["stats"], ["log", "export", "--csv", "-"], ["leeches"]):
        code, text = _run(capsys, *command, "--db", str(db))
        assert code in (0, 3), (command, code, text)
        if code == 3:
            assert "damaged" in text and "quizzer doctor" in text, text
    code, text = _run(capsys, "doctor", "--check", "--db", str(db))
    if where in ("snapshot", "month-file"):  # the files the store can't do without
        assert code != 0 and "nested too deeply" in text, text
    if where == "snapshot":
        code, text = _run(capsys, "stats", "--db", str(db))
        assert code == 3 and "quizzer doctor" in text and str(db) in text, text
    code, text = _run(capsys, "doctor", "--db", str(db))
    assert code == 0, text
    code, text = _run(capsys, "doctor", "--check", "--db", str(db))
    assert code == 0 and "ok" in text, text
    assert _log_ids(db) == ids  # nothing lost: rebuilt from the backup, journal and mirrors
    assert DEEP not in damaged.read_bytes() if damaged.exists() else True


def test_a_deeply_nested_store_given_to_merge_is_refused_and_nothing_changes(
    store: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = store
    other = tmp_path / "other" / "p.json"
    other.parent.mkdir()
    sb.build(other, july=2, august=0, pending=0)
    _into_snapshot(other)
    before = {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()}
    theirs = other.read_bytes()
    code, text = _run(capsys, "merge", str(other), "--db", str(db))
    assert code == 2, text
    assert str(other) in text and "nested too deeply" in text and "quizzer doctor" in text, text
    assert {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()} == before
    assert other.read_bytes() == theirs
