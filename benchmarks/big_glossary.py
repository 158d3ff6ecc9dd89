"""Write a big glossary in the repository's glossary format, for the speed benchmarks.

The entries are the Bengali glossary ``data/000_*.txt`` repeated with a number in
each term and definition (so every term is distinct), as a learner's frequency
list or dictionary would look: line 1 a title, line 2 a subtitle, then a term
line and a definition line per entry. Every 50th term carries an acronym in
parentheses, as the real glossaries do. Also writes the same entries as a CSV
(term, definition) for Anki's importer when ``--csv`` is given.

With ``--mixed`` the entries are instead the English and French texts of the bundled
decks (``decks/*.toml``), alternating, each numbered: a file in one script whose every
entry's language lingua must tell, the detector's heaviest case.

Run: ``.venv/bin/python benchmarks/big_glossary.py OUT.txt [--entries 50000] [--csv OUT.csv]
[--mixed]``. Never commit the output: generate it in a temp dir.
"""

from __future__ import annotations

import argparse
import csv
import io
import tomllib
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


def deck_pairs(lang: str) -> list[tuple[str, str]]:
    """The (term, definition) pairs in ``lang`` of the bundled decks' concepts."""
    pairs = []
    for path in sorted((ROOT / "decks").glob("*.toml")):
        for concept in tomllib.loads(path.read_text(encoding="utf-8"))["concepts"]:
            texts = concept[lang]
            pairs.append((texts["term"]["text"], texts["definition"]["text"]))
    return pairs


def mixed_entries(n: int) -> list[tuple[str, str]]:
    """``n`` distinct (term, definition) pairs alternating English and French."""
    both = (deck_pairs("en"), deck_pairs("fr"))
    out = []
    for i in range(n):
        pairs = both[i % 2]
        term, definition = pairs[(i // 2) % len(pairs)]
        out.append((f"{term} {i + 1}", f"{definition[:-1]} ({i + 1})."))
    return out


def glossary_text(n: int, mixed: bool = False) -> str:
    """The glossary file's text with ``n`` entries."""
    if mixed:
        lines = ["AI glossary / Glossaire IA", f"{n} entries, for testing"]
    else:
        lines = ["বড় এআই গ্লসারি", f"{n} টি পদ, পরীক্ষার জন্য"]
    for term, definition in mixed_entries(n) if mixed else entries(n):
        lines += [term, definition]
    return "\n".join(lines) + "\n"


def csv_text(n: int, mixed: bool = False) -> str:
    """The same entries as a two-column CSV (front, back), as Anki imports them."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for term, definition in mixed_entries(n) if mixed else entries(n):
        writer.writerow([term, definition])
    return buf.getvalue()


def write(path: Path, n: int, csv_path: Path | None = None, mixed: bool = False) -> None:
    """Write the glossary (and the CSV) with ``n`` entries."""
    path.write_text(glossary_text(n, mixed), encoding="utf-8")
    if csv_path is not None:
        csv_path.write_text(csv_text(n, mixed), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--entries", type=int, default=50_000)
    parser.add_argument("--csv", type=Path)
    parser.add_argument("--mixed", action="store_true", help="English and French entries")
    args = parser.parse_args()
    write(args.out, args.entries, args.csv, args.mixed)


if __name__ == "__main__":
    main()
