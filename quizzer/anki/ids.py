"""Stable numeric ids for Anki objects, derived from names so every export agrees."""

from __future__ import annotations

from hashlib import blake2b

import genanki

#: Parent deck every quizzer deck is exported under (what a merge tells to export back).
PARENT_DECK = "AI Glossary"

#: Namespace mixed into every derived id, so quizzer's ids don't collide with other tools'.
NAMESPACE = "quizzer"


def _digest(*parts: str) -> int:
    text = "\x1f".join((NAMESPACE, *parts))
    return int.from_bytes(blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def stable_id(*parts: str) -> int:
    """A 31-bit id in ``[2**30, 2**31)``, the range genanki recommends for model and deck ids."""
    return (1 << 30) + _digest(*parts) % (1 << 30)


def stable_id62(*parts: str) -> int:
    """A positive 62-bit id, for note type field and template ids (Anki stores them as i64)."""
    return (_digest(*parts) >> 2) or 1


def note_guid(concept_uid: str) -> str:
    """The note GUID for a namespaced concept uid (``"deck/concept"``); never changes with text."""
    guid: str = genanki.guid_for(NAMESPACE, concept_uid)
    return guid
