"""`quizzer cards --edit` with a text no deck may hold (longer than a text may be, or with a
control character) says what is wrong and what to do, exits 2 and writes nothing: neither
the override file of a bundled deck nor the learner's own deck file. And an override file
holding such a text (written by hand) is refused by name when the deck loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.concepts.textrules import MAX_TEXT_CHARS
from quizzer.library.decks import write_deck
from tests.factories import ru_bn_deck

BAD_TEXTS = [
    pytest.param("x" * (MAX_TEXT_CHARS + 1), "10,001 characters long", id="overlong"),
    pytest.param("ab\x1b[31mc", "U+001B (a control character)", id="escape"),
    pytest.param("две\nстроки", "U+000A (a control character)", id="line-break"),
    pytest.param("\u202eлора", "U+202E (a bidi control character)", id="bidi-override"),
]


def _quizzer(*argv: str) -> subprocess.CompletedProcess[str]:
    """The real command, in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS)
def test_a_bad_text_for_a_bundled_deck_exits_2_and_writes_no_override(
    tmp_path: Path, text: str, message: str
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    done = _quizzer(
        "cards",
        "--edit",
        "training-efficiency/lora",
        "bn:term",
        text,
        "--db",
        str(tmp_path / "p.json"),
        "--decks",
        str(decks),
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert message in done.stderr
    assert "hint:" in done.stderr  # what to do about it
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr  # never echoed raw
    assert list(decks.iterdir()) == []  # no overrides folder, no file


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS)
def test_a_bad_text_for_an_own_deck_exits_2_and_leaves_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    write_deck(ru_bn_deck("mine", 2), decks / "mine.toml")
    before = (decks / "mine.toml").read_bytes()
    argv = ["cards", "--edit", "mine/c1", "ru:definition", text]
    code = main([*argv, "--db", str(tmp_path / "p.json"), "--decks", str(decks)])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "hint:" in err
    assert (decks / "mine.toml").read_bytes() == before
    assert sorted(p.name for p in decks.iterdir()) == ["mine.toml"]


def test_an_override_file_with_a_bad_text_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = tmp_path / "decks"
    (decks / "overrides").mkdir(parents=True)
    override = decks / "overrides" / "training-efficiency.json"
    override.write_text(
        '{"format": "quizzer-overrides", "version": 1, "texts": [{"concept": "lora", '
        '"lang": "bn", "side": "term", "text": "\\u001b[2Jলোরা"}]}',
        encoding="utf-8",
    )
    db = str(tmp_path / "p.json")
    code = main(
        ["cards", "training-efficiency", "--search", "lora", "--db", db, "--decks", str(decks)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "training-efficiency.json" in err and "override file" in err
    assert "hint: move it away" in err
