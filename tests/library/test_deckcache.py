"""The parsed-deck cache speeds up loading but never changes what is loaded."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from quizzer.concepts import deck as deckfile
from quizzer.errors import InputError
from quizzer.library import cache as deckcache
from quizzer.library.decks import read_deck
from quizzer.paths import bundled_decks_dir

BUNDLED = bundled_decks_dir() / "training-efficiency.toml"


def _cache_entries() -> list[Path]:
    entries = (Path(os.environ["QUIZZER_CACHE"]) / "decks").glob("*.json")
    return sorted(p for p in entries if not p.name.endswith(".summary.json"))


def test_second_read_comes_from_the_cache_and_equals_a_fresh_parse(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    first = read_deck(path)
    assert len(_cache_entries()) == 1
    assert deckcache.get(path.read_bytes()) == deckfile.parse(path.read_text(encoding="utf-8"))
    second = read_deck(path)
    assert second == first == deckfile.loads(BUNDLED.read_text(encoding="utf-8"))


def test_an_edited_file_is_never_served_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    read_deck(path)
    text = path.read_text(encoding="utf-8").replace("Low-Rank Adaptation", "Low Rank Adapt")
    path.write_text(text, encoding="utf-8")
    edited = read_deck(path)
    lora = edited.get("lora")
    assert lora is not None and "Low Rank Adapt" in (lora.text("en", "term") or "")
    assert len(_cache_entries()) == 2


def test_a_damaged_cache_entry_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    expected = read_deck(path)
    (entry,) = _cache_entries()
    entry.write_text('{"format": 1, "tables": [', encoding="utf-8")
    assert read_deck(path) == expected


def test_cached_tables_are_still_validated(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    text = BUNDLED.read_text(encoding="utf-8").replace('source = "seed"', 'source = "found"', 1)
    path.write_text(text, encoding="utf-8")
    for _ in range(2):  # the second read parses from the cache
        with pytest.raises(InputError, match="source"):
            read_deck(path)
    assert len(_cache_entries()) == 1


def test_an_unwritable_cache_dir_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    monkeypatch.setenv("QUIZZER_CACHE", str(blocker))
    assert len(read_deck(BUNDLED)) == 16


def test_big_entries_decode_alike_and_a_damaged_one_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Entries of BIG_ENTRY_BYTES and more are decoded by msgspec: the same tables as the json
    # module gives, and a damaged entry is still only a miss.
    path = tmp_path / "deck.toml"
    shutil.copyfile(BUNDLED, path)
    expected = read_deck(path)
    raw = path.read_bytes()
    small = deckcache.get(raw)
    monkeypatch.setattr(deckcache, "BIG_ENTRY_BYTES", 0)
    assert deckcache.get(raw) == small == deckfile.parse(raw.decode("utf-8"))
    (entry,) = _cache_entries()
    entry.write_bytes(entry.read_bytes()[:-40])
    assert deckcache.get(raw) is None
    assert read_deck(path) == expected
