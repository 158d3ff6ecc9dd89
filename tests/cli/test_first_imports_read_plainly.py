"""What a new learner reads importing the decks they have: a header row mixing bare language
names and named sides, Anki's text export with columns that hold no text, and the last line's
count of concepts."""

from __future__ import annotations

import pytest

from quizzer.library.decks import read_deck
from tests.cli_support import run, write


def test_columns_naming_their_side_come_first_and_bare_ones_take_the_rest(decks, tmp_path, capsys):
    # `en` alone would be English's term, but `term_en` names it: `en` is the definition.
    source = write(
        tmp_path / "words.csv",
        "en,es,term_en,definition_es\n"
        "a place where books are kept,biblioteca,library,lugar donde se guardan libros\n",
    )
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert "column 1 (en): en definition (by its name)" in out
    assert "column 3 (term_en): en term (by its name)" in out
    (concept,) = read_deck(decks / "words.toml").concepts
    assert concept.text("en", "term") == "library"
    assert concept.text("en", "definition") == "a place where books are kept"
    assert concept.text("es", "term") == "biblioteca"
    # And the last line counts one concept as one.
    assert "(1 concept; 1 new, 0 updated, 0 unchanged)" in out


def test_ankis_text_export_names_columns_by_their_place_in_the_file(decks, tmp_path, capsys):
    source = write(
        tmp_path / "notes.txt",
        "#separator:tab\n#html:true\n#notetype column:1\n#deck column:2\n#tags column:5\n"
        "Basic\tSpanish\tla biblioteca de la ciudad\tthe library of the city\t\n"
        "Basic\tSpanish\t<b>el ordenador</b> de mi casa\tthe computer in my house\tnouns\n",
    )
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert "column 3: es term" in out and "column 4: en term" in out
    assert (
        "columns 1 (#notetype column), 2 (#deck column), 5 (#tags column): no texts, left out"
        in out
    )
    concept = read_deck(decks / "words.toml").concepts[1]
    assert concept.text("es", "term") == "el ordenador de mi casa"


def test_a_list_with_its_own_separator_is_told_to_say_it(decks, tmp_path, capsys):
    # No table reading finds " - " by itself: the file is read as a glossary and refused,
    # and the hint gives the command that reads it.
    source = write(
        tmp_path / "words.txt", "la biblioteca - the library\nel ordenador - the computer\n"
    )
    code, _out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 2 and not list(decks.iterdir())
    command = f"quizzer import {source} --separator ' - '"
    assert (
        f"hint: is it a list of terms and definitions separated by ' - '? then say so: {command}"
        in err
    )
    code, out, err = run(
        capsys,
        "import",
        str(source),
        "--deck",
        "words",
        "--separator",
        " - ",
        "--columns",
        "es:term,en:term",
    )
    assert code == 0, err
    assert "2 new" in out


@pytest.mark.parametrize(
    ("columns", "message", "hint"),
    [
        (
            "es:word,en:term",
            "--columns: column 1 ('es:word'): unknown side 'word'",
            "LANG:term or LANG:definition",
        ),
        ("es", "--columns keeps fewer than two columns; a card needs two texts", "es:term,en:term"),
        ("es:term,-", "--columns keeps fewer than two columns", "es:term,en:term"),
    ],
)
def test_columns_that_make_no_card_say_what_to_give(
    decks, tmp_path, capsys, columns, message, hint
):
    source = write(
        tmp_path / "words.txt", "la biblioteca\tthe library\nel ordenador\tthe computer\n"
    )
    code, _out, err = run(capsys, "import", str(source), "--columns", columns)
    assert code == 2 and not list(decks.iterdir())
    first, _, given = err.partition("\n  hint: ")
    assert first.startswith(f"quizzer: error: {source}: {message}"), err
    assert hint in given and "Traceback" not in err


def test_a_spreadsheets_semicolon_separated_list_imports(decks, tmp_path, capsys):
    # What a spreadsheet writes as CSV where the comma is the decimal mark.
    source = write(
        tmp_path / "words.csv",
        "la biblioteca de la ciudad;the library of the city\n"
        "el ordenador de mi casa;the computer in my house\n",
    )
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert "(semicolon between term and definition, one per line)" in out
    concept = read_deck(decks / "words.toml").concepts[1]
    assert concept.text("en", "term") == "the computer in my house"


def test_a_csv_holding_no_table_gets_the_separator_it_holds(decks, tmp_path, capsys):
    source = write(tmp_path / "words.csv", "la biblioteca - the library\nel ordenador - the pc\n")
    code, _out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 2 and not list(decks.iterdir())
    assert f"{source}: no table here" in err
    assert "hint: give the separator between term and definition: --separator ' - '" in err
