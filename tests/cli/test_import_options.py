"""`quizzer import` options: --into a folder that doesn't exist yet, and --map entries
(one that matches nothing is an error naming it; the kept-texts note tells the truth)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_support import run, write

EN = "T\nS\nOne\nIt is the first.\nTwo\nIt is the second.\n"
RU = "T\nS\nДва\nЭто второй.\nОдин\nЭто первый.\n"


def test_import_into_a_missing_folder_says_it_creates_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = write(tmp_path / "en.txt", EN)
    target = tmp_path / "a" / "missing" / "path"
    code, out, err = run(capsys, "import", str(glossary), "--into", str(target), "--dry-run")
    assert code == 0, err
    assert f"would create folder {target}" in out
    assert not (tmp_path / "a").exists()
    code, out, err = run(capsys, "import", str(glossary), "--into", str(target))
    assert code == 0, err
    assert f"created folder {target}" in out
    assert (target / "t.toml").is_file()
    code, out, _err = run(capsys, "import", str(glossary), "--into", str(target))
    assert code == 0 and "folder" not in out  # it exists now: nothing to say
    code, out, _err = run(capsys, "import", str(glossary), "--into", str(tmp_path / "b"), "--json")
    assert json.loads(out)["created_folder"] == str(tmp_path / "b")


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*")}


@pytest.mark.parametrize(
    ("mapping", "line", "says"),
    [
        (
            '# fixes\n["nope.txt"]\n3 = "one"\n',
            3,
            ['["nope.txt"] 3 = "one"', "not one of the files imported", "en.txt, ru.txt"],
        ),
        (
            '["ru.txt"]\n3 = "two"\n6 = "one"\n',
            3,
            ['["ru.txt"] 6 = "one"', "definition", "term is on line 5", "hint: use the line of"],
        ),
        (
            '["ru.txt"]\n\n3 = "zzz"\n',
            3,
            ['["ru.txt"] 3 = "zzz"', "concept 'zzz'", "neither in deck 'n'", "quizzer show"],
        ),
    ],
    ids=["unknown-file", "definition-line", "unknown-concept"],
)
def test_a_map_entry_that_matches_nothing_is_an_error(
    decks: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mapping: str,
    line: int,
    says: list[str],
) -> None:
    en, ru = write(tmp_path / "en.txt", EN), write(tmp_path / "ru.txt", RU)
    code, _out, err = run(capsys, "import", str(en), str(ru), "--deck", "n")
    assert code == 0, err
    before = _snapshot(decks)
    path = write(tmp_path / "map.toml", mapping)
    for extra in ([], ["--dry-run"]):
        code, out, err = run(
            capsys, "import", str(en), str(ru), "--deck", "n", "--map", str(path), *extra
        )
        assert code == 2, out
        assert f"{path}:{line}: " in err
        for words in says:
            assert words in err
        assert "Traceback" not in err
        assert _snapshot(decks) == before


def test_a_map_to_an_id_the_import_makes_still_works(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ids a dry run reports for new concepts are "in the deck" for the mapping."""
    en, ru = write(tmp_path / "en.txt", EN), write(tmp_path / "ru.txt", RU)
    path = write(tmp_path / "map.toml", '["ru.txt"]\n3 = "two"\n5 = "one"\n')
    code, _out, err = run(capsys, "import", str(en), str(ru), "--deck", "n", "--map", str(path))
    assert code == 0, err


def test_the_kept_texts_note_does_not_say_a_line_is_gone_when_it_is_there(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    en, ru = write(tmp_path / "en.txt", EN), write(tmp_path / "ru.txt", RU)
    code, _out, err = run(capsys, "import", str(en), str(ru), "--deck", "n")
    assert code == 0, err
    # The first import put Два (ru.txt:3) into 'one' by position; move it to 'two'.
    path = write(tmp_path / "map.toml", '["ru.txt"]\n3 = "two"\n')
    code, out, err = run(
        capsys, "import", str(en), str(ru), "--deck", "n", "--map", str(path), "--dry-run"
    )
    assert code == 0, err
    assert "which the file no longer has" not in out
    assert "concept 'one' kept its ru texts from line 3; the entry on that line now goes " in out
    assert "into concept 'two'" in out
    # A line that really is gone still says so.
    write(ru, "T\nS\nДва\nЭто второй.\n")
    code, out, err = run(capsys, "import", str(en), str(ru), "--deck", "n", "--dry-run")
    assert code == 0, err
    assert (
        "ru.txt: concept 'two' kept its ru texts from line 5, which the file no longer has" in out
    )
