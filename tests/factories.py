"""Small decks built in code for store and scheduling tests."""

from __future__ import annotations

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck


def ru_bn_deck(deck_id: str = "demo", n: int = 4) -> Deck:
    """A deck of ``n`` concepts ``c0``… with Russian and Bengali texts (all authored)."""

    def text(s: str) -> Text:
        return Text(s, Provenance("authored"))

    concepts = tuple(
        Concept(
            id=f"c{i}",
            deck=deck_id,
            entries={
                "ru": Entry(text(f"термин {i}"), text(f"определение {i}")),
                "bn": Entry(text(f"পরিভাষা {i}"), text(f"সংজ্ঞা {i}")),
            },
        )
        for i in range(n)
    )
    return Deck(id=deck_id, name=deck_id.title(), concepts=concepts)
