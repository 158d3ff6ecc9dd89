"""The stat-keyed fast path to a deck's summary (as git's index): an unchanged file is not
read again, any change to it is read and hashed, and the recorded stats are only ever a
shortcut (damaged or deleted, they are rebuilt; the content hash stays the real key)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from quizzer.library import cache as deckcache
from quizzer.library import summary as summary_module
from quizzer.library.importer import import_glossaries
from quizzer.library.summary import read_summary
from quizzer.paths import bundled_decks_dir

ROOT = Path(__file__).resolve().parents[2]
TRAINING = sorted((ROOT / "data").glob("00[024]_*.txt"))
#: Long enough for the kernel's coarse timestamps to move on, short enough for a unit test.
RACY_S = 0.05


def stat_entries() -> list[Path]:
    """The recorded stats of user decks (an import reads the bundled decks' summaries too)."""
    folder = Path(os.environ["QUIZZER_CACHE"]) / "decks" / "stat"
    bundled = str(bundled_decks_dir().resolve())
    return sorted(p for p in folder.glob("*.json") if bundled not in p.read_text("utf-8"))


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An imported deck whose last change is older than the (shortened) racy window."""
    monkeypatch.setattr(deckcache, "RACY_NS", int(RACY_S * 1e9))
    path = import_glossaries(TRAINING, deck="ai", into=tmp_path / "decks").path
    time.sleep(RACY_S * 2)
    return path


def _file_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: Path) -> bytes:
        raise AssertionError(f"{path} was read")

    monkeypatch.setattr(summary_module, "deck_bytes", refuse)


def test_an_unchanged_file_is_not_read_again(deck: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = read_summary(deck)  # reads and hashes the file, records its stat
    (entry,) = stat_entries()
    assert deckcache.digest(deck.read_bytes()) in entry.read_text(encoding="utf-8")
    _file_not_read(monkeypatch)
    assert read_summary(deck) == first


def test_a_same_size_edit_with_the_old_mtime_is_seen(deck: Path) -> None:
    """An edit that keeps the size and puts the mtime back still changes the ctime."""
    assert read_summary(deck).name == "ai"
    before = os.stat(deck)
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace('name = "ai"', 'name = "AI"', 1), encoding="utf-8")
    os.utime(deck, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(deck)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert read_summary(deck).name == "AI"


def test_a_file_changed_within_the_racy_window_is_hashed_again(
    deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after a write the stat can't tell a second write in the same clock tick."""
    monkeypatch.setattr(deckcache, "RACY_NS", 10 * 10**9)
    read_summary(deck)
    info = os.stat(deck)
    assert deckcache.known_digest(deck, info) is None  # recorded, but not trusted yet
    monkeypatch.setattr(deckcache, "RACY_NS", 0)
    assert deckcache.known_digest(deck, info) == deckcache.digest(deck.read_bytes())


def test_a_replaced_file_is_read_again(deck: Path, tmp_path: Path) -> None:
    read_summary(deck)
    other = tmp_path / "other.toml"
    text = deck.read_text(encoding="utf-8")
    other.write_text(text.replace('name = "ai"', 'name = "ia"', 1), encoding="utf-8")
    shutil.copystat(deck, other)  # same size and times: only the inode tells them apart
    os.replace(other, deck)
    assert read_summary(deck).name == "ia"


@pytest.mark.parametrize("damage", ["garbage", "wrong digest", "deleted"])
def test_a_damaged_or_deleted_stat_entry_is_rebuilt(
    deck: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    expected = read_summary(deck)
    (entry,) = stat_entries()
    if damage == "garbage":
        entry.write_text('{"format": 1, "stat": {"size": ', encoding="utf-8")
    elif damage == "wrong digest":  # points at no cached summary: the file is read again
        entry.write_text(entry.read_text("utf-8").replace('"digest":"', '"digest":"00'), "utf-8")
    else:
        entry.unlink()
    assert read_summary(deck) == expected
    _file_not_read(monkeypatch)  # rebuilt: the next launch takes the fast path again
    assert read_summary(deck) == expected


def test_a_deleted_summary_is_rebuilt_from_the_file(deck: Path) -> None:
    expected = read_summary(deck)
    for entry in (Path(os.environ["QUIZZER_CACHE"]) / "decks").glob("*.summary.json"):
        entry.unlink()
    assert read_summary(deck) == expected


def test_a_validated_cached_parse_builds_the_same_deck(deck: Path, tmp_path: Path) -> None:
    from quizzer.concepts.concept import Entry, Provenance, Text
    from quizzer.concepts.deck import Deck
    from quizzer.library.decks import deck_from_valid_tables, read_deck, write_deck
    from quizzer.library.summary import validated_tables
    from tests.factories import concept

    # Every kind of field: corrected text, acronym, several languages, a description.
    fixed = Text(
        "Fixed", Provenance("corrected", file="g.txt", line=3, original="Fxd", reason="typo")
    )
    first = concept("mixed", "a", {"en": ("A", "Def a."), "ru": ("А", "Опр.")}, acronym="AA")
    first = first.with_entry("en", Entry(fixed, first.entries["en"].definition))
    mixed = Deck("mixed", "Mixed", (first, concept("mixed", "b", {"fr": ("B", "Déf b.")})), "Desc")
    path = tmp_path / "mixed.toml"
    write_deck(mixed, path)
    for one in (deck, path):
        summary = read_summary(one)  # validates the file and caches its parse and summary
        tables = validated_tables(summary)
        assert tables is not None
        assert deck_from_valid_tables(tables) == read_deck(one)
    assert read_deck(path) == mixed


def test_the_shelf_builds_an_unchanged_deck_from_the_cache_and_reads_an_edited_one(
    deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizzer.library import decks as decks_module
    from quizzer.services.library import DeckShelf

    expected = decks_module.read_deck(deck)
    summary = read_summary(deck)
    with monkeypatch.context() as patch:

        def refuse(path: Path) -> object:
            raise AssertionError("the deck file was read")

        patch.setattr(decks_module, "read_deck", refuse)
        assert DeckShelf([summary])["ai"] == expected
    # Edited after it was listed: the shelf reads the file, not the cache of the old bytes.
    text = deck.read_text(encoding="utf-8")
    cut = text.rindex("[[concepts]]")
    deck.write_text(text[:cut], encoding="utf-8")
    assert len(DeckShelf([summary])["ai"]) == len(expected) - 1
