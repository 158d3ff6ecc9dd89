"""The card browser's door to the store and the decks: find cards by any of their texts,
filter them by deck, direction and status, read one card's answers, suspend or bring one
back. Used by ``quizzer cards`` and the cards screen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import SIDES
from quizzer.errors import InputError
from quizzer.library.decks import write_deck
from quizzer.library.overrides import override_path, with_text, write_override
from quizzer.scheduling.card_state import CardState
from quizzer.study.browse import matching_texts, status_of
from quizzer.study.selection import default_pair

if TYPE_CHECKING:
    from quizzer.services.study import StudyService


@dataclass(frozen=True, slots=True)
class CardRow:
    """One card as the browser lists it: its concept, status and memory."""

    card: CardKey
    concept: Concept
    status: str
    due: datetime | None
    stability: float | None
    reps: int
    lapses: int
    #: The (language, side) of each text the search matched.
    matched: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (texts by language and side)."""
        texts: dict[str, dict[str, str]] = {}
        for lang, side, text in self.concept.texts():
            texts.setdefault(lang, {})[side] = text.text
        return {
            "card": self.card.id,
            "deck": self.card.deck,
            "concept": self.card.concept_id,
            "direction": self.card.pair.code,
            "status": self.status,
            "due": None if self.due is None else self.due.isoformat(),
            "stability": self.stability,
            "reps": self.reps,
            "lapses": self.lapses,
            "matched": [f"{lang}:{side}" for lang, side in self.matched],
            "texts": texts,
        }


@dataclass(frozen=True, slots=True)
class AnswerRow:
    """One answer of a card's history."""

    at: datetime
    grade: int
    mode: str
    device: str
    duration_ms: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "at": self.at.isoformat(),
            "grade": self.grade,
            "mode": self.mode,
            "device": self.device,
            "duration_ms": self.duration_ms,
        }


def find_cards(
    service: StudyService,
    deck_ids: Sequence[str],
    now: datetime,
    *,
    search: str = "",
    pair: Pair | None = None,
    status: str | None = None,
) -> list[CardRow]:
    """The cards of ``deck_ids`` whose concept has a text holding ``search`` (every card when
    blank), in deck order: each direction the store has a state for, and ``pair`` (or, for a
    concept never studied, the direction last chosen) as a new card; only ``pair``'s and
    ``status``'s when given."""
    store = service.store
    studied: dict[str, list[CardState]] = {}
    for studied_state in store.cards():
        studied.setdefault(studied_state.card_id.split("|", 1)[0], []).append(studied_state)
    last = service.last_choice()
    rows: list[CardRow] = []
    for deck_id in deck_ids:
        deck = service.deck(deck_id)
        fallback = last.pairs if last is not None else (default_pair(deck.languages),)
        for concept in deck.concepts:
            matched = tuple(matching_texts(concept, search))
            if not matched:
                continue
            states = {s.card_id: s for s in studied.get(concept.uid, ())}
            keys = [CardKey.parse(card_id) for card_id in states]
            wanted = (pair,) if pair is not None else (() if keys else fallback)
            for extra in wanted:
                key = CardKey(concept.uid, extra)
                if key.id not in states and has_card(concept, extra):
                    keys.append(key)
            for key in keys:
                if pair is not None and key.pair != pair:
                    continue
                found = states.get(key.id)
                row_status = status_of(found, now)
                if status is not None and row_status != status:
                    continue
                rows.append(
                    CardRow(
                        card=key,
                        concept=concept,
                        status=row_status,
                        due=None if found is None or found.is_new else found.due,
                        stability=None if found is None else found.card.stability,
                        reps=0 if found is None else found.reps,
                        lapses=0 if found is None else found.lapses,
                        matched=matched,
                    )
                )
    return rows


def history(service: StudyService, card: CardKey) -> list[AnswerRow]:
    """``card``'s answers, oldest first: when, the grade, the mode, the device, how long."""
    store = service.store
    names = _device_names(store)
    out = []
    for review in store.reviews(card):
        out.append(
            AnswerRow(
                at=review.reviewed_at,
                grade=int(review.grade),
                mode=str(review.mode),
                device=_device_of(review.id, names),
                duration_ms=int(review.duration_ms),
            )
        )
    return out


def edit_text(service: StudyService, concept_uid: str, lang: str, side: str, text: str) -> Path:
    """Change one text of a concept to ``text`` and return the file it was kept in: the
    learner's own deck file, or for a bundled deck the override file beside the user decks
    (:mod:`quizzer.library.overrides`). The text before is kept as the new one's provenance
    and the concept keeps its id, so its progress and Anki notes stay attached."""
    deck_id, _, concept_id = concept_uid.partition("/")
    shelf = service.shelf
    if shelf is None or deck_id not in shelf:
        raise InputError(f"no deck {deck_id!r} in the library", hint="see `quizzer decks`")
    deck = service.deck(deck_id)
    concept = deck.get(concept_id)
    if concept is None:
        raise InputError(f"no concept {concept_uid!r}", hint="`quizzer cards --search` finds it")
    if side not in SIDES:
        raise InputError(f"unknown side {side!r}", hint="term or definition")
    text = text.strip()
    if not text:
        raise InputError("the new text is empty", hint="give the text the concept should have")
    changed = with_text(concept, lang, side, text)  # checks the text and that it has one
    summary = shelf.summary(deck_id)
    if summary.bundled:
        if shelf.decks_dir is None:
            raise InputError("no user decks folder to keep the edit in", hint="see --decks")
        path = override_path(shelf.decks_dir, deck_id)
        write_override(path, concept_id, lang, side, text)
    else:
        path = summary.path
        concepts = tuple(changed if c.id == concept_id else c for c in deck.concepts)
        write_deck(replace(deck, concepts=concepts), path)
    shelf.reload(deck_id)
    return path


def set_suspended(service: StudyService, card: CardKey, suspended: bool, now: datetime) -> None:
    """Suspend ``card`` (never due) or bring it back into study."""
    service.store.set_suspended(card, suspended, now)


def _device_names(store: Any) -> dict[str, str]:
    """Each device id the store knows, with its name (a store of one device: none)."""
    devices = getattr(store, "devices", None)
    if not callable(devices):
        return {}
    return {info.device: info.name for info in devices()}


def _device_of(review_id: str, names: dict[str, str]) -> str:
    """The device an answer was given on: its event id starts with the device's id."""
    for device, name in names.items():
        if review_id.startswith(device + "-"):
            return name or device
    return "this device" if not names else "earlier store"
