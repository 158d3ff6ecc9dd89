"""A damaged, foreign or odd Anki package given to `quizzer import` or `quizzer merge`:
refused with exit code 2, the file named, what is wrong in quizzer's words (never a Python
error's text), what to do with the command that was run (import advises importing a new
export, merge merging one), and nothing written.

The packages start from a real one: a collection made and exported by Anki's own engine.
"""

from __future__ import annotations

import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from anki.collection import Collection

import quizzer.anki.package_reader as package_reader
from quizzer.cli.main import main
from tests.anki_support import add_notes, export_with_scheduling

WORDS = [
    ("el perro de la casa", "the dog of the house"),
    ("un gato negro en el jardín", "a black cat in the garden"),
]


@pytest.fixture(scope="module")
def legacy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Anki's legacy export (``collection.anki21``, plain SQLite in the zip) of a small
    Basic-and-reversed deck, with scheduling."""
    folder = tmp_path_factory.mktemp("anki")
    (folder / "col").mkdir()
    col = Collection(str(folder / "col" / "collection.anki2"))
    try:
        add_notes(col, WORDS)
        return export_with_scheduling(col, folder / "words.apkg", legacy=True)
    finally:
        col.close()


def _with_collection(
    legacy: Path, out: Path, change: Callable[[sqlite3.Connection], object]
) -> Path:
    """``legacy`` again at ``out``, its collection changed by ``change``."""
    folder = out.parent / "unpacked"
    with zipfile.ZipFile(legacy) as archive:
        archive.extractall(folder)
    conn = sqlite3.connect(folder / "collection.anki21")
    with conn:
        change(conn)
    conn.close()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            archive.write(path, path.name)
    return out


def _bytes(data: bytes) -> Callable[[Path, Path], Path]:
    def make(_legacy: Path, out: Path) -> Path:
        out.write_bytes(data)
        return out

    return make


def _truncated(legacy: Path, out: Path) -> Path:
    data = legacy.read_bytes()
    out.write_bytes(data[: len(data) // 2])
    return out


def _entry(name: str, data: bytes) -> Callable[[Path, Path], Path]:
    def make(_legacy: Path, out: Path) -> Path:
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr(name, data)
        return out

    return make


def _no_cards_table(legacy: Path, out: Path) -> Path:
    return _with_collection(legacy, out, lambda conn: conn.execute("DROP TABLE cards"))


def _template_without_ord(legacy: Path, out: Path) -> Path:
    models = '{"1": {"name": "Basic", "flds": [{"name": "Front"}], "tmpls": [{"name": "x"}]}}'
    return _with_collection(
        legacy, out, lambda conn: conn.execute("UPDATE col SET models = ?", (models,))
    )


#: (how the file is made, what the error says)
CASES = {
    "truncated": (_truncated, "damaged Anki package: the zip is cut short or damaged"),
    "empty": (_bytes(b""), "not an Anki package: the file is empty"),
    "binary garbage": (_bytes(bytes(range(256)) * 8), "not an Anki package: it is no zip"),
    "text": (_bytes(b"el perro\tthe dog\n"), "not an Anki package: it is no zip archive"),
    "not sqlite": (
        _entry("collection.anki2", b"this is no database " * 20),
        "damaged Anki package: collection.anki2 is not an SQLite database",
    ),
    "no collection": (_entry("readme.txt", b"hello"), "no Anki collection inside the zip"),
    "missing table": (_no_cards_table, "collection.anki21 is not an Anki collection (no cards"),
    "damaged note types": (
        _template_without_ord,
        "damaged Anki package: the note types in collection.anki21 can't be read",
    ),
}


def _check_refused(err: str, bad: Path, message: str) -> str:
    """The hint of the error ``err``, checked: the file, the message, no Python texts."""
    assert err.startswith(f"quizzer: error: {bad}: "), err
    assert message in err, err
    assert "Traceback" not in err and "Error" not in err and "('" not in err, err
    _message, _, hint = err.partition("\n  hint: ")
    assert hint.strip(), err
    return hint


@pytest.mark.parametrize("case", list(CASES))
def test_import_refuses_it_and_advises_importing_a_new_export(
    legacy, tmp_path, monkeypatch, capsys, case
):
    decks = tmp_path / "decks"
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))
    make, message = CASES[case]
    bad = make(legacy, tmp_path / "bad.apkg")
    assert main(["import", str(bad), "--columns", "es:term,en:term"]) == 2
    hint = _check_refused(capsys.readouterr().err, bad, message)
    assert "merge" not in hint and ("import" in hint or "Anki (File > Export)" in hint), hint
    assert not decks.exists()


@pytest.mark.parametrize("case", list(CASES))
def test_merge_refuses_it_and_advises_merging_a_new_export(legacy, tmp_path, capsys, case):
    make, message = CASES[case]
    bad = make(legacy, tmp_path / "bad.apkg")
    db = tmp_path / "store" / "progress.json"
    assert main(["merge", str(bad), "--db", str(db)]) == 2
    hint = _check_refused(capsys.readouterr().err, bad, message)
    assert "import" not in hint, hint
    assert not db.parent.exists()


def test_a_collection_larger_than_the_limit_is_refused_by_its_size(
    legacy, tmp_path, monkeypatch, capsys
):
    # A zip bomb's collection claims more than the limit: a smaller limit stands in for it.
    monkeypatch.setattr(package_reader, "MAX_COLLECTION_BYTES", 4096)
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "decks"))
    assert main(["import", str(legacy), "--columns", "es:term,en:term"]) == 2
    err = capsys.readouterr().err
    hint = _check_refused(
        err, legacy, "damaged Anki package: collection.anki21 is too large: it claims "
    )
    assert "more than a package holds (0 MB at most)" in err and "import the new file" in hint
    assert not (tmp_path / "decks").exists()


def test_a_package_without_notes_says_which_deck_to_export(legacy, tmp_path, monkeypatch, capsys):
    def empty(conn: sqlite3.Connection) -> None:
        conn.execute("DELETE FROM notes")
        conn.execute("DELETE FROM cards")

    bad = _with_collection(legacy, tmp_path / "empty-deck.apkg", empty)
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "decks"))
    assert main(["import", str(bad)]) == 2
    hint = _check_refused(capsys.readouterr().err, bad, "the package holds no notes")
    assert "export the deck that holds your cards" in hint
    assert not (tmp_path / "decks").exists()


def test_merge_refuses_a_revlog_without_a_column_anki_writes(legacy, tmp_path, capsys):
    bad = _with_collection(
        legacy, tmp_path / "bad.apkg", lambda conn: conn.execute("ALTER TABLE revlog DROP ivl")
    )
    db = tmp_path / "store" / "progress.json"
    assert main(["merge", str(bad), "--db", str(db)]) == 2
    hint = _check_refused(
        capsys.readouterr().err, bad, "damaged Anki package: collection.anki21 lacks a table or"
    )
    assert "merge the new file" in hint and not db.parent.exists()
