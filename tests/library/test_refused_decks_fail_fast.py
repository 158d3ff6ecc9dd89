"""A deck file that is refused costs one parse: every later command gives the same refusal from
the cache without parsing the file again, and a fixed file loads as soon as it changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quizzer.concepts import deck as deckfile
from quizzer.errors import InputError
from quizzer.library import cache as deckcache
from quizzer.library.decks import read_deck
from quizzer.paths import bundled_decks_dir


def _broken_copy(tmp_path: Path) -> tuple[Path, str]:
    source = bundled_decks_dir() / "quantization.toml"
    good = source.read_text(encoding="utf-8")
    path = tmp_path / "quantization.toml"
    shutil.copy(source, path)
    # A text longer than a deck allows: refused by validation, after a successful parse.
    broken = good.replace('text = "Quantization"', 'text = "' + "x" * 20_000 + '"', 1)
    assert broken != good
    path.write_text(broken, encoding="utf-8")
    return path, good


def _refusal(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        read_deck(path)
    return str(caught.value)


def test_a_refused_deck_is_not_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _good = _broken_copy(tmp_path)
    first = _refusal(path)
    assert "characters" in first and str(path) in first

    def no_parse(text: str) -> object:
        raise AssertionError("the refused file was parsed again")

    monkeypatch.setattr(deckfile, "parse", no_parse)
    assert _refusal(path) == first  # the same file, line and field, from the cache


def test_a_refused_deck_leaves_no_parse_in_the_cache_and_loads_once_fixed(tmp_path: Path) -> None:
    path, good = _broken_copy(tmp_path)
    raw = path.read_bytes()
    _refusal(path)
    assert deckcache.get(raw) is None  # its tables were never cached as a deck's
    assert deckcache.get_refusal(deckcache.digest(raw)) is not None
    path.write_text(good, encoding="utf-8")
    assert read_deck(path).id == "quantization"
