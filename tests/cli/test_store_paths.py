"""What `--db` may point at: a folder or someone else's file is refused alike by every command
(nothing renamed, moved or created, no lock file), and a store another quizzer writes."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("training-efficiency/lora", RU_BN)

#: Every command that takes --db, as a user would type it (``{db}`` and ``{out}`` filled in).
DB_COMMANDS = [
    ["doctor", "--db", "{db}"],
    ["doctor", "--check", "--db", "{db}"],
    ["stats", "--db", "{db}"],
    ["undo", "--db", "{db}"],
    ["leeches", "--db", "{db}"],
    ["leeches", "--db", "{db}", "--unsuspend", KEY.id],
    ["optimize", "--db", "{db}"],
    ["log", "export", "--csv", "{out}", "--db", "{db}"],
    ["settings", "--db", "{db}"],
    ["settings", "--db", "{db}", "--set", "new_per_day=5"],
    ["export", "anki", "--with-progress", "--out", "{out}.apkg", "--db", "{db}"],
    ["study", "--db", "{db}"],
]


def _argv(command: list[str], db: Path, out: Path) -> list[str]:
    return [a.format(db=db, out=out) for a in command]


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (``None`` for a folder)."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes()
        for p in sorted(root.rglob("*"))
    }


def _run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    return code, captured.err


@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_folder_as_db_is_refused_the_same_way_by_every_command(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "important.txt").write_text("keep\n", encoding="utf-8")
    before = _tree(tmp_path)
    code, err = _run(_argv(command, notes, tmp_path / "out.file"), capsys)
    assert code == 3, err
    assert err.startswith(
        f"quizzer: error: {notes}: not a quizzer progress store (a folder without "
        "quizzer-store.json)"
    )
    assert "hint: give a new or empty folder, or a store folder" in err
    assert _tree(tmp_path) == before  # nothing renamed, moved or created (no .lock, no .damaged-)


@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_file_that_is_no_store_is_refused_and_left_alone(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# my notes\n\nnot a progress store\n", encoding="utf-8")
    before = _tree(tmp_path)
    code, err = _run(_argv(command, readme, tmp_path / "out.file"), capsys)
    assert code == 3, err
    assert f"{readme}: not a quizzer progress store" in err
    assert _tree(tmp_path) == before  # README.md byte for byte, and no README.md.lock


def test_the_app_refuses_a_folder_with_the_same_message(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "important.txt").write_text("keep\n", encoding="utf-8")
    env = {**os.environ, "QUIZZER_DB": str(notes)}
    result = subprocess.run(
        [sys.executable, "-m", "quizzer"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert f"{notes}: not a quizzer progress store (a folder without" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes"]
    assert [p.name for p in notes.iterdir()] == ["important.txt"]


def _answer_nine(store) -> None:
    for i in range(9):
        store.record(CardKey(f"training-efficiency/c{i}", RU_BN), 3, NOW + timedelta(seconds=i))


@pytest.mark.parametrize("check", [True, False], ids=["--check", "repair"])
def test_doctor_while_a_session_is_open_writes_nothing_in_the_store(
    tmp_path: Path, capsys, check: bool
) -> None:
    db = tmp_path / "p.json"
    with open_store(db, tz=UTC) as store:
        _answer_nine(store)
        logs = {p: p.read_bytes() for p in db.rglob("*.log")}
        code = main(["doctor", *(["--check"] if check else []), "--db", str(db)])
        out = capsys.readouterr().out
        assert code == 0, out
        assert f"{db}: ok (9 cards" in out
        assert {p: p.read_bytes() for p in db.rglob("*.log")} == logs
        store.record(KEY, 4, NOW + timedelta(minutes=1))  # the writer carries on
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"{db}: ok (10 cards" in out


def test_a_second_writer_is_refused_and_readers_work_meanwhile(tmp_path: Path, capsys) -> None:
    db = tmp_path / "p.json"
    out = tmp_path / "out.file"
    with open_store(db, tz=UTC) as store:
        _answer_nine(store)
        code, err = _run(["undo", "--db", str(db)], capsys)
        assert code == 3 and "another quizzer on this machine is writing" in err
        readers = [
            ["stats", "--db", "{db}"],
            ["leeches", "--db", "{db}"],
            ["settings", "--db", "{db}"],
            ["log", "export", "--csv", "{out}", "--db", "{db}"],
            ["export", "anki", "--with-progress", "--out", "{out}.apkg", "--db", "{db}"],
            ["doctor", "--check", "--db", "{db}"],
        ]
        for reader in readers:
            code, err = _run(_argv(reader, db, out), capsys)
            assert code == 0, (reader, err)  # the hint is true: each works while it's held
