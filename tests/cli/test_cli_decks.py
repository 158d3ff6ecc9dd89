"""`quizzer decks`, `show`, `import`, `validate`: end to end, bad input, literal text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from quizzer.cli.main import main
from quizzer.library.importer import PROGRESS_MIN_BYTES, read_glossary

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
TRAINING = [
    DATA / "000_048e4d4c80912def.txt",
    DATA / "002_8ab2fe190dc945a0.txt",
    DATA / "004_578e64a8672be48f.txt",
]
GLOSSARY = (
    "Title\nSubtitle\nFirst term\nIt is the first definition.\nSecond term\nIt is the second.\n"
)


def run(*args: str, decks: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QUIZZER_DECKS": str(decks), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (names include temp files) with its bytes."""
    return {
        str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*") if p.is_file()
    }


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


# -- end to end through `python -m quizzer` ------------------------------------------------------


def test_decks_json_lists_both_bundled_decks(tmp_path: Path) -> None:
    result = run("decks", "--json", decks=tmp_path)
    assert result.returncode == 0, result.stderr
    listed = {d["id"]: d for d in json.loads(result.stdout)}
    assert listed["training-efficiency"]["concepts"] == 16
    assert listed["quantization"]["concepts"] == 20
    for deck in (listed["training-efficiency"], listed["quantization"]):
        assert deck["bundled"] is True
        assert deck["complete_languages"] == ["en", "bn", "ar", "ru", "fr"]
        assert sum(deck["sources"].values()) == deck["concepts"] * 5 * 2
        assert deck["sources"]["seed"] > 0 and deck["sources"]["authored"] > 0


def test_import_three_training_files_end_to_end(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    result = run("import", *map(str, TRAINING), "--deck", "ai-terms", decks=decks)
    assert result.returncode == 0, result.stderr
    assert "created deck 'ai-terms'" in result.stdout
    files = list(decks.iterdir())
    assert [p.name for p in files] == ["ai-terms.toml"]
    first = files[0].read_bytes()
    stat = files[0].stat()

    again = run("import", *map(str, TRAINING), "--deck", "ai-terms", decks=decks)
    assert again.returncode == 0, again.stderr
    assert "unchanged" in again.stdout
    assert files[0].read_bytes() == first
    assert files[0].stat().st_mtime_ns == stat.st_mtime_ns  # not even rewritten

    listing = json.loads(run("decks", "--json", decks=decks).stdout)
    ids = [d["id"] for d in listing]
    assert {"training-efficiency", "quantization", "ai-terms"} <= set(ids)
    mine = next(d for d in listing if d["id"] == "ai-terms")
    assert (mine["bundled"], mine["concepts"], mine["languages"]) == (False, 16, ["bn", "ar", "ru"])
    assert mine["sources"] == {"seed": 96, "authored": 0, "corrected": 0}

    shown = json.loads(run("show", "ai-terms", "--json", decks=decks).stdout)
    assert len(shown) == 16
    assert all(set(c["languages"]) == {"bn", "ar", "ru"} for c in shown)
    lora = next(c for c in shown if c["id"] == "lora")
    for lang, path in zip(("bn", "ar", "ru"), TRAINING, strict=True):
        line5 = path.read_text(encoding="utf-8").split("\n")[4]
        assert lora["languages"][lang]["term"] == line5
        assert lora["languages"][lang]["provenance"]["term"] == {
            "source": "seed",
            "file": path.name,
            "line": 5,
        }


def test_bad_input_end_to_end_has_no_traceback(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    binary = write(tmp_path / "image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = run("import", str(binary), decks=decks)
    assert result.returncode == 2
    assert f"{binary}:3: a NUL byte at line 3, column 1: the file is not text" in result.stderr
    assert "Traceback" not in result.stderr
    assert not decks.exists()


def test_show_bundled_deck_json_holds_lora_seed_terms(tmp_path: Path) -> None:
    result = run("show", "training-efficiency", "--json", decks=tmp_path)
    assert result.returncode == 0, result.stderr
    concepts = json.loads(result.stdout)
    lora = next(c for c in concepts if c["id"] == "lora")
    assert lora["acronym"] == "LoRA"
    for lang, path in zip(("bn", "ar", "ru"), TRAINING, strict=True):
        assert lora["languages"][lang]["provenance"]["term"]["line"] == 5
        assert lora["languages"][lang]["term"] == path.read_text("utf-8").split("\n")[4]
    assert set(lora["languages"]) == {"en", "bn", "ar", "ru", "fr"}


# -- in-process: import ----------------------------------------------------------------------


def test_reimport_after_an_edit_updates_texts_and_keeps_ids(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    copies = [Path(shutil.copy(p, work)) for p in TRAINING]
    code, _out, err = cli(capsys, "import", *map(str, copies), "--deck", "ai")
    assert code == 0, err
    before = json.loads(cli(capsys, "show", "ai", "--json")[1])

    lines = copies[1].read_text(encoding="utf-8").split("\n")
    lines[8] = "الانتباه الوامض"  # line 9: flash attention's Arabic term
    copies[1].write_text("\n".join(lines), encoding="utf-8")
    code, out, err = cli(capsys, "import", str(copies[1]), "--deck", "ai")
    assert code == 0, err
    assert "1 updated" in out
    after = json.loads(cli(capsys, "show", "ai", "--json")[1])
    assert [c["id"] for c in after] == [c["id"] for c in before]
    changed = [b["id"] for b, a in zip(before, after, strict=True) if a != b]
    assert changed == ["flash-attention"]
    assert after[3]["languages"]["ar"]["term"] == "الانتباه الوامض"


def test_dry_run_writes_nothing(decks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = cli(capsys, "import", *map(str, TRAINING), "--dry-run")
    assert code == 0
    assert "dry run: would write" in out
    assert "lora" in out and "position" in out
    assert snapshot(decks) == {}


def test_import_json_report(decks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = cli(capsys, "import", *map(str, TRAINING), "--deck", "x", "--json")
    assert code == 0
    report = json.loads(out)
    assert (report["deck"], report["concept_count"], report["written"]) == ("x", 16, True)
    rows = {row["id"]: row for row in report["alignment"]["concepts"]}
    assert len(rows) == 16
    assert rows["peft"]["confidence"] == 1.0
    assert rows["moe"]["confidence"] == 0.9
    assert [(e["lang"], e["line"], e["method"]) for e in rows["moe"]["entries"]] == [
        ("bn", 27, "new"),
        ("ar", 27, "position"),
        ("ru", 27, "acronym+position"),
    ]


def test_quantization_file_imports_french_and_bengali(
    decks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = cli(capsys, "import", str(DATA / "003_b43aa0d0eec52a3f.txt"), "--deck", "q")
    assert code == 0, err
    shown = json.loads(cli(capsys, "show", "q", "--json")[1])
    langs = [next(iter(c["languages"])) for c in shown]
    assert langs == ["bn"] * 8 + ["fr"] * 8 + ["bn"] * 4
    assert [c["id"] for c in shown[8:10]] == ["gptq", "awq"]
    assert shown[14]["id"] == "scale-factor"


def test_mapping_file_fixes_an_unsure_alignment(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    en = write(tmp_path / "en.txt", "T\nS\nOne\nIt is the first.\nTwo\nIt is the second.")
    ru = write(tmp_path / "ru.txt", "T\nS\nДва\nЭто второй.\nОдин\nЭто первый.")
    code, out, _err = cli(capsys, "import", str(en), str(ru), "--deck", "n", "--dry-run")
    assert code == 0
    assert "UNSURE" in out and "--map" in out
    mapping = write(tmp_path / "map.toml", '["ru.txt"]\n3 = "two"\n5 = "one"\n')
    code, out, err = cli(capsys, "import", str(en), str(ru), "--deck", "n", "--map", str(mapping))
    assert code == 0, err
    shown = {c["id"]: c for c in json.loads(cli(capsys, "show", "n", "--json")[1])}
    assert shown["two"]["languages"]["ru"]["term"] == "Два"
    assert shown["one"]["languages"]["ru"]["term"] == "Один"


def test_a_persian_glossary_imports_as_persian_and_lang_overrides_or_is_refused(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    persian = write(
        tmp_path / "fa.txt",
        "واژه‌نامه\nهوش مصنوعی\nلورا\nروشی برای کاهش حافظه که پارامترها را تقسیم می‌کند.\n",
    )
    code, out, err = cli(capsys, "import", str(persian), "--deck", "farsi")
    assert code == 0, err
    assert "fa.txt: fa (Persian, 1 entries" in out
    shown = json.loads(cli(capsys, "show", "farsi", "--json")[1])
    assert list(shown[0]["languages"]) == ["fa"]

    code, _out, err = cli(capsys, "import", str(persian), "--lang", "farsi", "--deck", "other")
    assert code == 2
    assert "unknown language 'farsi'" in err and "did you mean fa (Persian)?" in err
    assert not (decks / "other.toml").exists()

    code, _out, err = cli(capsys, "import", str(persian), "--lang", "prs", "--deck", "dari")
    assert code == 0, err
    shown = json.loads(cli(capsys, "show", "dari", "--json")[1])
    assert list(shown[0]["languages"]) == ["fa-AF"]  # Dari, in its standard form


def test_bundled_deck_id_is_refused(decks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = cli(capsys, "import", str(TRAINING[0]), "--deck", "quantization")
    assert code == 2 and "bundled deck" in err
    assert snapshot(decks) == {}


def test_progress_bar_for_large_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal
    n = PROGRESS_MIN_BYTES // 40 + 10
    body = "\n".join(f"Term {i}\nIt is the definition of term number {i}." for i in range(n))
    path = write(tmp_path / "big.txt", "Big\nGlossary\n" + body)
    source = read_glossary(path, show_progress=True)
    assert len(source.entries) == n
    assert {e.lang for e in source.entries} == {"en"}
    err = capsys.readouterr().err
    assert "big.txt: reading lines" in err and "big.txt: telling languages" in err
    assert f"{n}/{n}" in err  # the tagging bar reached the end

    small = write(tmp_path / "small.txt", GLOSSARY)
    read_glossary(small, show_progress=True)
    assert capsys.readouterr().err == ""  # small files: no bar


# -- bad input: exit 2, file:line, the deck folder byte-identical ----------------------------


def _existing_deck(decks: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    good = write(tmp_path / "good.txt", GLOSSARY)
    assert cli(capsys, "import", str(good), "--deck", "mine")[0] == 0
    return good


BAD_GLOSSARIES = {
    "binary": (b"T\nS\nterm\x00\x01\x02\n", 3, "NUL byte"),
    "latin-1": ("T\nS\nterm\ndéfinition\n".encode("latin-1"), 4, "not UTF-8"),
    "odd-lines": (b"T\nS\nA\na def\nB\n", 5, "odd number of lines"),
    "empty": (b"", 1, "the file is empty"),
    "long-line": (b"T\nS\nterm\n" + b"x" * 10_001 + b"\n", 4, "characters long"),
    "header-only": (b"Title\nSubtitle\n", 2, "no term/definition pair"),
}


@pytest.mark.parametrize("case", BAD_GLOSSARIES, ids=str)
def test_bad_glossary_exit_2_and_nothing_written(
    case: str, decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _existing_deck(decks, capsys, tmp_path)
    before = snapshot(decks)
    data, line, needle = BAD_GLOSSARIES[case]
    bad = write(tmp_path / f"{case}.txt", data)
    code, _out, err = cli(capsys, "import", str(good), str(bad), "--deck", "mine")
    assert code == 2
    assert err.startswith(f"quizzer: error: {bad}:{line}: ")
    assert needle in err and "hint:" in err
    assert "Traceback" not in err
    assert snapshot(decks) == before


def test_duplicate_concept_ids_in_the_target_deck(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _existing_deck(decks, capsys, tmp_path)
    path = decks / "mine.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('id = "second-term"', 'id = "first-term"'), encoding="utf-8")
    before = snapshot(decks)
    code, _out, err = cli(capsys, "import", str(good), "--deck", "mine")
    assert code == 2
    broken = path.read_text(encoding="utf-8")
    second = broken.index('id = "first-term"', broken.index('id = "first-term"') + 1)
    assert f"{path}:{broken.count(chr(10), 0, second) + 1}: " in err
    assert "duplicate concept id 'first-term'" in err
    assert snapshot(decks) == before
    code, _out, err = cli(capsys, "validate", str(path))
    assert code == 2 and "duplicate concept id" in err


def test_mapping_that_merges_two_entries_is_refused(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _existing_deck(decks, capsys, tmp_path)
    before = snapshot(decks)
    mapping = write(tmp_path / "map.toml", '["good.txt"]\n3 = "same"\n5 = "same"\n')
    code, _out, err = cli(capsys, "import", str(good), "--deck", "mine", "--map", str(mapping))
    assert code == 2
    assert f"{good}:5:" in err and "'same'" in err
    assert snapshot(decks) == before


def test_deck_file_with_missing_field(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _existing_deck(decks, capsys, tmp_path)
    path = decks / "mine.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('source = "seed"\n', "", 1), encoding="utf-8")
    before = snapshot(decks)
    code, _out, err = cli(capsys, "import", str(good), "--deck", "mine")
    assert code == 2
    broken = path.read_text(encoding="utf-8")
    id_line = broken.count("\n", 0, broken.index('id = "first-term"')) + 1
    assert f"{path}:{id_line}: concept 'first-term': first-term.en.term.source: missing" in err
    assert snapshot(decks) == before
    code, out, err = cli(capsys, "validate")
    assert code == 2
    assert "first-term.en.term.source: missing" in err
    assert "training-efficiency" in out  # the good decks are still reported ok
    code, out, err = cli(capsys, "decks")  # the broken deck is skipped, with a warning
    assert code == 0 and "training-efficiency" in out and "mine" not in out
    assert "warning" in err and "mine.toml" in err and "quizzer validate" in err


def test_missing_glossary_file(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = cli(capsys, "import", "no-such-file.txt")
    assert code == 2 and "no-such-file.txt" in err and "Traceback" not in err
    code, _out, err = cli(capsys, "import", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_into_overrides_the_environment(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "good.txt", GLOSSARY)
    elsewhere = tmp_path / "elsewhere"
    code, out, err = cli(capsys, "import", str(good), "--into", str(elsewhere))
    assert code == 0, err
    assert [p.name for p in elsewhere.iterdir()] == ["title.toml"]  # named after line 1
    assert snapshot(decks) == {}
    assert "created deck 'title'" in out


def test_deck_file_holding_another_id_is_not_overwritten(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _existing_deck(decks, capsys, tmp_path)
    (decks / "mine.toml").rename(decks / "other.toml")
    before = snapshot(decks)
    code, _out, err = cli(capsys, "import", str(good), "--deck", "other")
    assert code == 2 and "holds deck 'mine'" in err and "--deck mine" in err
    assert snapshot(decks) == before
    code, out, err = cli(capsys, "import", str(good), "--deck", "mine")
    assert code == 0 and "unchanged" in out


# -- text is data ------------------------------------------------------------------------------

MARKUP = "[bold]x[/] <script>alert(1)</script> {{Front}}"


def test_markup_in_glossary_is_stored_and_shown_literally(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path / "m.txt",
        f"T\nS\n{MARKUP}\nIt is [red]not red[/red] and [link=x]not a link[/link].\n",
    )
    code, _out, err = cli(capsys, "import", str(path), "--deck", "markup")
    assert code == 0, err
    code, out, _err = cli(capsys, "show", "markup")
    assert code == 0
    assert MARKUP in out
    assert "It is [red]not red[/red] and [link=x]not a link[/link]." in out
    shown = json.loads(cli(capsys, "show", "markup", "--json")[1])
    assert shown[0]["languages"]["en"]["term"] == MARKUP
    assert MARKUP in (decks / "markup.toml").read_text(encoding="utf-8")
    code, out, _err = cli(capsys, "decks")
    assert "markup" in out


def test_show_markup_end_to_end(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    path = write(tmp_path / "m.txt", f"T\nS\n{MARKUP}\nIt is the definition.\n")
    assert run("import", str(path), "--deck", "m", decks=decks).returncode == 0
    result = run("show", "m", decks=decks)
    assert result.returncode == 0
    assert MARKUP in result.stdout
    assert "\x1b" not in result.stdout  # not a terminal: no styling codes either


# -- validate, show, help ----------------------------------------------------------------------


def test_validate_bundled_decks(decks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = cli(capsys, "validate")
    assert code == 0
    assert "training-efficiency: 16 concepts" in out and "quantization: 20 concepts" in out
    code, out, _err = cli(capsys, "validate", str(ROOT / "decks"))
    assert code == 0


def test_validate_reports_bad_toml_with_line(tmp_path: Path, capsys) -> None:
    bad = write(tmp_path / "bad.toml", 'format = 1\nid = "x"\nname = \n')
    code, _out, err = cli(capsys, "validate", str(bad))
    assert code == 2 and f"{bad}:3:" in err
    code, _out, err = cli(capsys, "validate", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file" in err


def test_show_unknown_deck(decks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = cli(capsys, "show", "nope")
    assert code == 2 and "no deck named 'nope'" in err and "training-efficiency" in err


def test_show_text_output(decks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = cli(capsys, "show", "training-efficiency")
    assert code == 0
    assert "lora  LoRA" in out
    assert "seed 004_578e64a8672be48f.txt:5" in out
    assert "was: " in out  # corrections show the seed original


@pytest.mark.parametrize("command", ["decks", "show", "import", "validate"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert f"usage: quizzer {command}" in capsys.readouterr().out


def test_terminal_escapes_in_a_deck_file_are_refused(
    decks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = "\\u001b[31mRED\\u001b]0;pwned\\u0007"
    text = (ROOT / "decks" / "quantization.toml").read_text(encoding="utf-8")
    text = text.replace('id = "quantization"', 'id = "evil"', 1)
    first = text.index("[concepts.en.term]\ntext = ")
    start = first + len("[concepts.en.term]\ntext = ")
    end = text.index("\n", start)
    path = write(decks / "evil.toml", text[:start] + f'"{evil}"' + text[end:])
    code, out, err = cli(capsys, "validate", str(path))
    assert code == 2
    assert f"{path}:" in err and ".en.term.text: contains U+001B" in err
    code, out, err = cli(capsys, "show", "quantization")
    # The library skips the bad deck, with a warning, and shows the others.
    assert code == 0 and "evil.toml" in err and "\x1b" not in out + err


def test_import_report_names_the_likely_concept_of_an_unsure_entry(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (DATA / TRAINING[1].name).read_text(encoding="utf-8").split("\n")
    del lines[6:8]  # drop the Arabic "adapters" entry
    arabic = write(tmp_path / TRAINING[1].name, "\n".join(lines))
    files = [str(TRAINING[0]), str(arabic), str(TRAINING[2])]
    code, out, err = cli(capsys, "import", *files, "--deck", "ai", "--dry-run")
    assert code == 0, err
    assert "(likely lora or " in out
    assert f'["{arabic.name}"]\n  5 = "lora"' in out
    mapping = write(
        tmp_path / "map.toml",
        f'["{arabic.name}"]\n5 = "lora"\n7 = "flash-attention"\n'
        '9 = "dinamicheskoe-udalenie-tokenov"\n',
    )
    code, out, err = cli(capsys, "import", *files, "--deck", "ai", "--map", str(mapping))
    assert code == 0, err
    assert "UNSURE" not in out and "(16 concepts;" in out


def test_validate_on_a_glossary_says_to_import_it(
    decks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = TRAINING[0]
    code, _out, err = cli(capsys, "validate", str(glossary))
    assert code == 2
    assert f"{glossary}: this looks like a glossary" in err
    assert f"quizzer import {glossary}" in err and "TOML" not in err


def test_validate_on_some_other_file(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = write(tmp_path / "notes.md", "# just a note\n")
    code, _out, err = cli(capsys, "validate", str(other))
    assert code == 2 and f"{other}: not a deck file" in err


def test_deck_file_hint_does_not_point_into_a_checkout(
    decks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(decks / "bad.toml", 'format = 1\nid = "bad"\nname = "Bad"\n\n[[concepts]]\n')
    code, _out, err = cli(capsys, "validate", str(bad))
    assert code == 2
    assert "decks/*.toml" not in err and "quizzer show training-efficiency" in err


def test_decks_table_fits_80_columns(decks: Path) -> None:
    listing = {d["id"]: d for d in json.loads(run("decks", "--json", decks=decks).stdout)}
    result = subprocess.run(  # a subprocess: Rich reads COLUMNS when it starts
        [sys.executable, "-m", "quizzer", "decks"],
        capture_output=True,
        text=True,
        env={**os.environ, "QUIZZER_DECKS": str(decks), "COLUMNS": "80"},
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    lines = result.stdout.splitlines()
    # The table and legend fit; the user-decks path is data of any length and may not.
    table = [line for line in lines if not line.startswith("user decks:")]
    assert all(len(line) <= 80 for line in table), table
    assert lines[0].split() == ["deck", "name", "concepts", "languages", "texts", "where"]
    rows = {line.split()[0]: line.split() for line in lines[1:] if line[:1].strip()}
    q = listing["quantization"]["sources"]
    texts = f"{q['seed']}/{q['authored']}/{q['corrected']}"
    assert rows["quantization"][2:] == ["20", "en", "bn", "ar", "ru", "fr", texts, "bundled"]
    assert "training-efficiency" in rows
    assert any(line.startswith("texts: seed/authored/corrected") for line in lines)


def test_validate_refuses_a_deck_without_concepts(
    decks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = write(decks / "empty.toml", 'format = 1\nid = "empty"\nname = "Empty"\n')
    code, out, err = cli(capsys, "validate", str(empty))
    assert code == 2
    assert f"quizzer: error: {empty}: deck has no concepts" in err and "ok" not in out


def test_show_rtl_app_shapes_and_orders_arabic_and_keeps_piped_output_logical() -> None:
    shaped = subprocess.run(
        [sys.executable, "-m", "quizzer", "show", "training-efficiency", "--rtl", "app"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        cwd=ROOT,
        timeout=60,
        check=True,
    ).stdout
    ar_term = next(line for line in shaped.splitlines() if line.startswith("  ar term"))
    # Visual order with joined presentation forms, brackets mirrored, the label left alone.
    assert "(PEFT) " in ar_term and ")PEFT(" not in ar_term
    assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in ar_term)
    # Measured in cells: the harakat kept on the letters take none.
    ar_lines = [line for line in shaped.splitlines() if line.startswith("  ar ")]
    assert all(cell_len(line) <= 100 for line in ar_lines)
    piped = subprocess.run(
        [sys.executable, "-m", "quizzer", "show", "training-efficiency"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    ).stdout
    assert "الضبط الدقيق الفعال للمعلمات (PEFT)" in piped


def test_decks_table_lines_up_a_bengali_deck_name(decks: Path) -> None:
    """Terminals draw Bengali vowel signs one cell wide; the table must count them so too."""
    from quizzer.ui.textshape import cells

    run("import", str(DATA / "003_b43aa0d0eec52a3f.txt"), decks=decks)
    out = run("decks", decks=decks).stdout
    rows = [line for line in out.splitlines() if line[:1].strip()]
    named = [line for line in rows if "এআই" in line]
    assert named, out
    # Measured as a terminal draws them (a vowel sign a cell).
    assert len({cells(line) for line in rows if not line.startswith(("texts:", "user"))}) == 1


LOADED_BY = """
import json, sys
from quizzer.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


@pytest.mark.parametrize("command", [["decks"], ["show", "quantization"]])
def test_decks_and_show_load_no_store_or_other_commands(
    command: list[str], decks: Path, tmp_path: Path
) -> None:
    """Listing or showing decks reads summaries only: the store and the other commands'
    modules (statistics, Anki, import) are never imported for it (under 1 s)."""
    env = {**os.environ, "QUIZZER_CACHE": str(tmp_path / "cache"), "QUIZZER_DB": "/nonexistent"}
    done = subprocess.run(
        [sys.executable, "-c", LOADED_BY, *command],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    assert done.stdout.strip(), "nothing printed"
    loaded = set(report["modules"])
    for heavy in ("quizzer.progress", "quizzer.cli.stats_cmd", "quizzer.cli.export_cmd"):
        assert heavy not in loaded, heavy
