"""Rough edges of issue 13 in the commands: --map entries that match nothing, side prefixes,
help texts, the optimiser's message, `import --into` a new folder, one-language decks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.cards.card import Pair
from quizzer.cli.main import main
from quizzer.cli.study_cmd import parse_side, resolve_pair
from quizzer.errors import InputError
from tests.cli_support import run, write

EN = "T\nS\nOne\nIt is the first.\nTwo\nIt is the second.\n"
RU = "T\nS\nДва\nЭто второй.\nОдин\nЭто первый.\n"
FR = (
    "Glossaire\nIA\nQuantification\nLa réduction de la précision des poids du modèle.\n"
    "Élagage\nLa suppression des poids qui comptent le moins dans le réseau.\n"
)


# -- 11. side prefixes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("t", "term"),
        ("term", "term"),
        ("TERM", "term"),
        ("d", "definition"),
        ("def", "definition"),
        ("definition", "definition"),
    ],
)
def test_a_side_may_be_abbreviated(text: str, side: str) -> None:
    from quizzer.concepts.languages import parse_side as parse_side_name

    assert parse_side_name(text) == side
    assert parse_side(f"en:{text}", "--from", "term") == ("en", side)


@pytest.mark.parametrize("text", ["", "x", "terms", "definitions", "word"])
def test_a_side_that_is_no_prefix_is_refused(text: str) -> None:
    from quizzer.concepts.languages import parse_side as parse_side_name

    with pytest.raises(ValueError, match="unknown side"):
        parse_side_name(text)
    with pytest.raises(InputError, match="unknown side"):
        parse_side(f"en:{text}", "--to", "term")


def test_study_from_en_def_is_the_definition() -> None:
    assert resolve_pair("en:def", "ru:t", None) == resolve_pair("en:definition", "ru:term", None)


# -- 13. help ---------------------------------------------------------------------------------


def test_top_level_help_lists_db(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--db PATH" in out


def test_home_help_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["home", "--help"])
    out = capsys.readouterr().out
    usage, _blank, rest = out.partition("\n\n")
    assert usage.startswith("usage: quizzer home")
    assert rest.startswith("Open the home screen")


# -- 15. optimize with too few answers ------------------------------------------------------


def test_optimize_with_too_few_answers_explains_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from datetime import UTC, datetime

    from quizzer.cards.card import CardKey
    from quizzer.progress import open_store
    from quizzer.scheduling.answer import Answer

    monkeypatch.setenv("COLUMNS", "200")
    db = tmp_path / "p.json"
    with open_store(db) as store:
        store.record(
            CardKey.parse("quantization/gptq|en:term>en:definition"),
            3,
            datetime(2026, 1, 1, 10, tzinfo=UTC),
            Answer(duration_ms=1000),
        )
    code, out, _err = run(capsys, "optimize", "--db", str(db))
    assert code == 0
    assert out.count("on a later day than the card's previous answer") == 1
    assert out.count("at least 400") == 1 and "400 needed" not in out  # said once
    assert "Nothing was changed" in out and "400 more" in out


# -- 16. import --into a folder that doesn't exist -----------------------------------------


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


# -- 17. a one-language deck ------------------------------------------------------------------


def test_resolve_pair_for_a_french_only_deck() -> None:
    french = Pair("fr", "term", "fr", "definition")
    assert resolve_pair(None, None, None, ("fr",)) == french
    # A last direction the deck has no text for is not reused.
    last = Pair("en", "definition", "en", "term")
    assert resolve_pair(None, None, last, ("fr",)) == french
    assert resolve_pair("fr:definition", None, last, ("fr",)) == Pair(
        "fr", "definition", "fr", "term"
    )
    # A deck with English keeps the English default.
    assert resolve_pair(None, None, None, ("en", "fr")) == last


def test_study_a_french_only_deck_without_from_and_to(
    decks: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from quizzer.ui.app import QuizzerApp
    from quizzer.ui.screens.study import StudyScreen

    glossary = write(tmp_path / "fr.txt", FR)
    code, _out, err = run(capsys, "import", str(glossary), "--deck", "mots", "--lang", "fr")
    assert code == 0, err
    db = str(tmp_path / "p.json")
    seen: dict[str, object] = {}
    real_run = QuizzerApp.run

    async def look(pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        seen["screen"] = type(screen).__name__
        if isinstance(screen, StudyScreen):
            seen["prompt"] = str(screen.query_one("#prompt").render())
        await pilot.press("q", "enter")

    def headless_run(self, **kwargs):
        seen["pair"] = self.start.pair if self.start else None
        return real_run(self, headless=True, size=(100, 30), auto_pilot=look)

    monkeypatch.setattr(QuizzerApp, "run", headless_run)
    french = Pair("fr", "term", "fr", "definition")
    # First with no last choice; then after an English session on another deck, whose
    # direction the French deck has no text for.
    for argv, pair in (
        (["study", "mots"], french),
        (["study", "quantization", "--from", "en:def", "--to", "en:term"], None),
        (["study", "mots"], french),
    ):
        seen.clear()
        code = main([*argv, "--db", db])
        assert code == 0
        assert seen["screen"] == "StudyScreen"
        if pair is not None:
            assert seen["pair"] == pair
            assert "Quantification" in str(seen["prompt"]) or "Élagage" in str(seen["prompt"])


# -- 9. --map entries that match nothing ----------------------------------------------------


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
