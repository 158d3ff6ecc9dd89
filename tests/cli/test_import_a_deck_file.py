"""`quizzer import DECK.toml`: a deck file another learner shared (or kept from another
machine) joins the user decks folder, checked first, its ids kept; importing it again
changes nothing, an edited copy updates the deck in place; a damaged file, a bundled deck's
id, options that don't apply and a deck already in the folder are refused with exit 2, a
clear message and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.library.decks import read_deck
from tests.cli_support import run, write

SHARED = Path(__file__).resolve().parents[1] / "e2e" / "decks" / "scripts-test.toml"


def _shared(tmp_path: Path) -> Path:
    source = tmp_path / "shared" / "scripts-test.toml"
    source.parent.mkdir()
    source.write_bytes(SHARED.read_bytes())
    return source


def test_a_shared_deck_file_joins_the_decks_folder_with_its_ids(decks, tmp_path, capsys):
    source = _shared(tmp_path)
    code, out, err = run(capsys, "import", str(source))
    assert code == 0, err
    assert "created deck 'scripts-test'" in out and "3 new, 0 updated, 0 unchanged" in out
    imported = read_deck(decks / "scripts-test.toml")
    assert imported == read_deck(SHARED)  # every id and text as shared
    code, out, _err = run(capsys, "decks")
    assert code == 0 and "scripts-test" in out
    # Again: nothing changes.
    before = (decks / "scripts-test.toml").read_bytes()
    code, out, _err = run(capsys, "import", str(source))
    assert code == 0 and "unchanged" in out and "3 unchanged" in out, out
    assert (decks / "scripts-test.toml").read_bytes() == before


def test_an_edited_copy_updates_the_deck_in_place(decks, tmp_path, capsys):
    source = _shared(tmp_path)
    assert run(capsys, "import", str(source))[0] == 0
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace('text = "Quantization"', 'text = "Quantisation"'), "utf-8")
    code, out, err = run(capsys, "import", str(source))
    assert code == 0, err
    assert "updated deck 'scripts-test'" in out and "1 updated, 2 unchanged" in out, out
    (concept, *_rest) = read_deck(decks / "scripts-test.toml").concepts
    assert concept.id == "quantization" and concept.text("en", "term") == "Quantisation"


def _refused(capsys: pytest.CaptureFixture[str], decks: Path, *args: str) -> str:
    before = sorted(p.name for p in decks.iterdir())
    code, out, err = run(capsys, "import", *args)
    assert code == 2, (out, err)
    assert "Traceback" not in err and "\n  hint: " in err, err
    assert sorted(p.name for p in decks.iterdir()) == before
    return err


def test_a_damaged_deck_file_is_refused_at_its_line(decks, tmp_path, capsys):
    source = write(tmp_path / "broken.toml", 'format = 1\nid = "x"\nname = "X"\n[[concepts]\n')
    err = _refused(capsys, decks, str(source))
    assert f"{source}:4" in err, err


def test_a_bundled_decks_id_is_refused(decks, tmp_path, capsys):
    bundled = Path(__file__).resolve().parents[2] / "decks" / "quantization.toml"
    err = _refused(capsys, decks, str(bundled))
    assert "is a bundled deck's" in err and "`id = ` line" in err, err


@pytest.mark.parametrize("option", [("--lang", "fa"), ("--deck", "mine")])
def test_options_for_glossaries_are_refused_by_name(decks, tmp_path, capsys, option):
    err = _refused(capsys, decks, str(_shared(tmp_path)), *option)
    assert f"{option[0]} can't apply to a deck file" in err, err


def test_a_deck_file_among_glossaries_is_refused(decks, tmp_path, capsys):
    glossary = write(tmp_path / "words.txt")
    err = _refused(capsys, decks, str(_shared(tmp_path)), str(glossary))
    assert "imported on its own" in err, err


def test_a_deck_already_in_the_folder_is_not_imported_onto_itself(decks, tmp_path, capsys):
    source = _shared(tmp_path)
    assert run(capsys, "import", str(source))[0] == 0
    err = _refused(capsys, decks, str(decks / "scripts-test.toml"))
    assert "already in your decks folder" in err, err


def test_json_says_what_the_import_of_a_deck_file_did(decks, tmp_path, capsys):
    import json

    code, out, err = run(capsys, "import", str(_shared(tmp_path)), "--json")
    assert code == 0, err
    said = json.loads(out)
    assert said["deck"] == "scripts-test" and said["written"] is True
    assert said["path"] == str(decks / "scripts-test.toml")
    assert said["concepts"] == {"new": 3, "updated": 0, "unchanged": 0, "removed": 0}
