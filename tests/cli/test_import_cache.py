"""The cache `quizzer import` leaves behind: a re-import sees a hand edit of the deck file at
once, and a damaged or deleted cache costs time only (the deck file is the copy that counts)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from quizzer.concepts import deck as deckfile
from quizzer.library import cache as deckcache
from quizzer.library.summary import read_summary
from tests.cli_support import run

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = [str(p) for p in sorted((ROOT / "data").glob("00[024]_*.txt"))]


def cache_dir() -> Path:
    return Path(os.environ["QUIZZER_CACHE"]) / "decks"


def imported(capsys: pytest.CaptureFixture[str], decks: Path) -> Path:
    code, out, err = run(capsys, "import", *GLOSSARIES, "--deck", "ai")
    assert code == 0, err
    assert "created deck 'ai'" in out
    return decks / "ai.toml"


def test_a_reimport_sees_a_hand_edit_of_the_deck_file(
    decks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = imported(capsys, decks)
    cached = deckcache.get(path.read_bytes())
    assert cached is not None and len(cached["concepts"]) == 16  # the import left it there
    text = path.read_text(encoding="utf-8")
    cut = text.rindex("[[concepts]]")  # the last concept removed by hand, the deck renamed
    path.write_text(text[:cut].replace('name = "ai"', 'name = "AI, edited"', 1), "utf-8")

    code, out, err = run(capsys, "import", *GLOSSARIES, "--deck", "ai")
    assert code == 0, err
    # Served from the stale cache, the re-import would find all 16 and keep the old name.
    assert "(16 concepts; 1 new, 0 updated, 15 unchanged)" in out
    written = deckfile.loads(path.read_text(encoding="utf-8"))
    assert written.name == "AI, edited" and len(written) == 16
    assert read_summary(path).name == "AI, edited"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong version", "deleted"])
def test_a_damaged_or_deleted_cache_loses_nothing_on_reimport(
    decks: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    path = imported(capsys, decks)
    original = path.read_bytes()
    entries = sorted(cache_dir().glob("*.json"))
    assert entries
    for entry in entries:
        if damage == "garbage":
            entry.write_bytes(b"\x00\xff not json")
        elif damage == "truncated":
            entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
        elif damage == "wrong version":
            payload = json.loads(entry.read_text(encoding="utf-8"))
            entry.write_text(json.dumps({**payload, "version": "0.0.0-other"}), "utf-8")
    if damage == "deleted":
        shutil.rmtree(cache_dir().parent)

    code, out, err = run(capsys, "import", *GLOSSARIES, "--deck", "ai")
    assert code == 0, err
    assert "deck 'ai' unchanged" in out
    rows = [line.split() for line in out.splitlines()]
    assert sum(1 for row in rows if row[1:2] == ["unchanged"]) == 16
    assert path.read_bytes() == original  # the deck file is never touched
    # The tables were parsed from the file again and cached afresh; the summary too.
    assert deckcache.get(original) == deckfile.parse(original.decode("utf-8"))
    code, out, err = run(capsys, "decks")
    assert code == 0, err
    assert "ai" in out and "16" in out
