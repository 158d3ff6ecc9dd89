"""Card states checked against, and rebuilt from, the review log.

The review log is the source of truth; the snapshot's card states are a cache of
replaying it (:mod:`quizzer.scheduling.replay`, with the store's settings and time
zone). ``quizzer doctor --check`` reports every card whose kept state differs from
its replay (:func:`compare`, called by :mod:`quizzer.progress.doctor`); ``quizzer doctor``
puts the replayed states in place (:func:`recompute`), all at once (:meth:`Store.merge_batch
<quizzer.progress.store.Store.merge_batch>`: one journal swapped in, so a kill midway
leaves the old states or all the new ones).

What is compared and rebuilt is what the log decides: phase and learning step, reps,
lapses, stability, difficulty, due, first and last review. Suspension, burial and the
leech and flag marks come from events the log doesn't keep past a compaction, so they
are carried over from the kept state as they are. A card whose state counts more answers
than the log holds (history lost with a damaged file) or whose id is not a card key
is left as it is: there is nothing (or too little) to replay it from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import tzinfo
from operator import attrgetter
from typing import TYPE_CHECKING

from quizzer.progress.merging import append_batch
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.replay import LogReplay, OutOfOrder, differences
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

if TYPE_CHECKING:
    from quizzer.progress.reading import ReadingStore
    from quizzer.progress.writing import WritingStore

_ANSWER_TIME = attrgetter("reviewed_at")
#: Findings listed one by one; beyond this, a count.
SHOWN = 20


@dataclass(slots=True)
class Comparison:
    """Kept states against their replay: the states to put in place and what differs."""

    #: The replayed states of the cards whose kept state differs (flags carried over).
    fixed: list[CardState] = field(default_factory=list)
    #: One line per differing card: ``card id: what differs``.
    lines: list[str] = field(default_factory=list)
    #: Cards whose kept state counts more answers than the log holds (left as they are).
    unlogged: list[str] = field(default_factory=list)
    #: Card ids in the log that are not card keys (nothing can replay them).
    unreadable: list[str] = field(default_factory=list)
    #: Cards compared.
    checked: int = 0


def compare(
    reviews: Iterable[Review],
    kept: Mapping[str, CardState],
    settings: SchedulerSettings,
    tz: tzinfo,
) -> Comparison:
    """Replay every logged card and compare it with ``kept`` (card id → state). Pure.

    The answers are replayed as they come (:class:`~quizzer.scheduling.replay.LogReplay`),
    so a log read a piece at a time is never held whole; a sequence not in time order is
    sorted first. A one-shot iterable not in time order per card raises
    :class:`~quizzer.scheduling.replay.OutOfOrder`.
    """
    replayer = LogReplay(settings, tz)
    try:
        replayer.add(reviews)
    except OutOfOrder:
        if not isinstance(reviews, Sequence):
            raise
        replayer = LogReplay(settings, tz)
        replayer.add(sorted(reviews, key=_ANSWER_TIME))
    out = Comparison()
    logged = replayer.states()
    for card_id, (replayed, count) in logged.items():
        have = kept.get(card_id)
        if have is not None and have.reps > count:
            # Answers the state counts are gone from the log (lost with damaged bytes): the
            # kept state is the better record of them, so it stays.
            out.unlogged.append(card_id)
            continue
        if replayed is None:
            out.unreadable.append(card_id)
            continue
        out.checked += 1
        if have is not None:
            for name in ("suspended", "leech", "flagged", "buried_until"):
                setattr(replayed, name, getattr(have, name))
            found = differences(have, replayed, flags=False)
        else:
            found = ["no state kept for it"]
        if found:
            out.fixed.append(replayed)
            out.lines.append(f"{card_id}: {'; '.join(found)}")
    # Only the states the log doesn't hold are looked at (a kept state may be built on asking).
    out.unlogged += [
        card_id for card_id in sorted(kept) if card_id not in logged and kept[card_id].reps > 0
    ]
    return out


def describe(cmp: Comparison) -> list[str]:
    """The problems a comparison found, for the doctor's report."""
    if not cmp.lines:
        return []
    shown = cmp.lines[:SHOWN]
    out = [
        f"{len(cmp.lines)} of {cmp.checked} card states differ from what their review log "
        "gives (`quizzer doctor` rebuilds them from the log)"
    ]
    out.extend(f"  {line}" for line in shown)
    if len(cmp.lines) > len(shown):
        out.append(f"  … and {len(cmp.lines) - len(shown)} more")
    return out


def kept_states(store: ReadingStore) -> dict[str, CardState]:
    """Every card state the store keeps, by card id (copies)."""
    return {card.card_id: card for card in store.cards()}


def recompute(store: WritingStore) -> Comparison:
    """Put the replayed states of an open, writable store's differing cards in place
    (all at once); returns the comparison that chose them."""
    cmp = compare(store.reviews(), kept_states(store), store.settings, store.tz)
    if cmp.fixed:
        append_batch(store, [], cmp.fixed)
    return cmp


#: The settings a replay depends on: FSRS's parameters, the steps and the study day.
REPLAYED_SETTINGS = (
    "parameters",
    "learning_steps_s",
    "relearning_steps_s",
    "day_start_hour",
)


def settings_changed(store: WritingStore, before: SchedulerSettings) -> None:
    """After a settings change: when it changes what replaying gives (new parameters
    after ``quizzer optimize``, other steps, another day start), recompute the card
    states, as Anki recomputes memory states when a preset's parameters change."""
    if any(getattr(before, n) != getattr(store.settings, n) for n in REPLAYED_SETTINGS):
        recompute(store)
