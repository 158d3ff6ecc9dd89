"""Write a big glossary in the repository's glossary format, for the speed benchmarks.

The entries are the Bengali glossary ``data/000_*.txt`` repeated with a number in
each term and definition (so every term is distinct), as a learner's frequency
list or dictionary would look: line 1 a title, line 2 a subtitle, then a term
line and a definition line per entry. Every 50th term carries an acronym in
parentheses, as the real glossaries do. Also writes the same entries as a CSV
(term, definition) for Anki's importer when ``--csv`` is given.

Run: ``.venv/bin/python benchmarks/big_glossary.py OUT.txt [--entries 50000] [--csv OUT.csv]``
Never commit the output: generate it in a temp dir.
"""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = next((ROOT / "data").glob("000_*.txt"))
BENGALI_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def seed_pairs() -> list[tuple[str, str]]:
    """The (term, definition) pairs of the bundled Bengali glossary, acronyms removed."""
    lines = [line.strip() for line in SEED.read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines[2:] if line]
    pairs = []
    for term, definition in zip(lines[::2], lines[1::2], strict=True):
        bare = term.split(" (")[0].strip()
        pairs.append((bare, definition))
    return pairs


def entries(n: int) -> list[tuple[str, str]]:
    """``n`` distinct Bengali (term, definition) pairs."""
    pairs = seed_pairs()
    out = []
    for i in range(n):
        term, definition = pairs[i % len(pairs)]
        number = str(i + 1).translate(BENGALI_DIGITS)
        term = f"{term} {number}"
        if i % 50 == 0:
            term += f" (BG{i + 1})"
        out.append((term, f"{definition[:-1]} ({number})।"))
    return out


def glossary_text(n: int) -> str:
    """The glossary file's text with ``n`` entries."""
    lines = ["বড় এআই গ্লসারি", f"{n} টি পদ, পরীক্ষার জন্য"]
    for term, definition in entries(n):
        lines += [term, definition]
    return "\n".join(lines) + "\n"


def csv_text(n: int) -> str:
    """The same entries as a two-column CSV (front, back), as Anki imports them."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for term, definition in entries(n):
        writer.writerow([term, definition])
    return buf.getvalue()


def write(path: Path, n: int, csv_path: Path | None = None) -> None:
    """Write the glossary (and the CSV) with ``n`` entries."""
    path.write_text(glossary_text(n), encoding="utf-8")
    if csv_path is not None:
        csv_path.write_text(csv_text(n), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--entries", type=int, default=50_000)
    parser.add_argument("--csv", type=Path)
    args = parser.parse_args()
    write(args.out, args.entries, args.csv)


if __name__ == "__main__":
    main()
