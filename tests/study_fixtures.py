"""Shared test data for the study core: the bundled decks and small hand-made concepts."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck, loads

DECKS = Path(__file__).resolve().parents[1] / "decks"
AUTHORED = Provenance("authored")


@cache
def bundled(deck_id: str) -> Deck:
    """A bundled deck, parsed from decks/<id>.toml."""
    return loads((DECKS / f"{deck_id}.toml").read_text(encoding="utf-8"))


def concept(
    deck: str, cid: str, texts: dict[str, tuple[str, str]], acronym: str | None = None
) -> Concept:
    """A concept from ``{lang: (term, definition)}``."""
    entries = {
        lang: Entry(Text(term, AUTHORED), Text(definition, AUTHORED))
        for lang, (term, definition) in texts.items()
    }
    return Concept(id=cid, deck=deck, acronym=acronym, entries=entries)


def mini_deck(deck: str, terms: list[str], lang: str = "en") -> Deck:
    """A deck whose concept i has term ``terms[i]`` and definition ``"definition i"``."""
    concepts = tuple(
        concept(deck, f"c{i}", {lang: (term, f"definition {i}")}) for i, term in enumerate(terms)
    )
    return Deck(id=deck, name=deck, concepts=concepts)
