"""The card browser's rules: a search that matches texts as answers are compared, and each
card's status (new, learning, due, review, leech, suspended) at a moment.

Pure: ``now`` is an argument.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import fsrs

from quizzer.concepts.concept import Concept
from quizzer.concepts.normalize import compact, comparison_key
from quizzer.scheduling.card_state import CardState

#: Every status a card can be in, as the browser filters them.
STATUSES = ("new", "learning", "due", "review", "leech", "suspended")


def search_key(text: str, lang: str) -> str:
    """``text`` as answers are compared in ``lang`` (case, accents, punctuation, spacing and
    the language's own variants set aside)."""
    return compact(comparison_key(text, lang, accents=False))


def matching_texts(concept: Concept, query: str) -> list[tuple[str, str]]:
    """The (language, side) of each of ``concept``'s texts that holds ``query``, each
    normalised in that text's language; every text when ``query`` is blank."""
    out: list[tuple[str, str]] = []
    keys: dict[str, str] = {}
    for lang, side, text in concept.texts():
        if not query.strip():
            out.append((lang, side))
            continue
        wanted = keys.get(lang)
        if wanted is None:
            wanted = keys[lang] = search_key(query, lang)
        if wanted and wanted in search_key(text.text, lang):
            out.append((lang, side))
    return out


def status_of(state: CardState | None, now: datetime) -> str:
    """A card's status at ``now``: suspended and leech first (they say why it is not
    asked), then new, learning (or relearning), due (a review due by ``now``) or review."""
    if state is None or state.is_new:
        return "suspended" if state is not None and state.suspended else "new"
    if state.suspended:
        return "suspended"
    if state.leech:
        return "leech"
    if state.card.state != fsrs.State.Review:
        return "learning"
    return "due" if state.due <= now else "review"


def concepts_matching(concepts: Iterable[Concept], query: str) -> list[Concept]:
    """The concepts with a text that holds ``query`` (all of them when it is blank)."""
    return [c for c in concepts if matching_texts(c, query)]
