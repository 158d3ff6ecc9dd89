"""Practice without rescheduling ("cram"): which cards a practice session serves.

A practice session serves its cards until each is answered right once; its answers are
logged as practice and change no card's state, due date or FSRS fit. Pure: ``now`` and the
card states are arguments.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta

from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState

#: What a practice session can take: every card, today's failures, the leeches, or the
#: cards due within N days.
CRAM_CHOICES = ("all", "failed", "leeches", "due-N")
#: The longest look ahead for ``due-N``, in days.
MAX_DAYS = 3650

_DUE = re.compile(r"due-(\d{1,4})")


def parse_cram(text: str) -> str:
    """``text`` as a practice selection (``all``, ``failed``, ``leeches``, ``due-7``), or a
    ``ValueError`` saying what is accepted."""
    value = text.strip().lower()
    if value in ("all", "failed", "leeches"):
        return value
    found = _DUE.fullmatch(value)
    if found and 1 <= int(found.group(1)) <= MAX_DAYS:
        return f"due-{int(found.group(1))}"
    raise ValueError(
        f"not a practice selection: {text!r} "
        f"(all, failed, leeches or due-N, N from 1 to {MAX_DAYS})"
    )


def describe(selection: str) -> str:
    """``"every card"``, ``"today's failures"``, ``"leeches"``, ``"due within 7 days"``."""
    if selection.startswith("due-"):
        days = int(selection[4:])
        return f"due within {days} day{'' if days == 1 else 's'}"
    return {"all": "every card", "failed": "today's failures", "leeches": "leeches"}[selection]


def cram_cards(
    candidates: Sequence[CardKey],
    states: Mapping[str, CardState],
    failed_today: Collection[str],
    selection: str,
    now: datetime,
) -> list[CardKey]:
    """The cards of ``candidates`` (in order) a practice on ``selection`` serves: every one,
    those answered Again today (``failed_today``: card ids), the leeches, or the studied ones
    due by ``now`` plus N days. Suspended cards are left out, except as leeches (a leech is
    often suspended, and practising it is the point)."""
    out: list[CardKey] = []
    ahead = now + timedelta(days=int(selection[4:])) if selection.startswith("due-") else None
    for key in candidates:
        state = states.get(key.id)
        if selection == "leeches":
            if state is not None and state.leech:
                out.append(key)
            continue
        if state is not None and state.suspended:
            continue
        if selection == "all":
            out.append(key)
        elif selection == "failed":
            if key.id in failed_today:
                out.append(key)
        elif ahead is not None and state is not None and not state.is_new and state.due <= ahead:
            out.append(key)
    return out
