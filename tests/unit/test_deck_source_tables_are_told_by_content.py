"""Tables are read by what they hold: Anki's header lines, a header row, or a two-column
list with rows by newline or semicolon; HTML only when the file says so; lines named right."""

from __future__ import annotations

import pytest

from quizzer.decksources.delimited import read_table
from quizzer.decksources.html_text import html_to_text
from quizzer.decksources.table import DeckSourceError


def test_a_glossary_is_no_table() -> None:
    glossary = "Glossary\nTerms, words\n\nOne\nIt is the first, of all.\n"
    assert read_table(glossary) is None
    assert read_table("") is None


def test_semicolon_rows_keep_the_line_each_starts_on() -> None:
    table = read_table("a\tb;c\td;\ne\tf;g\th")
    assert table is not None and "semicolons" in table.format
    assert [(row.line, row.cells) for row in table.rows] == [
        (1, ("a", "b")),
        (1, ("c", "d")),
        (2, ("e", "f")),
        (2, ("g", "h")),
    ]


def test_a_semicolon_inside_a_definition_stays_in_it() -> None:
    table = read_table("perro\tdog; hound\ngato\tcat\nsol\tsun\n")
    assert table is not None and "one per line" in table.format
    assert table.rows[0].cells == ("perro", "dog; hound")


def test_only_the_first_comma_splits_a_row() -> None:
    table = read_table("chien,dog, hound\nchat,cat\n")
    assert table is not None
    assert table.rows[0].cells == ("chien", "dog, hound")


def test_anki_header_lines_name_columns_guids_and_html() -> None:
    text = (
        "#separator:comma\n#html:true\n#deck:Vocabulary\n#guid column:1\n"
        "#columns:GUID,Front,Back\n"
        'g1,"<div>chien</div><div>toutou</div>","dog, hound"\n'
        'g2,"multi\nline",cat\n'
        "g3,oiseau,bird &lt;b&gt;\n"
    )
    table = read_table(text)
    assert table is not None
    assert table.format == "Anki notes as text (header lines, comma-separated, HTML)"
    assert table.names == ("Front", "Back") and table.deck == "Vocabulary"
    assert [(row.line, row.guid, row.cells) for row in table.rows] == [
        (6, "g1", ("chien toutou", "dog, hound")),
        (7, "g2", ("multi line", "cat")),
        (9, "g3", ("oiseau", "bird <b>")),
    ]


def test_without_html_true_markup_is_kept_as_text() -> None:
    table = read_table("#separator:tab\n<b>chien</b>\tdog &amp; co\n")
    assert table is not None
    assert table.rows[0].cells == ("<b>chien</b>", "dog &amp; co")


def test_a_header_row_names_languages() -> None:
    table = read_table("fr\ten\nchien\tdog\n")
    assert table is not None and table.names == ("fr", "en")
    assert [row.line for row in table.rows] == [2]
    # A first row of words is data, not a header.
    data = read_table("dog\tchien\ncat\tchat\n")
    assert data is not None and data.names == () and len(data.rows) == 2


def test_html_is_reduced_to_the_text_it_shows() -> None:
    assert html_to_text("<b>un</b>&nbsp;chat<br>noir [sound:chat.mp3]") == "un chat noir"
    assert html_to_text("<script>alert(1)</script>x &lt;y&gt;") == "x <y>"
    assert html_to_text("\u202eevil\u202c text") == "evil text"


@pytest.mark.parametrize(
    ("text", "separator", "line", "message"),
    [
        ("a\tb\nc\n", "\t", 2, "no TAB between term and definition"),
        ("#separator:tab\na\tb\nc\n", None, 3, "fewer than two texts"),
        ("#separator:tab\n#guid column:9\na\tb\n", None, 2, "#guid column:9 names no column"),
        ("#separator:xy\na\tb\n", None, 1, "no separator Anki writes"),
        ("a\t" + "\t".join("x" * 70) + "\n", None, 1, "columns (at most 64)"),
    ],
)
def test_bad_rows_name_their_line(text: str, separator: str | None, line: int, message: str):
    with pytest.raises(DeckSourceError) as caught:
        read_table(text, separator)
    assert caught.value.line == line
    assert message in caught.value.message
    assert caught.value.hint
