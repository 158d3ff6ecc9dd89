"""From the progress store to :class:`quizzer.stats.figures.Stats` (shared by the CLI and the app).

The store holds card states (:class:`quizzer.scheduling.card_state.CardState`, what
statistics read too) and the review log; statistics also want the learner's time
zone, day-start hour and FSRS parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.deck import Deck
from quizzer.progress.store import Store
from quizzer.scheduling.studyday import study_day
from quizzer.stats.cardfacts import fact_of
from quizzer.stats.compute import compute_stats, timezone_label
from quizzer.stats.days import StudyDays
from quizzer.stats.definitions import card_key
from quizzer.stats.digest import Digest, digest_from, stats_of
from quizzer.stats.figures import Stats
from quizzer.stats.tally import Tally, TallyGap
from quizzer.study.selection import default_pair


def unseen_new(decks: Iterable[Deck], studied: Iterable[str]) -> int:
    """Cards not yet studied in the directions the learner studies each deck in.

    Cards come into being when first studied, so "new" means: for every
    language pair the learner has used in a deck, the deck's concepts that
    have both texts of that pair but no card in the store yet. A deck not
    studied at all counts its cards in the direction the app starts it in
    (:func:`~quizzer.study.selection.default_pair`): all of them are new.
    """
    studied_ids = set(studied)
    pairs_by_deck: dict[str, set[Pair]] = {}
    for card_id in studied_ids:
        key = card_key(card_id)  # parsed once per card (cached), as the figures do
        if key is None:
            continue
        pairs_by_deck.setdefault(key.deck, set()).add(key.pair)
    count = 0
    for deck in decks:
        pairs = pairs_by_deck.get(deck.id) or {default_pair(deck.languages)}
        for pair in pairs:
            for concept in deck.concepts:
                if not has_card(concept, pair):
                    continue
                if CardKey(concept.uid, pair).id not in studied_ids:
                    count += 1
    return count


def stats_from_store(
    store: Store,
    decks: Sequence[Deck] = (),
    now: datetime | None = None,
    deck_ids: Iterable[str] | None = None,
    tz: tzinfo | None = None,
) -> Stats:
    """Every figure for ``store`` at ``now`` (default: the clock), optionally for some decks only.

    Without ``deck_ids`` every answer counts, and the mastery table lists the
    concepts of the decks studied so far.

    ``tz`` defaults to the store's time zone, else the system's local zone.
    """
    from quizzer.services.practice_stats import with_practice

    now = now or datetime.now(UTC)
    zone = tz if tz is not None else store.tz
    tally = store.stats_tally(zone)  # the cache's, with the answers since
    stats = _stats(store, decks, now, deck_ids, zone, tally)
    today = study_day(now, zone, store.settings.day_start_hour)
    return with_practice(stats, tally, deck_ids, today)


def _stats(
    store: Any,
    decks: Sequence[Deck],
    now: datetime | None,
    deck_ids: Iterable[str] | None,
    tz: tzinfo | None,
    tally: Tally,
) -> Stats:
    now = now or datetime.now(UTC)
    wanted = set(deck_ids) if deck_ids is not None else None
    settings = store.settings
    zone = tz if tz is not None else store.tz
    hour = settings.day_start_hour
    name = timezone_label(zone, now)
    try:
        # The day's figures from the card states and the log's tally (kept in the store's cache).
        digest = digest_for(store, now, zone, wanted, tally)
    except TallyGap:  # a clock before the newest answers: count that day from the log
        states = list(store.cards())
        shown = _shown(decks, wanted, {s.card_id.split("/", 1)[0] for s in states})
        return compute_stats(
            store.reviews(),
            states,
            now,
            zone,
            hour,
            decks=shown,
            deck_ids=wanted,
            unseen_new=unseen_new(shown, (s.card_id for s in states)),
            parameters=settings.parameters,
            timezone_name=name,
        )
    shown = _shown(decks, wanted, set(digest.state_ids))
    studied = (card_id for d in shown for card_id in digest.state_ids.get(d.id, ()))
    return stats_of(digest, now, hour, name, shown, wanted, unseen_new(shown, studied))


def digest_for(
    store: Any,
    now: datetime,
    tz: tzinfo,
    deck_ids: Iterable[str] | None = None,
    tally: Tally | None = None,
) -> Digest:
    """The day's figures of ``store`` at ``now`` (study days in ``tz``) for ``deck_ids``
    (``None``: every deck), from its card states and its review log's tally (``tally``, or
    the store's counted in ``tz``).

    :class:`~quizzer.stats.tally.TallyGap` when the tally can't tell the day's distinct
    cards (a ``now`` before the newest answers)."""
    settings = store.settings
    hour = settings.day_start_hour
    today = study_day(now, tz, hour)
    days = StudyDays(tz, hour)
    # The store's own states, read only: copying the 20,000 states of a million answers
    # was 4% of `quizzer stats`'s CPU; with their ids not parsed and the languages' names
    # taken from the deck summaries, 15% (benchmarks/README.md, figure `stats`).
    facts = {state.card_id: fact_of(state, days) for state in store.cards(copies=False)}
    if tally is None:
        tally = store.stats_tally(tz)  # the cache's, with the answers since
    wanted = set(deck_ids) if deck_ids is not None else None
    return digest_from(tally, facts, today, wanted, settings.parameters)


def _shown(decks: Sequence[Deck], wanted: set[str] | None, studied: set[str]) -> list[Deck]:
    """The decks the figures are of: those asked for, else those studied (else all)."""
    if wanted is None:
        return [d for d in decks if d.id in studied] or list(decks)
    return [d for d in decks if d.id in wanted]
