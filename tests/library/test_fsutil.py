"""Atomic writes give files the mode any other tool would: umask for new, kept on replace."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.fsutil import atomic_write_bytes, current_umask
from quizzer.library.decks import read_deck, write_deck


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.usefixtures("umask_027")
def test_current_umask_reads_without_changing() -> None:
    assert current_umask() == 0o027
    assert current_umask() == 0o027


@pytest.mark.usefixtures("umask_027")
def test_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    path = tmp_path / "new.bin"
    atomic_write_bytes(path, b"data")
    assert mode(path) == 0o640  # not mkstemp's 0600
    os.umask(0o022)
    other = tmp_path / "other.bin"
    atomic_write_bytes(other, b"data")
    assert mode(other) == 0o644


@pytest.mark.usefixtures("umask_027")
def test_replacing_keeps_the_existing_mode(tmp_path: Path) -> None:
    path = tmp_path / "kept.bin"
    path.write_bytes(b"old")
    path.chmod(0o604)
    atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"new" and mode(path) == 0o604
    assert [p.name for p in tmp_path.iterdir()] == ["kept.bin"]


def test_deck_files_are_written_with_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        text = Text("a term long enough to be written as a table", Provenance("authored"))
        deck = Deck("mini", "Mini", (Concept("a", "mini", None, {"en": Entry(text, text)}),))
        path = tmp_path / "mini.toml"
        write_deck(deck, path)
        assert mode(path) == 0o644 and read_deck(path) == deck
    finally:
        os.umask(old)
