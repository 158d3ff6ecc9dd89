"""Deck files and cache entries that would overflow the stack, or lie.

Deeply nested TOML (inline arrays 800 deep, inline tables 3000 deep, dotted keys 1000 deep)
gave RecursionError tracebacks; a deeply nested or poisoned cache entry broke or was blamed
on the intact deck file. And the cache is really used: a second load parses nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.concepts import deck as deckfile
from quizzer.errors import InputError
from quizzer.glossary.entries import AlignError
from quizzer.glossary.mapping import parse_mapping
from quizzer.library import cache as deckcache
from quizzer.library.decks import load_library, read_deck
from quizzer.paths import bundled_decks_dir

BUNDLED = bundled_decks_dir() / "training-efficiency.toml"

HEAD = 'format = 1\nid = "deep"\nname = "Deep"\n'
DEEP = {
    "inline arrays 800 deep": HEAD + "x = " + "[" * 800 + "]" * 800 + "\n",
    "inline tables 3000 deep": HEAD + "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
    "dotted keys 1000 deep": HEAD + ".".join(["a"] * 1000) + " = 1\n",
    "dotted keys in a concept": HEAD
    + '[[concepts]]\nid = "x"\n'
    + ".".join(["en"] * 1000)
    + " = 1\n",
}


def _cache_entries() -> list[Path]:
    return sorted((Path(os.environ["QUIZZER_CACHE"]) / "decks").glob("*.json"))


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
def test_deeply_nested_toml_is_a_clear_error(text: str, tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    clear = r"nested thousands deep|unknown field 'a'|x\.en\.term: missing"
    with pytest.raises(InputError, match=clear):
        read_deck(path)


def test_deeply_nested_decks_are_skipped_by_the_commands_and_named_by_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    for number, text in enumerate(DEEP.values()):
        (decks / f"deep{number}.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))
    assert main(["decks", "--json"]) == 0
    out, err = capsys.readouterr()
    assert len(json.loads(out)) == 2 and err.count("skipped a deck file") == len(DEEP)
    assert main(["show", "quantization", "--json"]) == 0
    capsys.readouterr()
    assert main(["validate"]) == 2
    out, err = capsys.readouterr()
    assert err.count("nested thousands deep") == 2 and "unknown field 'a'" in err
    assert "Traceback" not in out + err


def test_a_deeply_nested_mapping_file_is_a_clear_error() -> None:
    with pytest.raises(AlignError, match="too deeply"):
        parse_mapping('["a.txt"]\n5 = ' + "[" * 3000 + "]" * 3000 + "\n")


def test_a_deeply_nested_cache_entry_is_ignored_and_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    expected = read_deck(path)
    (entry,) = _cache_entries()
    entry.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert read_deck(path) == expected
    assert deckcache.get(path.read_bytes()) is not None  # rebuilt


@pytest.mark.parametrize(
    "tables",
    [
        {"format": 2},
        {"format": 1, "id": "Not A Slug", "name": "x"},
        {"format": 1, "id": "x", "name": "x", "concepts": [{"id": 5}]},
        {"format": 1, "id": "x", "name": "x", "concepts": [{"id": "y", "en": 7}]},
    ],
)
def test_a_poisoned_cache_entry_is_rebuilt_silently_not_blamed_on_the_deck(
    tmp_path: Path, tables: dict[str, object]
) -> None:
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    expected = read_deck(path)
    (entry,) = _cache_entries()
    payload = json.loads(entry.read_text(encoding="utf-8"))
    entry.write_text(json.dumps({**payload, "tables": tables}), encoding="utf-8")
    assert read_deck(path) == expected  # no InputError naming the intact file
    assert deckcache.get(path.read_bytes()) == deckfile.parse(BUNDLED.read_text("utf-8"))


def test_a_second_load_parses_no_deck_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copyfile(BUNDLED, decks / "mine.toml")
    (decks / "mine.toml").write_text(
        BUNDLED.read_text("utf-8").replace('id = "training-efficiency"', 'id = "mine"', 1),
        encoding="utf-8",
    )
    first = load_library(decks)
    parsed: list[int] = []
    real = tomllib.loads

    def counting(text: str, **kwargs: object) -> dict[str, object]:
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(tomllib, "loads", counting)
    second = load_library(decks)
    assert parsed == []
    assert [item.deck for item in second] == [item.deck for item in first]
    # An edit is a miss: that one file is parsed again.
    path = decks / "mine.toml"
    path.write_text(path.read_text("utf-8") + "\n", encoding="utf-8")
    load_library(decks)
    assert len(parsed) == 1


def test_a_fifo_planted_as_a_cache_entry_does_not_hang_loading(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    cache = tmp_path / "cache"
    (cache / "decks").mkdir(parents=True)
    os.mkfifo(cache / "decks" / f"{deckcache.digest(path.read_bytes())}.json")
    script = (
        "import sys; from quizzer.library.decks import read_deck; "
        "print(len(read_deck(sys.argv[1])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        timeout=60,  # a hang fails the test instead of blocking the suite
        env={**os.environ, "QUIZZER_CACHE": str(cache)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(read_deck(BUNDLED)))
