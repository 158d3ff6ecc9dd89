"""`quizzer import` writes, byte for byte, the deck files and reports it wrote before the speedups.

The goldens in ``tests/cli/golden/`` were written by main at 961df06 (before the
import speed-ups) with ``python tests/cli/test_import_golden.py --write``: the bundled
glossaries of ``data/`` imported into a new deck, imported again unchanged, re-imported
after an edit, and merged into a copy of a bundled deck (authored and corrected texts);
and a 3,000-entry Bengali glossary with a parallel Russian one that lacks entries (unsure
rows), whose big outputs are kept as SHA-256 digests. Each scenario's deck file, its
``--json`` report and its human report (paths replaced by ``<tmp>``) must not change.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from quizzer.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
DATA = sorted((ROOT / "data").glob("*.txt"))
BIG = 3_000
#: Outputs bigger than this are kept as digests, not as files.
DIGEST_OVER = 200_000
BENGALI_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def _cli(tmp: Path, *args: str) -> str:
    """`quizzer ARGS...` in-process: its stdout (exit 0 asserted), ``tmp`` written ``<tmp>``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    assert code == 0, (args, out.getvalue())
    return out.getvalue().replace(str(tmp), "<tmp>")


def _big_files(tmp: Path) -> list[str]:
    """A Bengali glossary of ``BIG`` entries (acronyms on some terms) and a Russian one
    lacking a stretch of them, as a frequency list and its partial translation would be."""
    bn, ru = ["বড় গ্লসারি", "পরীক্ষা"], ["Большой глоссарий", "Тест"]
    for i in range(1, BIG + 1):
        number = str(i).translate(BENGALI_DIGITS)
        acronym = f" (BG{i})" if i % 7 == 0 else ""
        bn += [f"পদ নম্বর {number}{acronym}", f"এটি পদের সংজ্ঞা এবং সংখ্যা {number}।"]
        if not 1_000 <= i < 1_040 and i % 500:
            ru += [f"Термин номер {i}{acronym}", f"Это определение термина и номера {i}."]
    paths = [tmp / "big_bn.txt", tmp / "big_ru.txt"]
    for path, lines in zip(paths, (bn, ru), strict=True):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [str(p) for p in paths]


def scenarios(tmp: Path) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every output the goldens hold, in order."""
    data = [str(p) for p in DATA]
    into = tmp / "decks"
    yield "data.out.txt", _cli(tmp, "import", *data, "--into", str(into)).encode()
    (deck,) = sorted(into.glob("*.toml"))
    yield "data.toml", deck.read_bytes()
    yield "data.again.json", _cli(tmp, "import", *data, "--into", str(into), "--json").encode()

    # An edited glossary: a definition changed, an entry dropped, one added at the end.
    lines = DATA[3].read_text(encoding="utf-8").splitlines()
    lines[3] += " (исправлено)"
    del lines[8:10]
    lines += ["Новый термин (NEWT)", "Определение нового термина."]
    edited = tmp / DATA[3].name
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = [*data[:3], str(edited), "--into", str(into)]
    yield "data.edited.out.txt", _cli(tmp, "import", *args).encode()
    yield "data.edited.toml", deck.read_bytes()

    # A merge of the edited glossary into a copy of a bundled deck: authored English and
    # corrected seeds kept, edited seeds updated.
    merged = tmp / "merged"
    merged.mkdir()
    text = (ROOT / "decks" / "training-efficiency.toml").read_text(encoding="utf-8")
    copy = merged / "te-copy.toml"
    copy.write_text(text.replace('id = "training-efficiency"', 'id = "te-copy"', 1), "utf-8")
    args = [data[0], str(edited), "--deck", "te-copy", "--into", str(merged)]
    yield "merge.json", _cli(tmp, "import", *args, "--json").encode()
    yield "merge.toml", copy.read_bytes()

    big = tmp / "big"
    files = _big_files(tmp)
    yield "big.out.txt", _cli(tmp, "import", *files, "--deck", "big", "--into", str(big)).encode()
    yield "big.toml", (big / "big.toml").read_bytes()
    again = _cli(tmp, "import", *files, "--deck", "big", "--into", str(big), "--json")
    yield "big.again.json", again.encode()
    report = tmp / "report.txt"
    _cli(tmp, "import", *files, "--deck", "big", "--into", str(big), "--report", str(report))
    yield "big.report.txt", report.read_bytes()


def _golden(name: str, value: bytes) -> tuple[str, bytes]:
    """The golden file's name and content for an output (a digest when it is big)."""
    if len(value) > DIGEST_OVER:
        return f"{name}.sha256", hashlib.sha256(value).hexdigest().encode() + b"\n"
    return name, value


@contextlib.contextmanager
def _environment(tmp: Path) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in ("QUIZZER_CACHE", "COLUMNS", "QUIZZER_DECKS")}
    os.environ.update(QUIZZER_CACHE=str(tmp / "cache"), COLUMNS="120")
    os.environ.pop("QUIZZER_DECKS", None)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def test_import_writes_what_it_wrote_before(tmp_path: Path) -> None:
    expected = {p.name for p in GOLDEN.iterdir()}
    seen = set()
    with _environment(tmp_path):
        for name, value in scenarios(tmp_path):
            golden_name, content = _golden(name, value)
            seen.add(golden_name)
            want = (GOLDEN / golden_name).read_bytes()
            assert content == want, f"{golden_name} differs from the golden"
    assert seen == expected
    digests = [name for name in seen if name.endswith(".sha256")]
    assert len(digests) >= 2  # the big deck and its report are checked too


def test_the_goldens_say_something() -> None:
    deck = (GOLDEN / "data.toml").read_text(encoding="utf-8")
    assert deck.count("[[concepts]]") > 15 and "[concepts.ar.term]" in deck
    merge = json.loads((GOLDEN / "merge.json").read_text(encoding="utf-8"))
    assert {c["status"] for c in merge["alignment"]["concepts"]} >= {"unchanged", "updated"}
    out = (GOLDEN / "big.out.txt").read_text(encoding="utf-8")
    assert "UNSURE" in out and "--report FILE or --verbose" in out


def _write(tmp: Path) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.iterdir():
        old.unlink()
    with _environment(tmp):
        for name, value in scenarios(tmp):
            golden_name, content = _golden(name, value)
            (GOLDEN / golden_name).write_bytes(content)
            print(golden_name, len(value))


if __name__ == "__main__":
    import tempfile

    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python tests/cli/test_import_golden.py --write")
    with tempfile.TemporaryDirectory() as folder:
        _write(Path(folder))
