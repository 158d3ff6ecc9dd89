"""`quizzer import` of a damaged or odd table (Quizlet export, CSV, Anki's text export):
refused with exit code 2 and a message naming the file, the line, what is wrong and what to
do, in quizzer's words (never Python's), and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

import quizzer.decksources.delimited as delimited
from tests.cli_support import run, write

#: Longer than any row of cards (a text holds at most 10,000 characters), and longer than
#: the 131,072 characters Python's CSV reader takes in one field.
HUGE = "x" * 200_000


def _refused(
    capsys: pytest.CaptureFixture[str], decks: Path, source: Path, *args: str
) -> tuple[str, str]:
    """Import ``source``: its error's first line and its hint; checks exit 2, no
    traceback, nothing written."""
    code, out, err = run(capsys, "import", str(source), "--deck", "words", *args)
    assert code == 2, (out, err)
    assert "Traceback" not in err and "Error:" not in err, err
    assert not list(decks.iterdir())
    message, _, hint = err.partition("\n  hint: ")
    assert hint.strip(), err
    return message, hint


@pytest.mark.parametrize(
    ("text", "args", "line"),
    [
        # The header row itself: it once reached Python's CSV reader unchecked.
        (HUGE + ",y\nperro,dog\n", ("--columns", "es:term,en:term", "--separator", ","), 1),
        ("es,en\nperro,dog\n" + HUGE + ",y\n", (), 3),
        ("#separator:tab\nperro\tdog\n" + HUGE + "\ty\n", ("--columns", "es:term,en:term"), 3),
        ("el perro\tthe dog\n" + HUGE + "\ty\n", ("--columns", "es:term,en:term"), 2),
    ],
    ids=["header-row", "header-row-table", "anki-headers", "quizlet"],
)
def test_a_very_long_line_is_refused_with_its_line(decks, tmp_path, capsys, text, args, line):
    source = write(tmp_path / "long.csv", text)
    message, hint = _refused(capsys, decks, source, *args)
    assert message.startswith(f"quizzer: error: {source}:{line}: this row is 200,0")
    assert "at most 10,000" in message and "one row per line" in hint


def test_a_long_row_of_semicolon_separated_rows_is_read(decks, tmp_path, capsys):
    # Quizlet's "rows by semicolon" puts every card on one line: its length is no fault.
    rows = ";".join(f"el perro número {n}\tthe dog number {n}" for n in range(400))
    source = write(tmp_path / "quizlet.txt", rows + "\n")
    code, out, err = run(capsys, "import", str(source), "--columns", "es:term,en:term")
    assert code == 0, err
    assert "400 new" in out


def test_a_quote_never_closed_is_refused_at_its_row(decks, tmp_path, capsys):
    source = write(tmp_path / "words.csv", 'es,en\nperro,"dog\ngato,cat\ncasa,house\n')
    message, hint = _refused(capsys, decks, source)
    assert f"{source}:2: a double quote opened in this row is never closed" in message
    assert '("")' in hint


def test_a_quote_never_closed_past_the_csv_field_limit_is_refused(decks, tmp_path, capsys):
    lines = "".join(f"gato número {n},cat number {n}\n" for n in range(8_000))
    source = write(tmp_path / "words.csv", f'es,en\nperro,"dog\n{lines}')
    message, _hint = _refused(capsys, decks, source)
    assert f"{source}:2: a double quote opened in this row is never closed" in message


def test_a_language_name_for_lang_gets_its_tag_suggested(decks, tmp_path, capsys):
    # As for a glossary: `--lang farsi` names Persian, whose tag is fa.
    source = write(tmp_path / "words.txt", "ketab\tbook\nkhane\thouse\n")
    message, hint = _refused(capsys, decks, source, "--lang", "farsi")
    assert "--lang: unknown language 'farsi'" in message
    assert hint.startswith("did you mean fa (Persian)?")
    glossary = write(tmp_path / "glossary.txt", "Words\nA few\nbook\na thing to read\n")
    code, _out, err = run(capsys, "import", str(glossary), "--lang", "farsi")
    assert code == 2 and err.partition("\n")[0] == message
    message, hint = _refused(capsys, decks, source, "--lang", "xx-qq")
    assert "--lang: unknown language 'xx-qq' (not a BCP 47 language tag)" in message
    assert "es, pt-BR" in hint


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("es,en\nniño,child\ngato,cat\n".encode("latin-1"), ":2: not UTF-8 text"),
        (bytes(range(256)) * 4, ":1: a NUL byte at line 1"),
        (b"", ": the file is empty"),
        (b"\n \n", ": the file is empty"),
    ],
    ids=["latin-1", "binary", "empty", "blank"],
)
def test_a_csv_that_is_no_text_is_refused_as_a_table(decks, tmp_path, capsys, data, message):
    source = tmp_path / "words.csv"
    source.write_bytes(data)
    text, hint = _refused(capsys, decks, source)
    assert f"{source}{message}" in text
    # It is a table by its name: the hint speaks of tables, not of glossaries.
    assert "glossary" not in hint and "glossary" not in text, (text, hint)


def test_a_bom_and_crlf_table_reads_like_a_plain_one(decks, tmp_path, capsys):
    source = tmp_path / "words.csv"
    source.write_bytes("\ufeffes,en\r\nperro,dog\r\ngato,cat\r\n".encode())
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert "column 1 (es): es term (by its name)" in out and "2 new" in out


@pytest.mark.parametrize("name", ["words.csv", "words.apkg", "words.txt"])
def test_a_missing_file_is_named_as_a_file_not_a_glossary(decks, tmp_path, capsys, name):
    missing = tmp_path / name
    message, hint = _refused(capsys, decks, missing)
    assert message == f"quizzer: error: {missing}: can't read the file: No such file or directory"
    assert "check the path" in hint


def test_a_folder_named_as_a_table_is_refused_as_one(decks, tmp_path, capsys):
    folder = tmp_path / "words.csv"
    folder.mkdir()
    message, _hint = _refused(capsys, decks, folder)
    assert message == f"quizzer: error: {folder}: is a directory, not a table file"


def test_a_table_of_more_rows_than_one_import_takes_is_refused(
    decks, tmp_path, capsys, monkeypatch
):
    # 200,000 rows in truth: a smaller limit stands in, the check is the same.
    monkeypatch.setattr(delimited, "MAX_ROWS", 3)
    rows = "".join(f"la palabra {n}\tthe word {n}\n" for n in range(5))
    source = write(tmp_path / "words.txt", rows)
    message, hint = _refused(capsys, decks, source, "--columns", "es:term,en:term")
    assert (
        message
        == f"quizzer: error: {source}:4: the file has more than 3 rows, the most one import takes"
    )
    assert "split it into several files" in hint
