"""``quizzer import DECK.toml``: a quizzer deck file (shared by another learner, or kept from
another machine) added to the user decks folder, checked first and written as quizzer
writes its decks. Its ids are kept, so its cards, and any progress on them, are the same."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from quizzer.concepts.deck import Deck
from quizzer.errors import InputError
from quizzer.library.decks import deck_files, read_deck
from quizzer.library.importer import Written, write_built_deck
from quizzer.library.summary import read_summary
from quizzer.paths import bundled_decks_dir, user_decks_dir


@dataclass(frozen=True, slots=True)
class DeckFileCounts:
    """How the imported deck's concepts compare with the deck already there (by id)."""

    new: int
    updated: int
    unchanged: int
    removed: int

    def __str__(self) -> str:
        words = f"{self.new} new, {self.updated} updated, {self.unchanged} unchanged"
        return words + (f", {self.removed} removed" if self.removed else "")


def import_deck_file(
    path: Path, *, into: Path | str | None = None, dry_run: bool = False
) -> Written[DeckFileCounts]:
    """Add the deck file at ``path`` to the user decks folder (``into``), or update the deck
    of the same id there to it. The file is read with the deck loader's limits and checks;
    nothing is written when it is refused, or for a dry run."""
    deck = read_deck(path)
    if not deck.concepts:
        raise InputError(
            "this deck file has no concepts", hint="give a deck with [[concepts]]", path=path
        )
    bundled = {read_summary(p, bundled=True).id: p for p in deck_files(bundled_decks_dir())}
    if deck.id in bundled:
        raise InputError(
            f"its deck id {deck.id!r} is a bundled deck's ({bundled[deck.id].name})",
            hint="give it another id (its `id = ` line) to import it beside that deck",
            path=path,
        )
    directory = user_decks_dir(into)
    if directory.is_dir() and path.resolve().parent == directory.resolve():
        raise InputError(
            "this deck file is already in your decks folder",
            hint="`quizzer validate` checks it; `quizzer decks` lists it",
            path=path,
        )

    def build(existing: Deck | None) -> tuple[Deck, DeckFileCounts]:
        before = {c.id: c for c in existing.concepts} if existing is not None else {}
        kinds = Counter(
            "new" if c.id not in before else "unchanged" if before[c.id] == c else "updated"
            for c in deck.concepts
        )
        removed = len(before.keys() - {c.id for c in deck.concepts})
        return deck, DeckFileCounts(kinds["new"], kinds["updated"], kinds["unchanged"], removed)

    return write_built_deck(build, deck_id=deck.id, into=into, dry_run=dry_run)
