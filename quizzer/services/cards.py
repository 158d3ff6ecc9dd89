"""The card browser's door to the store and the decks: find cards by any of their texts,
filter them by deck, direction and status, read one card's answers, suspend or bring one
back, edit a text. Used by ``quizzer cards`` and the cards screen, each through one
:class:`CardBrowser` for its whole run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import SIDES, Side
from quizzer.errors import InputError
from quizzer.library.decks import write_deck
from quizzer.library.overrides import override_path, with_text, write_override
from quizzer.progress.device import folder_record
from quizzer.progress.layout import device_folders
from quizzer.scheduling.card_state import CardState
from quizzer.study.browse import search_key, status_of
from quizzer.study.selection import default_pair

if TYPE_CHECKING:
    from quizzer.progress import Store
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
    matched: tuple[tuple[str, Side], ...]

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


class CardBrowser:
    """One browsing session over the cards (the cards screen, one ``quizzer cards`` run).

    What every search and every card's history need is worked out once and kept: the names
    of the store's devices (read from their folders, not from their logs), the studied cards
    by concept (copied from the store again only when its events changed: a suspension, an
    edit, an answer), and each text's search form. So a keystroke in the search field and a
    move of the cursor cost what they show, not a pass over the whole store.
    """

    def __init__(self, service: StudyService) -> None:
        self.service = service
        self._names: dict[str, str] | None = None
        self._studied: dict[str, list[tuple[CardKey, CardState]]] = {}
        self._fingerprint: str | None = None
        #: (language, text) → the text as a search compares it.
        self._keys: dict[tuple[str, str], str] = {}

    def find(
        self,
        deck_ids: Sequence[str],
        now: datetime,
        *,
        search: str = "",
        pair: Pair | None = None,
        status: str | None = None,
    ) -> list[CardRow]:
        """The cards of ``deck_ids`` whose concept has a text holding ``search`` (every card
        when blank), in deck order: each direction the store has a state for, and ``pair``
        (or, for a concept never studied, the direction last chosen) as a new card; only
        ``pair``'s and ``status``'s when given."""
        service = self.service
        studied = self._studied_cards()
        last = service.last_choice()
        wanted_keys: dict[str, str] = {}
        rows: list[CardRow] = []
        for deck_id in deck_ids:
            deck = service.deck(deck_id)
            fallback = last.pairs if last is not None else (default_pair(deck.languages),)
            for concept in deck.concepts:
                matched = self._matching(concept, search, wanted_keys)
                if not matched:
                    continue
                # Keyed by the card itself: building every card's id string on each
                # keystroke cost a tenth of a second at 10,000 cards.
                states = dict(studied.get(concept.uid, ()))
                keys = list(states)
                wanted = (pair,) if pair is not None else (() if keys else fallback)
                for extra in wanted:
                    key = CardKey(concept.uid, extra)
                    if key not in states and has_card(concept, extra):
                        keys.append(key)
                for key in keys:
                    if pair is not None and key.pair != pair:
                        continue
                    found = states.get(key)
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

    def history(self, card: CardKey) -> list[AnswerRow]:
        """``card``'s answers, oldest first: when, the grade, the mode, the device, how
        long."""
        names = self._device_names()
        return [
            AnswerRow(
                at=review.reviewed_at,
                grade=int(review.grade),
                mode=str(review.mode),
                device=_device_of(review.id, names),
                duration_ms=int(review.duration_ms),
            )
            for review in self.service.store.reviews(card)
        ]

    def set_suspended(self, card: CardKey, suspended: bool, now: datetime) -> None:
        """Suspend ``card`` (never due) or bring it back into study. A card neither studied
        nor in a deck (a mistyped id) is an :class:`InputError`, and nothing is written."""
        self.check_card(card)
        self.service.store.set_suspended(card, suspended, now)

    def check_card(self, card: CardKey) -> None:
        """An :class:`InputError` unless ``card`` was studied or is in its deck."""
        if self.service.store.card(card) is None and not self._exists(card):
            raise InputError(
                f"no card {card.id!r}: its deck has no such concept, or not both texts of "
                "that direction",
                hint="`quizzer cards --search TEXT` lists the cards with their ids",
            )

    def _exists(self, card: CardKey) -> bool:
        """Whether ``card``'s deck has its concept, with both texts of its direction."""
        deck_id, _, concept_id = card.concept_uid.partition("/")
        if deck_id not in {listing.id for listing in self.service.listings()}:
            return False
        concept = self.service.deck(deck_id).get(concept_id)
        return concept is not None and has_card(concept, card.pair)

    def edit_text(self, concept_uid: str, lang: str, side: str, text: str) -> Path:
        """:func:`edit_text` in this session."""
        return edit_text(self.service, concept_uid, lang, side, text)

    def _studied_cards(self) -> dict[str, list[tuple[CardKey, CardState]]]:
        """The store's studied cards by concept uid, copied again only when its events
        changed since the last time."""
        store = self.service.store
        fingerprint = store.cards_fingerprint()
        if fingerprint != self._fingerprint:
            studied: dict[str, list[tuple[CardKey, CardState]]] = {}
            for state in store.cards():
                key = CardKey.parse(state.card_id)
                studied.setdefault(key.concept_uid, []).append((key, state))
            self._studied, self._fingerprint = studied, fingerprint
        return self._studied

    def _matching(
        self, concept: Concept, search: str, wanted: dict[str, str]
    ) -> tuple[tuple[str, Side], ...]:
        """The (language, side) of each of ``concept``'s texts holding ``search`` (every
        text when blank), as :func:`quizzer.study.browse.matching_texts` finds them, with
        the texts' search forms kept for the next keystroke. ``wanted`` keeps the search's
        own form per language for the search."""
        if not search.strip():
            return tuple((lang, side) for lang, side, _ in concept.texts())
        out: list[tuple[str, Side]] = []
        for lang, side, text in concept.texts():
            query = wanted.get(lang)
            if query is None:
                query = wanted[lang] = search_key(search, lang)
            if not query:
                continue
            key = self._keys.get((lang, text.text))
            if key is None:
                key = self._keys[(lang, text.text)] = search_key(text.text, lang)
            if query in key:
                out.append((lang, side))
        return tuple(out)

    def _device_names(self) -> dict[str, str]:
        if self._names is None:
            self._names = device_names(self.service.store)
        return self._names


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


def device_names(store: Store) -> dict[str, str]:
    """Each device folder of the store, with the name its ``device.json`` gives (else the
    folder's own name). Read from the folders alone: the store's ``devices()`` reads and
    verifies every log, seconds for a store of 100,000 answers."""
    return {
        folder.name: folder_record(folder, "name") or folder.name
        for folder in device_folders(store.path)
    }


def _device_of(review_id: str, names: dict[str, str]) -> str:
    """The device an answer was given on: its event id starts with the device's id."""
    for device, name in names.items():
        if review_id.startswith(device + "-"):
            return name or device
    return "this device" if not names else "earlier store"
