"""Hostile input never bricks the app nor reaches the terminal.

Names the importer takes (``--deck``, the glossary's file name) obey the deck loader's
rules before anything is written; a deck file the loader can't read is skipped with a
warning; every path and name echoed to the terminal is escaped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.progress import open_store
from tests.cli_support import run, write

#: OSC 52 writes "evil" to the clipboard, CSI 2J clears the screen.
EVIL = "\x1b]52;c;ZXZpbA==\x1b[2Jevil"


def assert_no_escapes(*texts: str) -> None:
    for text in texts:
        assert "\x1b" not in text and "\u202e" not in text and "\x7f" not in text, text


# -- 9. names the loader would refuse are refused before writing ------------------------------


@pytest.mark.parametrize("name", ["a\nb", "a\rb", "a\x1bb", "a\x7fb", "a\u202eb"])
def test_a_deck_name_the_loader_refuses_is_refused_before_writing(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    glossary = write(tmp_path / "g.txt")
    code, out, err = run(capsys, "import", str(glossary), "--deck", name)
    assert code == 2
    assert "--deck" in err and "control character" in err
    assert_no_escapes(out, err)
    assert list(decks.iterdir()) == []
    code, out, err = run(capsys, "decks")
    assert code == 0 and not err


def test_a_glossary_file_name_with_an_escape_is_refused_before_writing(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = write(tmp_path / f"{EVIL}.txt")
    code, out, err = run(capsys, "import", str(glossary), "--deck", "evil")
    assert code == 2
    assert "file name contains U+001B" in err
    assert "\\x1b]52;c;ZXZpbA==\\x1b[2Jevil.txt" in err
    assert_no_escapes(out, err)
    assert list(decks.iterdir()) == []


def test_a_deck_name_too_long_for_a_file_name_says_so(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = write(tmp_path / "g.txt")
    code, _, err = run(capsys, "import", str(glossary), "--deck", "x" * 300)
    assert code == 2
    assert "deck name is too long" in err and "--deck" in err
    assert "writable" not in err
    assert list(decks.iterdir()) == []


BROKEN = 'format = 1\nid = "broken"\nname = "a\\u001bb"\n'


@pytest.fixture
def broken_deck(decks: Path) -> Path:
    """A user deck file the loader refuses (as main's importer wrote with --deck $'a\\eb')."""
    return write(decks / "broken.toml", BROKEN)


@pytest.mark.usefixtures("broken_deck")
def test_a_deck_file_the_loader_refuses_is_skipped_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "progress.json")
    with open_store(db):
        pass
    code, out, err = run(capsys, "decks", "--json")
    assert code == 0
    assert [d["id"] for d in json.loads(out)] == ["quantization", "training-efficiency"]
    assert "warning" in err and "broken.toml" in err and "U+001B" in err
    assert_no_escapes(err)
    code, out, err = run(capsys, "show", "training-efficiency", "--json")
    assert code == 0 and "broken.toml" in err
    code, out, err = run(capsys, "stats", "--db", db, "--json")
    assert code == 0 and "broken.toml" in err
    # A later import (of another deck) still works, and so does its deck.
    code, out, err = run(capsys, "import", str(write(tmp_path / "g.txt")), "--deck", "mine")
    assert code == 0, err
    code, out, err = run(capsys, "show", "mine", "--json")
    assert code == 0 and len(json.loads(out)) == 2
    # The screens' deck list (the home screen's) skips it too.
    from quizzer.services.library import library_decks

    assert {d.id for d in library_decks()} == {"quantization", "training-efficiency", "mine"}
    # validate still names it.
    code, out, err = run(capsys, "validate")
    assert code == 2 and "broken.toml" in err


# -- 12. paths and names echoed to the terminal are escaped ----------------------------------


def test_paths_in_the_import_report_are_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / f"{EVIL}-decks"
    glossary = write(tmp_path / "g.txt")
    for extra in (["--dry-run"], [], []):  # would write, created, unchanged
        code, out, err = run(capsys, "import", str(glossary), "--into", str(into), *extra)
        assert code == 0, err
        assert_no_escapes(out, err)
        assert "\\x1b]52;c;ZXZpbA==\\x1b[2Jevil-decks" in out


def test_paths_in_import_errors_and_validate_are_escaped(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / f"{EVIL}.txt"
    code, out, err = run(capsys, "import", str(missing))
    assert code == 2 and "evil" in err
    assert_no_escapes(out, err)
    folder = tmp_path / f"{EVIL}-folder"
    folder.mkdir()
    deck = folder / "training-efficiency.toml"
    from quizzer.paths import bundled_decks_dir

    deck.write_bytes((bundled_decks_dir() / "training-efficiency.toml").read_bytes())
    code, out, err = run(capsys, "validate", str(deck))
    assert code == 0
    assert "ok  " in out and "\\x1b[2Jevil-folder" in out
    assert_no_escapes(out, err)
    write(folder / "bad.toml", "format = [")
    code, out, err = run(capsys, "validate", str(folder))
    assert code == 2 and "bad.toml" in err
    assert_no_escapes(out, err)


def test_the_export_out_folder_error_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / f"{EVIL}-missing" / "x.apkg"
    code, out, err = run(
        capsys, "export", "anki", "--out", str(out_file), "--db", str(tmp_path / "p.json")
    )
    assert code == 2 and "evil-missing" in err
    assert_no_escapes(out, err)


def test_shown_escapes_controls_and_undecodable_bytes_only() -> None:
    from quizzer.errors import shown

    assert shown("a\x1b[2Jb\nc\u202ed\x7f") == "a\\x1b[2Jb\\x0ac\\u202ed\\x7f"
    assert shown("বাংলা العربية\tok") == "বাংলা العربية\tok"
    assert shown(Path("x\udcff.txt")) == "x\\xff.txt"


def test_json_output_escapes_what_a_terminal_would_act_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "decks\u202e\x9b2J\udcff"
    folder.mkdir()
    monkeypatch.setenv("QUIZZER_DECKS", str(folder))
    glossary = write(tmp_path / "g.txt")
    code, out, err = run(capsys, "import", str(glossary), "--deck", "mine", "--json")
    assert code == 0, err
    assert_no_escapes(out)
    assert "\x9b" not in out and "\\u202e\\u009b2J\\udcff" in out
    assert json.loads(out)["path"] == str(folder / "mine.toml")
    code, out, err = run(capsys, "decks", "--json")
    assert code == 0 and "\x9b" not in out and "\u202e" not in out
    assert str(folder / "mine.toml") in [d.get("path") for d in json.loads(out)]


def test_messages_of_other_commands_escape_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / f"{EVIL}.json"
    _code, out, err = run(capsys, "doctor", "--check", "--db", str(db))
    assert "evil" in out + err
    assert_no_escapes(out, err)
