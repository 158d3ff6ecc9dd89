"""Deck summaries and the cache the importer fills: faithful, invalidated by an edit,
and never the only copy (a damaged or deleted cache costs time, nothing else)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from quizzer import __version__
from quizzer.concepts import deck as deckfile
from quizzer.library import cache as deckcache
from quizzer.library.decks import read_deck
from quizzer.library.importer import import_glossaries
from quizzer.library.summary import library_summaries, read_summary, summarise

ROOT = Path(__file__).resolve().parents[2]
TRAINING = sorted((ROOT / "data").glob("00[024]_*.txt"))


BUNDLED_KEYS = tuple(deckcache.digest(p.read_bytes()) for p in (ROOT / "decks").glob("*.toml"))


def cache_files(kind: str) -> list[Path]:
    """The cache's entries of that kind for user decks (the importer caches the bundled
    decks' summaries too, as it reads their ids from them)."""
    folder = Path(os.environ["QUIZZER_CACHE"]) / "decks"
    files = sorted(p for p in folder.glob("*.json") if not p.name.startswith(BUNDLED_KEYS))
    summaries = [p for p in files if p.name.endswith(".summary.json")]
    return summaries if kind == "summary" else [p for p in files if p not in summaries]


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    """A user deck written by the importer (three parallel glossaries, 16 concepts)."""
    result = import_glossaries(TRAINING, deck="ai", into=tmp_path / "decks")
    assert result.written
    return result.path


def test_the_importer_caches_what_the_file_parses_to(imported: Path) -> None:
    raw = imported.read_bytes()
    assert deckcache.get(raw) == deckfile.parse(raw.decode("utf-8"))
    (summary_file,) = cache_files("summary")
    assert summary_file.name.startswith(deckcache.digest(raw))
    fresh = summarise(deckfile.loads(raw.decode("utf-8")), imported, False)
    assert read_summary(imported) == fresh
    assert (fresh.concepts, fresh.languages) == (16, ("bn", "ar", "ru"))
    assert fresh.sources == {"seed": 96, "authored": 0, "corrected": 0}


def test_an_edit_to_the_deck_file_is_seen_at_once(imported: Path) -> None:
    assert read_summary(imported).concepts == 16
    text = imported.read_text(encoding="utf-8")
    # Drop the last concept by hand, and rename the deck.
    cut = text.rindex("[[concepts]]")
    edited = text[:cut].replace('name = "ai"', 'name = "AI, trimmed"', 1)
    imported.write_text(edited, encoding="utf-8")
    summary = read_summary(imported)
    assert (summary.concepts, summary.name) == (15, "AI, trimmed")
    assert len(read_deck(imported)) == 15
    # The old entries stay (keyed by the old bytes) but are never served for the new ones.
    assert len(cache_files("summary")) == 2


def test_a_damaged_or_deleted_cache_loses_nothing(imported: Path, tmp_path: Path) -> None:
    original = imported.read_bytes()
    expected = read_summary(imported)
    deck = read_deck(imported)
    for entry in cache_files("summary") + cache_files("tables"):
        entry.write_text('{"format": 1, "summary": {"id": 3', encoding="utf-8")
    assert read_summary(imported) == expected
    assert read_deck(imported) == deck
    # A well-formed entry with wrong fields is ignored too.
    (summary_file,) = cache_files("summary")
    payload = {"format": deckcache.CACHE_FORMAT, "version": __version__, "summary": {"id": "x"}}
    summary_file.write_text(json.dumps(payload), encoding="utf-8")
    assert read_summary(imported) == expected
    shutil.rmtree(Path(os.environ["QUIZZER_CACHE"]))
    assert read_summary(imported) == expected
    assert read_deck(imported) == deck
    assert imported.read_bytes() == original  # the deck file is never touched by the cache


def test_a_broken_deck_is_skipped_with_a_warning_and_never_summarised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    good = import_glossaries(TRAINING[:1], deck="good", into=decks).path
    broken = decks / "broken.toml"
    text = good.read_text(encoding="utf-8").replace('id = "good"', 'id = "broken"', 1)
    broken.write_text(text.replace('source = "seed"', 'source = "found"', 1), encoding="utf-8")
    ids = [s.id for s in library_summaries(decks)]
    assert "good" in ids and "broken" not in ids
    assert "skipped a deck file" in capsys.readouterr().err
    summarised = [p.name for p in cache_files("summary")]
    assert any(name.startswith(deckcache.digest(good.read_bytes())) for name in summarised)
    assert not any(name.startswith(deckcache.digest(broken.read_bytes())) for name in summarised)
    # Fixed by hand, it is listed.
    broken.write_text(text, encoding="utf-8")
    assert "broken" in [s.id for s in library_summaries(decks)]
