"""The UI's door to the progress store and the deck library.

Screens talk to :class:`StudyService`: the decks, their new and due counts, why a choice has
nothing to study, the statistics and the learner's remembered choices. A study session on the
store is started by :mod:`quizzer.services.sessions`, which the study screen imports when it
is pushed.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import language_name
from quizzer.errors import InputError
from quizzer.fsutil import atomic_write_text, read_regular_file
from quizzer.paths import beside_store, machine_file
from quizzer.scheduling.queue import DueQueue
from quizzer.scheduling.studyday import day_bounds
from quizzer.services.deck_counts import KeptCounts
from quizzer.services.library import DeckListing, DeckShelf, listing_of
from quizzer.study.cram import cram_cards
from quizzer.study.selection import SETTINGS_KEY, StudyChoice

#: Where the theme chosen with Ctrl+T is kept.
THEME_KEY = "ui.theme"
#: The preferences key of the best Match times, by ``deck/pair code``.
MATCH_KEY = "match.best_seconds"

#: The largest preferences file read: it holds a few choices, far less than this.
MAX_PREFS_BYTES = 1 << 20

if TYPE_CHECKING:
    from quizzer.progress import Store
    from quizzer.stats.figures import Stats


def utcnow() -> datetime:
    """The wall clock, in UTC (the UI is where time is read; the core takes it as input)."""
    return datetime.now(UTC)


def waiting_words(queue: DueQueue) -> str | None:
    """``"12 wait for their first direction · 5 siblings tomorrow"``, or ``None``."""
    parts = []
    if queue.ladder:
        n = len(queue.ladder)
        parts.append(
            f"{n} wait{'s' if n == 1 else ''} for {'its' if n == 1 else 'their'} first direction"
        )
    if queue.siblings:
        n = len(queue.siblings)
        parts.append(f"{n} sibling{'' if n == 1 else 's'} tomorrow")
    return " · ".join(parts) or None


class StudyService:
    """Decks, counts, sessions and remembered choices for the screens."""

    def __init__(
        self, store: Store, decks: Sequence[Deck] | Mapping[str, Deck], *, seed: int | None = None
    ) -> None:
        self.store = store
        # A Mapping (quizzer.services.library.DeckShelf) loads each deck when first asked.
        self._decks: Mapping[str, Deck] = (
            decks if isinstance(decks, Mapping) else {deck.id: deck for deck in decks}
        )
        self.rng = random.Random(seed)
        self._closed = False

        self._kept: KeptCounts | None = None
        if isinstance(self._decks, DeckShelf):
            self._kept = KeptCounts(store, self._decks)

    # -- decks ----------------------------------------------------------------

    def decks(self) -> list[Deck]:
        """Every deck, in library order."""
        return list(self._decks.values())

    def deck(self, deck_id: str) -> Deck:
        """One deck by id (``KeyError`` if unknown)."""
        return self._decks[deck_id]

    @property
    def shelf(self) -> DeckShelf | None:
        """The deck library the decks come from (``None``: decks given in code)."""
        return self._decks if isinstance(self._decks, DeckShelf) else None

    def listings(self) -> list[DeckListing]:
        """Every deck's id, name, size and languages, without loading a deck's concepts."""
        if isinstance(self._decks, DeckShelf):
            return self._decks.listings()
        return [listing_of(deck) for deck in self._decks.values()]

    def deck_ready(self, deck_id: str) -> bool:
        """Whether the deck is loaded, or small enough to load at once."""
        shelf = self._decks
        return not isinstance(shelf, DeckShelf) or shelf.ready(deck_id)

    def counts_ready(
        self, deck_id: str, pair: Pair | Sequence[Pair] | None = None, now: datetime | None = None
    ) -> bool:
        """Whether :meth:`counts` answers at once (else it first loads a big deck): a small
        or loaded deck, or a big one whose counts in ``pair`` were kept and hold ``now``."""
        if self.deck_ready(deck_id):
            return True
        if pair is not None and not isinstance(pair, Pair):
            if len(pair) != 1:
                return False  # several directions: counted from the loaded deck
            pair = pair[0]
        kept = self._kept_counts(deck_id, pair, now or utcnow()) if pair is not None else None
        return kept is not None

    def _kept_counts(self, deck_id: str, pair: Pair, now: datetime) -> tuple[int, int] | None:
        """A big deck's counts as :mod:`quizzer.services.deck_counts` kept them, if they hold."""
        return self._kept.get(deck_id, pair, now) if self._kept is not None else None

    def why_no_cards(self, deck_id: str, pair: Pair) -> str | None:
        """Why ``deck_id`` has no card at all in direction ``pair``, or ``None`` if it has some.

        ``"this deck has no Arabic text"``, or that no concept has both texts.
        """
        deck = self.deck(deck_id)
        for lang in dict.fromkeys((pair.prompt_lang, pair.answer_lang)):
            if not any(lang in concept.entries for concept in deck.concepts):
                return f"This deck has no {language_name(lang)} text."
        both = any(has_card(concept, pair) for concept in deck.concepts)
        if both:
            return None
        prompt = f"{language_name(pair.prompt_lang)} {pair.prompt_side}"
        answer = f"{language_name(pair.answer_lang)} {pair.answer_side}"
        return f"No concept in this deck has both the {prompt} and the {answer}."

    def new_limit_note(self, deck_id: str, pair: Pair, now: datetime | None = None) -> str | None:
        """If today's new-card limit is what keeps unseen cards back, say so (else ``None``)."""
        now = now or utcnow()
        limit = self.store.settings.new_per_day
        if self.store.today(deck_id, now).new < limit:
            return None
        deck = self.deck(deck_id)
        unseen = 0
        for concept in deck.concepts:
            if has_card(concept, pair):
                state = self.store.card(CardKey(concept.uid, pair))
                unseen += state is None or state.is_new
        if not unseen:
            return None
        return (
            f"Today's {limit} new cards for this deck are done; {unseen} more wait for "
            f"tomorrow (or raise the limit: quizzer settings --set new_per_day={limit * 2})."
        )

    def counts(
        self, deck_id: str, pair: Pair | Sequence[Pair], now: datetime | None = None
    ) -> tuple[int, int]:
        """(new, due) cards of ``deck_id`` in direction ``pair`` (or directions) available now
        (a big deck's from :mod:`quizzer.services.deck_counts` while they hold, kept there
        when counted)."""
        now = now or utcnow()
        if not isinstance(pair, Pair):
            if len(pair) != 1:
                queue = self.due_cards(deck_id, pair, now)
                return len(queue.new), len(queue.learning) + len(queue.review)
            pair = pair[0]
        kept = self._kept_counts(deck_id, pair, now)
        if kept is not None:
            return kept
        queue = self.due_cards(deck_id, pair, now)
        if self._kept is not None:
            self._kept.keep(deck_id, pair, now, queue)
        return len(queue.new), len(queue.learning) + len(queue.review)

    def due_cards(self, deck_id: str, pair: Pair | Sequence[Pair], now: datetime) -> DueQueue:
        """The store's due queue of ``deck_id`` in direction ``pair``, over the deck's cards
        as the shelf keeps them (a big deck's are not compared text by text each time).

        Several directions (in the order picked) are queued together by the store, with
        the direction ladder (:func:`quizzer.scheduling.queue.due_queue_of_facts`)."""
        deck, shelf = self.deck(deck_id), self._decks
        if not isinstance(pair, Pair):
            if len(pair) != 1:
                return self.store.due_cards(deck, pair, now)
            pair = pair[0]
        if not isinstance(shelf, DeckShelf):
            return self.store.due_cards(deck, [pair], now)
        # A big deck's queue kept with its counts, while they hold (the same function of
        # the same card states): no reading of the deck's every card state. Its cards are
        # queued again over themselves (read whole, as the store's queue reads those it
        # queues: a damaged state stops the session before it shows) and must come out as kept.
        found = self._kept.queue(deck_id, pair, now) if self._kept is not None else None
        kept = found[0] if found is not None else None
        if found is not None and kept is not None:
            again = self.store.due_cards(deck, [pair], now, found[1])
            if (again.learning, again.review, again.new) != (kept.learning, kept.review, kept.new):
                kept = None
        if kept is not None:
            return kept  # (its cards were each checked against their concepts' texts)
        queue = self.store.due_cards(deck, [pair], now, shelf.cards(deck_id, pair))
        if not shelf.has_cards(deck_id, pair, queue.cards):
            shelf.forget_cards(deck_id)  # a cache entry that lied: compared again
            queue = self.store.due_cards(deck, [pair], now, shelf.cards(deck_id, pair))
        if self._kept is not None:
            self._kept.note(deck_id, pair, now, queue)
        return queue

    def waiting_note(
        self, deck_id: str, pairs: Sequence[Pair], now: datetime | None = None
    ) -> str | None:
        """How many cards wait and why (``None`` when none do): new cards of a later
        direction waiting for their first one, and siblings held until tomorrow."""
        queue = self.due_cards(deck_id, pairs, now or utcnow())
        return waiting_words(queue)

    def deck_for(self, choice: StudyChoice) -> Deck:
        """The deck ``choice`` studies: its deck, or its decks as one (their concepts in
        order, each keeping its own deck's ids, so its cards and progress are its deck's)."""
        if not choice.more_decks:
            return self.deck(choice.deck)
        decks = [self.deck(deck_id) for deck_id in choice.decks]
        return Deck(
            id="+".join(choice.decks),
            name=" + ".join(deck.name for deck in decks),
            concepts=tuple(concept for deck in decks for concept in deck.concepts),
        )

    def queue_for(self, choice: StudyChoice, now: datetime) -> DueQueue:
        """The due queue of ``choice``: each deck's (its own daily limits), one after another."""
        queues = [self.due_cards(deck_id, choice.pairs, now) for deck_id in choice.decks]
        if len(queues) == 1:
            return queues[0]
        learning_due = [q.next_learning_due for q in queues if q.next_learning_due is not None]
        return DueQueue(
            learning=tuple(k for q in queues for k in q.learning),
            review=tuple(k for q in queues for k in q.review),
            new=tuple(k for q in queues for k in q.new),
            next_learning_due=min(learning_due, default=None),
            new_left=sum(q.new_left for q in queues),
            reviews_left=sum(q.reviews_left for q in queues),
            buried=tuple(k for q in queues for k in q.buried),
            siblings=tuple(k for q in queues for k in q.siblings),
            ladder=tuple(k for q in queues for k in q.ladder),
        )

    def cram_cards(self, choice: StudyChoice, now: datetime) -> list[CardKey]:
        """The cards a practice on ``choice`` serves (``choice.cram`` names which): every card
        of its decks in its directions, today's failures, the leeches, or those due soon."""
        assert choice.cram is not None
        candidates = [
            CardKey(concept.uid, pair)
            for deck_id in choice.decks
            for concept in self.deck(deck_id).concepts
            for pair in choice.pairs
            if has_card(concept, pair)
        ]
        states = {}
        for key in candidates:
            state = self.store.card(key)
            if state is not None:
                states[key.id] = state
        failed: set[str] = set()
        if choice.cram == "failed":
            start, end = day_bounds(now, self.store.tz, self.store.settings.day_start_hour)
            failed = {
                r.card_id
                for r in self.store.reviews()
                if r.grade == 1 and start <= r.reviewed_at < end
            }
        return cram_cards(candidates, states, failed, choice.cram, now)

    def waiting_for(self, choice: StudyChoice, now: datetime | None = None) -> str | None:
        """:meth:`waiting_note` over every deck of ``choice``."""
        return waiting_words(self.queue_for(choice, now or utcnow()))

    def lapses(self, card: CardKey) -> int | None:
        """How often ``card`` lapsed (``None`` if it has no state yet)."""
        state = self.store.card(card)
        return None if state is None else state.lapses

    def why_empty(self, choice: StudyChoice) -> str | None:
        """Why there is nothing to study for ``choice``, when there is a reason to give."""
        why = self.why_no_cards(choice.deck, choice.pair)
        if why is None:
            why = self.new_limit_note(choice.deck, choice.pair)
        if why is None and choice.mode == "learn":
            why = (
                "Learn mode teaches new concepts, and none are left for today here: "
                "flip, choice or typed mode review the ones due."
            )
        return why

    def stats(self, deck_id: str | None = None, now: datetime | None = None) -> Stats:
        """The figures of ``quizzer stats`` for ``deck_id`` (or every deck), from the store."""
        from quizzer.services.stats import stats_from_store

        ids = [deck_id] if deck_id else None
        return stats_from_store(self.store, self.decks(), now=now, deck_ids=ids)

    # -- remembered choice ----------------------------------------------------

    @property
    def _prefs_path(self) -> Path:
        return machine_file(self.store.path, ".ui.json")

    def _read_prefs(self) -> dict[str, Any] | None:
        """The remembered preferences: ``{}`` if the file is missing or damaged, ``None`` if
        what is there is no preferences file (a FIFO, which would block the app forever,
        or an oversized file): it is neither read nor replaced. Until this machine has its
        own file, the one an earlier version kept beside the store is read."""
        try:
            data = json.loads(self._prefs_bytes())
        except InputError:
            return None
        except (OSError, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def _prefs_bytes(self) -> bytes:
        try:
            return read_regular_file(self._prefs_path, MAX_PREFS_BYTES, "preferences")
        except FileNotFoundError:
            old = beside_store(self.store.path, ".ui.json")
            try:
                return read_regular_file(old, MAX_PREFS_BYTES, "preferences")
            except (OSError, InputError):
                return b"{}"  # (the old file is only a starting point: none is as good)

    def _get(self, key: str) -> Any:
        return (self._read_prefs() or {}).get(key)

    def _set(self, key: str, value: Any) -> None:
        if self.store.read_only:
            return
        prefs = self._read_prefs()
        if prefs is None or prefs.get(key, object()) == value:
            return  # (unchanged: `quizzer study` again, no write and fsync before its card)
        prefs[key] = value
        text = json.dumps(prefs, ensure_ascii=False, indent=1)
        # Best effort: a choice that can't be remembered must not stop the session.
        with contextlib.suppress(OSError):
            self._prefs_path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self._prefs_path, text + "\n")

    def last_choice(self) -> StudyChoice | None:
        """The choice the learner made last time, if it still makes sense."""
        data = self._get(SETTINGS_KEY)
        choice = StudyChoice.from_dict(data) if data else None
        if choice is None or choice.deck not in self._decks:
            return None
        return choice

    def remember(self, choice: StudyChoice) -> None:
        """Keep ``choice`` for next time."""
        self._set(SETTINGS_KEY, choice.to_dict())

    def last_theme(self) -> str | None:
        """The theme chosen with Ctrl+T last time (``None``: the default)."""
        theme = self._get(THEME_KEY)
        return theme if isinstance(theme, str) and theme else None

    def remember_theme(self, theme: str) -> None:
        """Keep the theme for the next start."""
        self._set(THEME_KEY, theme)

    def best_match_seconds(self, deck_id: str, pair: Pair) -> float | None:
        """The best Match time on ``deck_id`` in direction ``pair`` (``None``: none yet)."""
        best = self._get(MATCH_KEY)
        value = best.get(f"{deck_id}/{pair.code}") if isinstance(best, dict) else None
        return float(value) if isinstance(value, int | float) and value > 0 else None

    def finish_match(self, deck_id: str, pair: Pair, seconds: float) -> float | None:
        """Keep ``seconds`` if it beats the best Match time; return the best before it."""
        before = self.best_match_seconds(deck_id, pair)
        if before is None or seconds < before:
            best = self._get(MATCH_KEY)
            table = dict(best) if isinstance(best, dict) else {}
            table[f"{deck_id}/{pair.code}"] = round(seconds, 1)
            self._set(MATCH_KEY, table)
        return before

    def close(self) -> None:
        """Close the store (compacting it). Safe to call twice."""
        if not self._closed:
            self._closed = True
            if self._kept is not None:
                self._kept.close_store()  # the kept counts carried over its compaction
            else:
                self.store.close()
