"""What a re-import takes from the cache: an unchanged deck is told from it without
rendering the deck again, and a cache entry that is no valid deck never reaches the report
or the deck file (see :mod:`quizzer.library.merge_target`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from quizzer.concepts import deck as deckfile
from quizzer.concepts import deckwriter
from quizzer.library import cache as deckcache
from tests.cli_support import run

ROOT = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    return Path(os.environ["QUIZZER_CACHE"]) / "decks"


def glossaries(tmp_path: Path) -> list[Path]:
    """Copies of three bundled glossaries (Bengali, Arabic, Russian) the test may edit."""
    copies = []
    for source in sorted((ROOT / "data").glob("00[024]_*.txt")):
        copies.append(tmp_path / source.name)
        shutil.copyfile(source, copies[-1])
    return copies


def import_ai(capsys: pytest.CaptureFixture[str], files: list[Path]) -> tuple[int, str, str]:
    return run(capsys, "import", *map(str, files), "--deck", "ai")


def imported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, decks: Path
) -> tuple[list[Path], Path, bytes]:
    """The glossaries' copies imported as deck ``ai``: the copies, its file and its bytes."""
    files = glossaries(tmp_path)
    assert import_ai(capsys, files)[0] == 0
    path = decks / "ai.toml"
    return files, path, path.read_bytes()


def test_an_unchanged_reimport_is_told_without_rendering_the_deck(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files, path, original = imported(capsys, tmp_path, decks)
    marker = cache_dir() / f"{deckcache.digest(original)}.rendered.json"
    assert marker.is_file()  # the import recorded its file as the rendering of its tables

    def no_rendering(deck: object) -> str:
        raise AssertionError("the unchanged deck was rendered again")

    with monkeypatch.context() as patch:
        patch.setattr(deckwriter, "dumps", no_rendering)
        code, told, err = import_ai(capsys, files)
    assert code == 0, err
    assert "deck 'ai' unchanged" in told
    assert path.read_bytes() == original

    # Without the record, the deck is rendered and compared: the same report, and the
    # record is made again, so the next re-import needn't render.
    marker.unlink()
    code, compared, err = import_ai(capsys, files)
    assert (code, compared) == (0, told), err
    assert marker.is_file()
    with monkeypatch.context() as patch:
        patch.setattr(deckwriter, "dumps", no_rendering)
        assert import_ai(capsys, files)[:2] == (0, told)
    assert path.read_bytes() == original


@pytest.mark.parametrize("edited", [False, True], ids=["unchanged glossary", "edited glossary"])
@pytest.mark.parametrize("damage", ["control character", "number for a text", "text for a line"])
def test_a_cached_parse_that_is_no_valid_deck_is_never_merged_into(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str, edited: bool
) -> None:
    files, path, original = imported(capsys, tmp_path, decks)
    entry = cache_dir() / f"{deckcache.digest(original)}.json"
    payload = json.loads(entry.read_text(encoding="utf-8"))
    term = payload["tables"]["concepts"][0]["bn"]["term"]
    # Shaped like a deck, summary intact, but the loader would refuse it (a line that is
    # text even trips the aligner up: it sorts each file's texts by line).
    if damage == "text for a line":
        term["line"] = "planted"
    else:
        term["text"] = "\x1b[31mplanted" if damage == "control character" else 5
    entry.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    if edited:  # so the import writes: a definition of the Russian glossary changed
        lines = files[2].read_text(encoding="utf-8").splitlines()
        lines[3] += " (edited)"
        files[2].write_text("\n".join(lines) + "\n", encoding="utf-8")

    code, out, err = import_ai(capsys, files)
    assert code == 0, err
    written = path.read_bytes()
    deck = deckfile.loads(written.decode("utf-8"))  # the file still validates
    assert "planted" not in written.decode("utf-8") and len(deck) == 16

    # The same import with no cache at all gives the same report and the same file.
    path.write_bytes(original)
    shutil.rmtree(cache_dir())
    assert import_ai(capsys, files)[:2] == (0, out)
    assert path.read_bytes() == written
    assert (written == original) is not edited
