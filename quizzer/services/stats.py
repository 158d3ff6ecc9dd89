"""From the progress store to :class:`quizzer.stats.figures.Stats` (shared by the CLI and the app).

The store holds card states (:class:`quizzer.scheduling.card_state.CardState`, what
statistics read too) and the review log; statistics also want the learner's time
zone, day-start hour and FSRS parameters.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.concepts.deck import Deck
from quizzer.progress.localtz import LocalTimezone
from quizzer.stats.compute import compute_stats, timezone_label
from quizzer.stats.figures import Stats


def system_timezone_name(
    environ: Mapping[str, str] | None = None, localtime: Path = Path("/etc/localtime")
) -> str | None:
    """The IANA name of the system's time zone, or ``None`` when it can't be told.

    From ``$TZ`` when it is an IANA name (``Europe/Paris``, ``:Europe/Paris``;
    not a POSIX rule like ``CET-1CEST``), else from the ``/etc/localtime``
    symlink's target (``.../zoneinfo/Europe/Paris``).
    """
    env = os.environ if environ is None else environ
    tz = env.get("TZ")
    if tz is not None:
        name = tz.removeprefix(":")
        if "/zoneinfo/" in name:
            name = name.split("/zoneinfo/", 1)[1]
        return name if _is_iana(name) else None  # $TZ rules, even when unnamed
    try:
        target = os.readlink(localtime)
    except OSError:
        return None
    if "zoneinfo/" not in target:
        return None
    name = target.split("zoneinfo/", 1)[1]
    return name if _is_iana(name) else None


def _is_iana(name: str) -> bool:
    if not name or name.startswith("/") or ".." in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def timezone_name(tz: tzinfo | None, now: datetime) -> str:
    """How the report names ``tz``: an IANA name if there is one, else ``UTC+HH:MM``.

    The store's default zone is the system's (``LocalTimezone``), which carries
    no name of its own: it is looked up in ``$TZ`` and ``/etc/localtime``.
    """
    if tz is None or isinstance(tz, LocalTimezone):
        name = system_timezone_name()
        if name:
            return name
    return timezone_label(tz, now)


def unseen_new(decks: Iterable[Deck], studied: Iterable[str]) -> int:
    """Cards not yet studied in the directions the learner studies each deck in.

    Cards come into being when first studied, so "new" means: for every
    language pair the learner has used in a deck, the deck's concepts that
    have both texts of that pair but no card in the store yet.
    """
    studied_ids = set(studied)
    pairs_by_deck: dict[str, set[Pair]] = {}
    for card_id in studied_ids:
        try:
            key = CardKey.parse(card_id)
        except ValueError:
            continue
        pairs_by_deck.setdefault(key.deck, set()).add(key.pair)
    count = 0
    for deck in decks:
        for pair in pairs_by_deck.get(deck.id, ()):
            for concept in deck.concepts:
                if not has_card(concept, pair):
                    continue
                if CardKey(concept.uid, pair).id not in studied_ids:
                    count += 1
    return count


def stats_from_store(
    store: Any,
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
    now = now or datetime.now(UTC)
    wanted = set(deck_ids) if deck_ids is not None else None
    states = list(store.cards())
    if wanted is None:
        # Without a choice, the decks the learner studies (all of them before any study).
        studied = {s.card_id.split("/", 1)[0] for s in states}
        shown = [d for d in decks if d.id in studied] or list(decks)
    else:
        shown = [d for d in decks if d.id in wanted]
    settings = store.settings
    zone = tz if tz is not None else store.tz
    return compute_stats(
        store.reviews(),
        states,
        now,
        zone,
        settings.day_start_hour,
        decks=shown,
        deck_ids=wanted,
        unseen_new=unseen_new(shown, (s.card_id for s in states)),
        parameters=settings.parameters,
        timezone_name=timezone_name(zone, now),
    )
