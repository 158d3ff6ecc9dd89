"""The deck library for the screens: the bundled decks and the user's, loaded once asked."""

from __future__ import annotations

from quizzer.concepts.deck import Deck


def library_decks() -> list[Deck]:
    """Every deck of the library (bundled and user decks), in library order."""
    from quizzer.library.decks import load_library

    return [item.deck for item in load_library()]
