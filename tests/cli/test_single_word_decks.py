"""`quizzer import` of a deck of single words (a Quizlet export or CSV, one word a side):
each column's language told from the whole column, the script alone where it is one
language's; where the words can't tell, the error gives the `--columns` to pass, one item
per column of the file."""

from __future__ import annotations

import pytest

from quizzer.library.decks import read_deck
from tests.cli_support import run, write

#: Twelve Spanish–English word pairs, as Quizlet exports them (term TAB definition).
SPANISH = (
    "perro\tdog\ngato\tcat\ncasa\thouse\nlibro\tbook\nagua\twater\nrojo\tred\n"
    "mesa\ttable\nárbol\ttree\nventana\twindow\nsilla\tchair\npan\tbread\nleche\tmilk\n"
)


def test_a_deck_of_single_words_is_told_by_its_whole_columns(decks, tmp_path, capsys):
    source = write(tmp_path / "words.txt", SPANISH)
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert "column 1: es term (by its texts' language)" in out
    assert "column 2: en term (by its texts' language)" in out
    deck = read_deck(decks / "words.toml")
    assert [(c.text("es", "term"), c.text("en", "term")) for c in deck][:2] == [
        ("perro", "dog"),
        ("gato", "cat"),
    ]


@pytest.mark.parametrize(
    ("words", "lang"),
    [
        # Kana is only Japanese's: the script tells however few its letters (12).
        (("いぬ", "ねこ", "いえ", "ほん", "みず", "あか"), "ja"),
        # Arabic script is three languages' (Arabic, Persian, Urdu): 16 letters, and the
        # detector all but certain, tell Persian.
        (("سگ", "گربه", "خانه", "کتاب", "آب", "قرمز"), "fa"),
    ],
)
def test_a_short_column_in_a_script_of_few_languages_is_told(decks, tmp_path, capsys, words, lang):
    english = ("dog", "cat", "house", "book", "water", "red")
    text = "".join(f"{word}\t{meaning}\n" for word, meaning in zip(words, english, strict=True))
    source = write(tmp_path / "words.txt", text)
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert f"column 1: {lang} term (by its texts' language)" in out
    assert read_deck(decks / "words.toml").languages == (lang, "en")


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        # Two Latin columns of two words: neither can be told.
        (
            "perro\tdog\ngato\tcat\n",
            "--columns LANG1:term,LANG2:term with LANG1 the tag of "
            "column 1's language and LANG2 the tag of column 2's language",
        ),
        # Three columns, the kana one told: the others are asked for, in their places.
        ("いぬ\tdog\tHund\nねこ\tcat\tKatze\n", "--columns ja:term,LANG1:term,LANG2:term"),
        # A third column left empty is left out.
        (
            "いぬ\tdog\t\nねこ\tcat\t\n",
            "--columns ja:term,LANG:term,- with LANG the tag of column 2's language",
        ),
    ],
)
def test_words_that_cant_be_told_get_the_columns_to_pass(decks, tmp_path, capsys, text, columns):
    source = write(tmp_path / "words.txt", text)
    code, _out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 2
    width = text.splitlines()[0].count("\t") + 1
    assert "words.txt: can't tell the language of column" in err
    assert "too few letters" in err
    assert f"say what each of its {width} columns holds, in order: {columns}" in err, err
    assert "Traceback" not in err
    assert not list(decks.iterdir())
