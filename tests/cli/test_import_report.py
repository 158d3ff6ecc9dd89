"""`quizzer import` sums up a big import in a few lines; the whole table: --report, --verbose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.cli.import_report import FULL_TABLE_MAX, REPORT_HEADER, UNSURE_SHOWN
from quizzer.cli.main import main

ENTRIES = 300
MISSING = 140  # the Russian file lacks this entry …
BARE = range(100, 181)  # … in a stretch where its terms carry no acronym: 80 unsure entries


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def parallel_files(directory: Path) -> list[str]:
    """An English and a Russian glossary of 300 entries, acronyms on 9 of 10 terms."""
    en, ru = ["T", "S"], ["T", "S"]
    for i in range(1, ENTRIES + 1):
        acronym = f" (AB{i})" if i % 10 else ""
        en += [f"Term number {i}{acronym}", f"It is the definition of the term and the number {i}."]
        if i != MISSING:
            ru_acronym = "" if i in BARE else acronym
            ru += [f"Термин номер {i}{ru_acronym}", f"Это определение термина и номера {i}."]
    paths = [directory / "en.txt", directory / "ru.txt"]
    for path, lines in zip(paths, (en, ru), strict=True):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [str(p) for p in paths]


def test_a_big_import_prints_counts_and_only_the_unsure_rows(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "import", *parallel_files(tmp_path), "--deck", "n")
    assert code == 0, err
    assert "alignment: 380 concepts (380 new, 0 updated, 0 unchanged)" in out
    assert "80 UNSURE (below 0.8)" in out
    assert "acronym 198" in out  # entries matched per method
    rows = [line for line in out.splitlines() if "UNSURE (likely" in line]
    assert len(rows) == UNSURE_SHOWN
    assert f"… and {80 - UNSURE_SHOWN} more unsure" in out
    assert "ab2 " not in out and "term-number-10 " not in out  # sure rows are left out
    assert "--report FILE or --verbose" in out
    assert len(out.splitlines()) < UNSURE_SHOWN * 3  # nowhere near one line per concept
    assert (decks / "n.toml").is_file()


def test_the_full_table_goes_to_the_report_file_or_with_verbose(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = parallel_files(tmp_path)
    report = tmp_path / "report.txt"
    code, out, err = cli(capsys, "import", *files, "--deck", "n", "--report", str(report))
    assert code == 0, err
    assert f"full alignment report: {report}" in out
    lines = report.read_text(encoding="utf-8").splitlines()
    assert lines[0] == REPORT_HEADER
    assert "# confidence: 81 at 1.00, 219 from 0.8 to 0.99, 80 UNSURE (below 0.8)" in lines
    table = [line for line in lines if not line.startswith("#")]
    assert table[0].split()[:3] == ["concept", "status", "confidence"]
    assert len(table) == 1 + 380
    ids = {line.split()[0] for line in table[1:]}
    assert {"ab1", "ab2", "term-number-10", "termin-nomer-100"} <= ids

    code, out, err = cli(capsys, "import", *files, "--deck", "n", "--verbose")
    assert code == 0, err
    verbose = [line for line in out.splitlines() if line.split()[:1] and line.split()[0] in ids]
    assert len(verbose) == 380
    assert all(line.split()[1] == "unchanged" for line in verbose)

    # Our own report is replaced when asked again; anything else is never overwritten.
    assert cli(capsys, "import", *files, "--deck", "n", "--report", str(report))[0] == 0
    assert "380 unchanged" in report.read_text(encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    code, _out, err = cli(capsys, "import", *files, "--deck", "n", "--report", str(notes))
    assert code == 2
    assert "not a quizzer import report" in err and str(notes) in err
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    code, _out, err = cli(capsys, "import", *files, "--report", str(tmp_path / "no" / "r.txt"))
    assert code == 2 and "does not exist" in err


def test_json_is_the_whole_report_at_any_size(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "import", *parallel_files(tmp_path), "--deck", "n", "--json")
    assert code == 0, err
    concepts = json.loads(out)["alignment"]["concepts"]
    assert len(concepts) == 380
    assert sum(1 for c in concepts if c["confidence"] < 0.8) == 80


def test_a_small_import_still_prints_every_row(
    decks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["T", "S"]
    for i in range(1, FULL_TABLE_MAX + 1):
        lines += [f"Term {i}", f"It is the definition of the term {i}."]
    path = tmp_path / "small.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    code, out, err = cli(capsys, "import", str(path), "--deck", "s")
    assert code == 0, err
    assert all(f"term-{i} " in out for i in range(1, FULL_TABLE_MAX + 1))
    assert "alignment:" not in out
