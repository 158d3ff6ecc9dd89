"""`quizzer import` of a Quizlet export and of CSV/TSV tables: told by content, one concept
per row, the report naming the format it read; bad rows refused with their line, exit 2,
nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.library.decks import read_deck
from tests.cli_support import run, write

#: A Quizlet export as Quizlet writes it by default: term TAB definition, a row per line.
QUIZLET = (
    "el perro de la casa\tthe dog of the house\n"
    "un gato negro\ta black cat\n"
    "la casa y el jardín\tthe house and the garden\n"
)

#: What Anki's "Notes in Plain Text" export writes (with GUIDs, HTML kept, tags).
ANKI_CSV = (
    "#separator:tab\n"
    "#html:true\n"
    "#guid column:1\n"
    "#notetype column:2\n"
    "#deck column:3\n"
    "#tags column:6\n"
    "ab1\tBasic (and reversed card)\tSpanish\tel perro de la casa\tthe dog of the house\t\n"
    "ab2\tBasic (and reversed card)\tSpanish\t<b>un gato</b> negro\ta black cat&nbsp;\tanimals\n"
    'ab3\tBasic (and reversed card)\tSpanish\t"la casa, el jardín"\tthe house, the garden\t\n'
)


def test_a_quizlet_export_imports_as_concepts(decks, tmp_path, capsys):
    source = write(tmp_path / "quizlet.txt", QUIZLET)
    code, out, _err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0
    assert "read as Quizlet export or two-column list (TAB between term and definition" in out
    assert "column 1: es term" in out and "column 2: en term" in out
    deck = read_deck(decks / "words.toml")
    assert [c.text("es", "term") for c in deck] == [
        "el perro de la casa",
        "un gato negro",
        "la casa y el jardín",
    ]
    assert deck.concepts[1].text("en", "term") == "a black cat"
    assert deck.concepts[1].entries["en"].term.source.line == 2
    # Importing again changes nothing.
    before = (decks / "words.toml").read_bytes()
    code, out, _err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0 and "0 new, 0 updated, 3 unchanged" in out
    assert (decks / "words.toml").read_bytes() == before


@pytest.mark.parametrize(
    ("text", "args", "rows_by"),
    [
        ("el perro,the dog\nun gato negro,a black cat, a cat\n", (), "comma"),
        ("el perro\tthe dog;un gato negro\ta black cat;", (), "semicolons"),
        ("el perro :: the dog\nun gato negro :: a black cat\n", ("--separator", " :: "), "' :: '"),
    ],
)
def test_quizlet_separators(decks, tmp_path, capsys, text, args, rows_by):
    source = write(tmp_path / "quizlet.txt", text)
    code, out, _err = run(
        capsys, "import", str(source), "--deck", "words", "--columns", "es:term,en:term", *args
    )
    assert code == 0, out
    assert rows_by in out
    deck = read_deck(decks / "words.toml")
    assert [(c.text("es", "term"), c.text("en", "term")) for c in deck][:2] == [
        ("el perro", "the dog"),
        ("un gato negro", "a black cat, a cat" if rows_by == "comma" else "a black cat"),
    ]


def test_an_anki_headed_csv_imports_with_its_guids(decks, tmp_path, capsys):
    source = write(tmp_path / "notes.txt", ANKI_CSV)
    code, out, _err = run(capsys, "import", str(source), "--deck", "words", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["format"].startswith("Anki notes as text (header lines")
    assert report["new"] == 3
    deck = read_deck(decks / "words.toml")
    cat = deck.concepts[1]
    assert cat.text("es", "term") == "un gato negro"  # HTML reduced to its text
    assert cat.text("en", "term") == "a black cat"
    assert deck.concepts[2].text("es", "term") == "la casa, el jardín"
    # Ids carry the GUID: an edited row updates its concept, whatever its text became.
    edited = ANKI_CSV.replace("a black cat&nbsp;", "a small black cat")
    edited = edited.replace("<b>un gato</b> negro", "un gato negro pequeño")
    write(source, edited)
    code, out, _err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0 and "0 new, 1 updated, 2 unchanged" in out
    again = read_deck(decks / "words.toml")
    assert [c.id for c in again] == [c.id for c in deck]
    assert again.concepts[1].text("en", "term") == "a small black cat"


def test_a_header_row_names_the_columns(decks, tmp_path, capsys):
    source = write(
        tmp_path / "table.csv",
        "term_es,definition_es,en\n"
        "el perro,un animal doméstico,the dog\n"
        "el gato,un pequeño felino,the cat\n",
    )
    code, out, _err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0
    assert "table with a header row" in out
    assert "column 2 (definition_es): es definition (by its name)" in out
    concept = read_deck(decks / "words.toml").concepts[0]
    assert concept.text("es", "definition") == "un animal doméstico"
    assert concept.text("en", "term") == "the dog"


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        (
            "el perro\tthe dog\nun gato negro\ta black cat\tun gato\ttres\n",
            ("--columns", "es:term,en:term,es:term"),
            "column 3 is a second es term",
        ),
        (
            "el perro\tthe dog\nel gato\t\n",
            ("--columns", "es:term,en:term"),
            "bad.txt:2: this row has fewer than two texts",
        ),
        (
            "#separator:tab\n#html:true\n{{c1::perro}}\tdog\n",
            ("--columns", "es:term,en:term"),
            "bad.txt:3: this row holds cloze deletions",
        ),
        (
            "el perro\tthe dog\n",
            ("--columns", "xx-yy-zz:term,en:term"),
            "--columns: column 1 ('xx-yy-zz:term') names no language",
        ),
        ("a;b\n", ("--separator", ":"), "bad.txt:1: no colon between term and definition"),
        ("perro\tdog\ngato\tcat\n", (), "can't tell the language of column 1"),
    ],
)
def test_bad_input_names_the_line_exits_2_and_writes_nothing(
    decks, tmp_path, capsys, text, args, message
):
    source = write(tmp_path / "bad.txt", text)
    code, _out, err = run(capsys, "import", str(source), "--deck", "words", *args)
    assert code == 2
    assert "bad.txt" in err and message in err, err
    assert "hint:" in err and "Traceback" not in err
    assert not list(decks.iterdir())


def test_a_glossary_is_still_read_as_a_glossary(decks, tmp_path, capsys):
    source = write(
        tmp_path / "glossary.txt",
        "Glossary\nTerms, words\nOne\nIt is the first, of all.\nTwo\nIt is the second.\n",
    )
    code, out, _err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0 and "read as" not in out
    assert len(read_deck(decks / "words.toml")) == 2


def test_a_table_is_imported_on_its_own(decks, tmp_path: Path, capsys):
    table = write(tmp_path / "quizlet.txt", QUIZLET)
    glossary = write(tmp_path / "glossary.txt")
    code, _out, err = run(capsys, "import", str(glossary), str(table))
    assert code == 2 and "imported on its own" in err


def test_lang_makes_every_column_that_language(decks, tmp_path, capsys):
    source = write(tmp_path / "english.txt", "photosynthesis\thow plants make sugar from light\n")
    code, out, _err = run(capsys, "import", str(source), "--deck", "words", "--lang", "en")
    assert code == 0
    assert "column 1: en term (by --lang)" in out and "column 2: en definition (by --lang)" in out
    (concept,) = read_deck(decks / "words.toml").concepts
    assert concept.text("en", "definition") == "how plants make sugar from light"


#: A Quizlet export with a custom separator (' - ') and rows by semicolon: one line.
DASHED_ROWS = (
    "el ordenador portátil - the laptop computer;la red neuronal profunda - the deep neural "
    "network;el servidor de correo - the mail server;la base de datos - the database;"
    "la contraseña segura - the strong password"
)


def test_semicolon_rows_with_a_custom_separator_are_never_read_as_one_row(decks, tmp_path, capsys):
    # Read by lines, the one line was one row split at its first semicolon (a term of one
    # pair and a definition of the four others), or refused with a hint about --columns.
    source = write(tmp_path / "quizlet.txt", DASHED_ROWS)
    code, _out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 2 and not list(decks.iterdir())
    assert f"quizzer import {source} --separator ' - '" in err, err
    code, out, _err = run(capsys, "import", str(source), "--deck", "words", "--separator", " - ")
    assert code == 0 and "rows separated by semicolons" in out, out
    deck = read_deck(decks / "words.toml")
    assert [(c.text("es", "term"), c.text("en", "term")) for c in deck][::4] == [
        ("el ordenador portátil", "the laptop computer"),
        ("la contraseña segura", "the strong password"),
    ]


def test_anki_cards_in_plain_text_of_reversed_notes_give_one_concept_a_note(
    decks, tmp_path, capsys
):
    # What Anki's "Cards in Plain Text" writes for Basic (and reversed card) notes: each
    # card's question and answer, so every note twice, the second time swapped. Read as
    # rows, both columns held both languages and "the computer" was a Spanish term.
    pairs = [
        ("el ordenador", "the computer"),
        ("la red neuronal", "the neural network"),
        ("el servidor", "the server"),
        ("la base de datos", "the database"),
        ("la contraseña", "the password"),
        ("el cortafuegos", "the firewall"),
    ]
    rows = "".join(f"{a}\t{b}\n{b}\t{a}\n" for a, b in pairs)
    source = write(tmp_path / "cards.txt", "#separator:tab\n#html:false\n" + rows)
    code, out, _err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, out
    assert "column 1: es term" in out and "column 2: en term" in out
    assert "6 rows are an earlier row's two texts swapped" in out
    deck = read_deck(decks / "words.toml")
    assert [(c.text("es", "term"), c.text("en", "term")) for c in deck] == pairs
