"""The in-memory image of a progress store: card states, undo stack, recent answers, settings.

:class:`State` is what the snapshot plus the journal tail say; :meth:`State.apply`
folds one journal event in (the same code runs live, on replay and in the doctor).
Also here: the compact form of a card state in a journal line (:func:`slim_state`,
:func:`full_state`), what a bury does to a state (:func:`buried_state`) and the checks
of a snapshot document's layout (:func:`document_problem`, :func:`invalid_cards`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, cast

from quizzer.cards.card import CardKey
from quizzer.errors import StoreError
from quizzer.progress.cardtable import CardTable, LazyCards
from quizzer.progress.journal_events import (
    BuryData,
    CardData,
    Event,
    ReviewData,
    SlimCard,
    UndoEntry,
    card_data,
)
from quizzer.progress.manifest import Manifest, manifest_problem
from quizzer.progress.schema import SCHEMA_VERSION
from quizzer.progress.values import (
    card_problem,
    checked_card,
    checked_facts,
    reason_of,
    recent_problem,
    shown_value,
    undo_problem,
    undone_problem,
)
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.queue import QueueFacts, facts_of
from quizzer.scheduling.settings import SchedulerSettings

#: How many answers back :meth:`Store.undo` can go.
UNDO_DEPTH = 50
#: Answers kept in the snapshot for today's counts (older ones can't be "today").
_RECENT_DAYS = 3


#: State fields a record event doesn't repeat: the review holds them (or they are derived).
_FROM_REVIEW = ("card_id", "due", "stability", "difficulty", "last_review", "first_review")
#: Flags written only when set, to keep journal lines short.
_FLAGS = ("leech", "flagged", "suspended", "buried_until")


def slim_state(state: dict[str, Any]) -> SlimCard:
    """The part of a card state after an answer that its review doesn't already say."""
    slim = {
        k: v
        for k, v in state.items()
        if k not in _FROM_REVIEW and not (k in _FLAGS and v in (False, None))
    }
    return cast(SlimCard, slim)


def slim_of(state: CardState) -> SlimCard:
    """:func:`slim_state` of ``state.to_dict()``, without writing out the times it drops
    (recording an answer: a tenth of its own work)."""
    card = state.card
    slim: dict[str, Any] = {
        "state": int(card.state.value),
        "step": card.step,
        "reps": state.reps,
        "lapses": state.lapses,
    }
    for name in ("leech", "flagged", "suspended"):
        if getattr(state, name):
            slim[name] = getattr(state, name)
    if state.buried_until is not None:
        slim["buried_until"] = state.buried_until.isoformat()
    return cast(SlimCard, slim)


def full_state(slim: SlimCard, review: ReviewData, before: CardData | None) -> CardData:
    """Inverse of :func:`slim_state`, given the review and the card's previous state."""
    return {
        "card_id": review["card_id"],
        "state": slim["state"],
        "step": slim.get("step"),
        "stability": review["stability"],
        "difficulty": review["difficulty"],
        "due": cast(str, review["due"]),  # an answer always schedules the card
        "last_review": review["reviewed_at"],
        "reps": slim.get("reps", 1),
        "lapses": slim.get("lapses", 0),
        "leech": slim.get("leech", False),
        "flagged": slim.get("flagged", False),
        "suspended": slim.get("suspended", False),
        "buried_until": slim.get("buried_until"),
        "first_review": (before.get("first_review") if before else None) or review["reviewed_at"],
    }


#: Flags :meth:`Store.set_suspended` changes, kept when an earlier answer or bury is undone.
_MANUAL_FLAGS = ("suspended", "leech")


def _with_flags(before: CardData | None, state: CardData) -> CardData:
    """``before`` (``None``: never studied) with the suspension flags of ``state``."""
    if before is None:
        key = CardKey.parse(state["card_id"])
        before = card_data(CardState.new(key, datetime.fromisoformat(state["due"])).to_dict())
    return card_data({**before, **{k: state.get(k, False) for k in _MANUAL_FLAGS}})


def buried_state(before: CardData | None, bury: BuryData) -> CardData:
    """A card's state after ``bury`` (a :meth:`Bury.to_dict`), given its state before.

    A card never studied gets a new-card state (``reps`` 0, so it still counts
    as new) that only carries the bury; undoing the bury forgets it again.
    """
    if before is None:
        key = CardKey.parse(bury["card_id"])
        state = card_data(CardState.new(key, datetime.fromisoformat(bury["at"])).to_dict())
    else:
        state = before.copy()
    state["buried_until"] = bury["until"]
    return state


def _doc_key(card_id: str) -> str:
    """The snapshot key of a card: its numeric id; a malformed id (damage) keeps a key of its own.

    Never raises, so a compaction or the doctor can always write what it holds.
    """
    try:
        return str(CardKey.parse(card_id).int_id)
    except (TypeError, ValueError):
        return f"invalid:{card_id}"


def document_problem(doc: Any) -> str | None:
    """What is wrong with the layout of a current-schema snapshot document (``None``: nothing).

    Checks tables, the meta record, settings and that every card record is an
    object with a string ``card_id`` — cheap; the card states themselves are
    checked by :func:`invalid_cards`.
    """
    if not isinstance(doc, dict):
        return "not a TinyDB document"
    for table in ("meta", "settings", "cards"):
        if not isinstance(doc.get(table, {}), dict):
            return f'table "{table}" is not a table: {shown_value(doc[table])}'
    meta = doc.get("meta", {}).get("1", {})
    if not isinstance(meta, dict):
        return "the meta record is not an object"
    for name in ("schema", "gen", "journal_offset", "seq"):
        value = meta.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return f"meta.{name} is not a whole number of 0 or more: {shown_value(value)}"
    undo, recent = meta.get("undo", []), meta.get("recent", [])
    if not isinstance(undo, list):
        return "meta.undo is not a list of records"
    if not isinstance(recent, list):
        return "meta.recent is not a list of answers"
    for index, entry in enumerate(undo):
        problem = undo_problem(entry)
        if problem:
            return f"meta.undo[{index}]: {problem}"
    for index, item in enumerate(recent):
        problem = recent_problem(item)
        if problem:
            return f"meta.recent[{index}]: {problem}"
    undone = meta.get("undone", [])
    if not isinstance(undone, list):
        return "meta.undone is not a list of answers"
    for index, item in enumerate(undone):
        problem = undone_problem(item)
        if problem:
            return f"meta.undone[{index}]: {problem}"
    if "months" in meta:
        problem = manifest_problem(meta["months"])
        if problem:
            return problem
    settings = doc.get("settings", {}).get("1")
    if settings:
        try:
            SchedulerSettings.from_dict(settings)
        except (TypeError, ValueError, AttributeError) as exc:
            whole = isinstance(settings, dict)
            reason = reason_of(exc) if whole else f"it is {shown_value(settings)}, not an object"
            return f"the scheduler settings are invalid ({reason})"
    return cards_problem(doc.get("cards", {}))


def cards_problem(cards: dict[str, Any]) -> str | None:
    """What is wrong with the layout of a snapshot's cards table: a record that is not an
    object with a string ``card_id`` (``None``: nothing)."""
    for key, data in cards.items():
        if not isinstance(data, dict) or not isinstance(data.get("card_id"), str):
            return f"card record {shown_value(key)} has no card id"
    return None


def invalid_cards(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """``(key, reason)`` for each card record of ``doc`` that isn't a valid card state."""
    bad: list[tuple[str, str]] = []
    for key, data in doc.get("cards", {}).items():
        problem = card_problem(data)
        if problem:
            bad.append((key, problem))
    return bad


class State:
    """The in-memory image of a store: what the snapshot plus the journal tail say.

    Shared by :class:`Store` (open) and the doctor (rebuild from the whole journal).
    Card states are kept as dicts and turned into :class:`CardState` on first use,
    so opening 100k cards costs one JSON parse, not 100k object constructions.
    """

    def __init__(self) -> None:
        self._cards = CardTable()
        self.objs: dict[str, CardState] = {}
        #: What the due queue read of card records not built as objects (see :meth:`facts`).
        self.read_facts: dict[str, QueueFacts] = {}
        self.settings = SchedulerSettings()
        self.undo: list[UndoEntry] = []
        self.recent: list[list[Any]] = []
        #: Every answer ever undone, ``[answer id, card id, time]``, oldest first: a merge of
        #: a copy made before the undo (another store, an Anki package) must not bring it back.
        self.undone: list[list[str]] = []
        self.seq = 0
        self.created: str | None = None
        #: The journal generation this state has absorbed events of.
        self.gen = 0
        #: The snapshot file this state was read from (named in errors about bad card states).
        self.source: Path | None = None
        #: The review log's months as of the last compaction (``meta.months``, see
        #: :mod:`quizzer.progress.monthfile`); ``None`` for a snapshot from before manifests.
        self.months: Manifest | None = None

    @property
    def raw(self) -> CardTable:
        """Every card's stored state by card id (read from the snapshot as asked for)."""
        return self._cards

    @raw.setter
    def raw(self, cards: Mapping[str, CardData]) -> None:
        self._cards = CardTable(dict(cards))
        self.read_facts = {}

    @classmethod
    def from_document(
        cls, doc: dict[str, Any], source: Path | None = None, lazy: LazyCards | None = None
    ) -> State:
        """Load a current-schema snapshot document.

        Checks the layout (``ValueError`` naming what is wrong), not each card
        state: those are built on first use (see :meth:`get`). With ``lazy``, ``doc``
        is the snapshot's head (its cards table empty) and the cards are read from
        ``lazy`` as they are asked for (see :mod:`quizzer.progress.cardtable`).
        """
        problem = document_problem(doc)
        if problem:
            raise ValueError(problem)
        st = cls()
        st.source = source
        meta = doc.get("meta", {}).get("1", {})
        st.undo = list(meta.get("undo", []))
        st.recent = [list(r) for r in meta.get("recent", [])]
        st.undone = [list(u) for u in meta.get("undone", [])]
        st.seq = int(meta.get("seq", 0))
        st.created = meta.get("created")
        st.gen = int(meta.get("gen", 0))
        months = meta.get("months")
        st.months = {m: list(entry) for m, entry in months.items()} if months is not None else None
        settings = doc.get("settings", {}).get("1")
        if settings:
            st.settings = SchedulerSettings.from_dict(settings)
        if lazy is not None:
            st._cards = CardTable(lazy=lazy, check=cards_problem)
        else:
            st._cards = CardTable({d["card_id"]: d for d in doc.get("cards", {}).values()})
        return st

    def to_document(self, journal_offset: int) -> dict[str, Any]:
        """The snapshot document for this state, folded up to ``journal_offset``."""
        if self.recent:
            latest = max(datetime.fromisoformat(r[2]) for r in self.recent)
            horizon = (latest - timedelta(days=_RECENT_DAYS)).isoformat()
            self.recent = [r for r in self.recent if r[2] >= horizon]
        meta: dict[str, Any] = {
            "schema": SCHEMA_VERSION,
            "gen": self.gen,
            "journal_offset": journal_offset,
            "seq": self.seq,
            "created": self.created,
            "undo": self.undo,
            "recent": self.recent,
        }
        if self.undone:  # written only once there is one: other stores stay as they were
            meta["undone"] = self.undone
        if self.months is not None:
            meta["months"] = dict(sorted(self.months.items()))
        cards = {_doc_key(cid): d for cid, d in self.raw.items()}
        return {"meta": {"1": meta}, "settings": {"1": self.settings.to_dict()}, "cards": cards}

    def get(self, card_id: str) -> CardState | None:
        """The state of one card, ``None`` if never studied."""
        obj = self.objs.get(card_id)
        if obj is None:
            data = self.raw.get(card_id)
            if data is None:
                return None
            checked, problem = checked_card(data)
            if checked is None:
                # Built lazily, so damage shows here, in whatever command touches the card.
                raise self._damaged(problem)
            obj = checked
            self.objs[card_id] = obj
        return obj

    def facts(self, card_id: str) -> QueueFacts | None:
        """What the due queue reads of one card's state (checked), ``None`` if never studied."""
        obj = self.objs.get(card_id)
        if obj is not None:
            return facts_of(obj)
        data = self.raw.get(card_id)
        if data is None:
            return None
        facts = self.read_facts.get(card_id)
        if facts is None:
            facts, problem = checked_facts(data)
            if facts is None:
                raise self._damaged(problem)
            self.read_facts[card_id] = facts
        return facts

    def _damaged(self, problem: str | None) -> StoreError:
        where = self.source or "the progress store"
        return StoreError(
            f"progress store is damaged ({problem})",
            hint=f"run `quizzer doctor --db {where}` to restore it from the backup",
            path=self.source,
        )

    def put(self, card_id: str, data: CardData | None, obj: CardState | None = None) -> None:
        """Set (or, with ``None``, forget) a card's state."""
        self.objs.pop(card_id, None)
        self.read_facts.pop(card_id, None)
        if data is None:
            self.raw.pop(card_id, None)
            return
        self.raw[card_id] = data
        if obj is not None:
            self.objs[card_id] = obj

    def apply(self, event: Event) -> None:
        """Fold one journal event in (the same code runs live and on replay)."""
        self.seq = max(self.seq, int(event["seq"]) if "seq" in event else 0)
        if "op" not in event:
            raise ValueError("a journal event without an op")
        if event["op"] == "record":
            review = event["review"]
            card_id = review["card_id"]
            before = self.raw.get(card_id)
            self.put(card_id, full_state(event["card"], review, before))
            self.undo.append(
                {"review_id": review["id"], "card_id": card_id, "before": before, "review": review}
            )
            del self.undo[:-UNDO_DEPTH]
            self.recent.append([review["id"], card_id, review["reviewed_at"], review["phase"]])
        elif event["op"] == "undo":
            self.put(event["card_id"], event.get("restore"))
            if self.undo and self.undo[-1].get("review_id") == event["review_id"]:
                self.undo.pop()
            self.recent = [r for r in self.recent if r[0] != event["review_id"]]
            if "at" in event:
                self.undone.append([event["review_id"], event["card_id"], event["at"]])
        elif event["op"] == "bury":
            bury = event["bury"]
            card_id = bury["card_id"]
            before = self.raw.get(card_id)
            self.put(card_id, buried_state(before, bury))
            # On the same undo stack as answers: undo takes back whichever came last.
            self.undo.append(
                {"bury_id": bury["id"], "card_id": card_id, "before": before, "bury": bury}
            )
            del self.undo[:-UNDO_DEPTH]
        elif event["op"] == "unbury":
            self.put(event["card_id"], event.get("restore"))
            if self.undo and self.undo[-1].get("bury_id") == event["bury_id"]:
                self.undo.pop()
        elif event["op"] == "settings":
            self.settings = SchedulerSettings.from_dict(event["settings"])
        elif event["op"] == "state":
            card_id, state = event["card_id"], event["state"]
            self.put(card_id, state)
            # A suspension (or resume) is not on the undo stack, and undoing an earlier answer
            # or bury of the card must not take it back: the states undo would restore carry it.
            for entry in self.undo:
                if entry.get("card_id") == card_id:
                    entry["before"] = _with_flags(entry.get("before"), state)
        elif event["op"] in ("review", "header"):
            pass  # imported history / file header: no state to change
        else:
            raise ValueError(f"unknown journal event {shown_value(event['op'])}")
