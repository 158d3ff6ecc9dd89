"""`quizzer import` of a text file that is no glossary (a Python module, a README, a page of
prose): any text file pairs up into "terms" and "definitions", so without a check it would
become a deck of code lines. It is refused with exit code 2, the file and the first line
that gave it away, what a glossary looks like, and nothing written; real glossaries,
whose terms may end in a colon now and then, still import."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_support import run, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("quizzer/paths.py", "import "),
        ("README.md", "## "),
        ("docs/devices.md", "history: "),
    ],
)
def test_source_code_markdown_and_prose_are_refused(decks, tmp_path, capsys, name, first):
    source = tmp_path / Path(name).name
    source.write_bytes((ROOT / name).read_bytes())
    code, out, err = run(capsys, "import", str(source))
    assert code == 2, (out, err)
    assert "Traceback" not in err
    message, _, hint = err.partition("\n  hint: ")
    assert message.startswith(f"quizzer: error: {source}:"), message
    assert "not a glossary" in message and f"the first '{first}" in message, message
    assert "a title line, a subtitle line" in hint, hint
    assert not list(decks.iterdir())


def test_a_glossary_with_a_few_odd_lines_still_imports(decks, tmp_path, capsys):
    entries = [
        ("Overfitting:", "When a model learns noise in the training data instead of the signal."),
        ("C++", "A compiled language used for fast numerical code."),
        ("#hashtag", "A word marked with a hash sign to group posts by topic."),
    ] + [
        (f"Term number {n}", f"The definition of term number {n}, in plain English words.")
        for n in range(20)
    ]
    lines = ["Machine learning words", "A small glossary"]
    for term, definition in entries:
        lines += [term, definition]
    source = write(tmp_path / "words.txt", "\n".join(lines) + "\n")
    code, out, err = run(capsys, "import", str(source), "--deck", "words")
    assert code == 0, err
    assert "23 new" in out, out
