"""Test data built in code: concepts, small decks and the bundled decks (one factory each)."""

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


#: The bundled decks' languages, in the order their files list them (data, not a list of
#: quizzer's: any language is one).
BUNDLED_LANGUAGES: tuple[str, ...] = bundled("training-efficiency").languages


def entry(term: str, definition: str) -> Entry:
    """An authored term/definition pair."""
    return Entry(Text(term, AUTHORED), Text(definition, AUTHORED))


def concept(
    deck: str, cid: str, texts: dict[str, tuple[str, str]], acronym: str | None = None
) -> Concept:
    """A concept from ``{lang: (term, definition)}``, all texts authored, languages in the
    order given."""
    entries = {lang: entry(*pair) for lang, pair in texts.items()}
    return Concept(id=cid, deck=deck, acronym=acronym, entries=entries)


def mini_deck(deck: str, terms: list[str], lang: str = "en") -> Deck:
    """A deck whose concept i has term ``terms[i]`` and definition ``"definition i"``."""
    concepts = tuple(
        concept(deck, f"c{i}", {lang: (term, f"definition {i}")}) for i, term in enumerate(terms)
    )
    return Deck(id=deck, name=deck, concepts=concepts)


def ru_bn_deck(deck_id: str = "demo", n: int = 4) -> Deck:
    """A deck of ``n`` concepts ``c0``… with Russian and Bengali texts (all authored)."""
    concepts = tuple(
        concept(
            deck_id,
            f"c{i}",
            {"ru": (f"термин {i}", f"определение {i}"), "bn": (f"পরিভাষা {i}", f"সংজ্ঞা {i}")},
        )
        for i in range(n)
    )
    return Deck(id=deck_id, name=deck_id.title(), concepts=concepts)
