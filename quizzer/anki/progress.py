"""Carry terminal progress into an exported package: card schedules and review history.

genanki writes every card as new. After it has written the collection, this
module fills in, for each card studied in the terminal:

* the schedule: ``type``/``queue`` (learning, review, relearning), ``due`` (a day
  number relative to the collection's creation for review cards, an epoch second
  for intraday learning), ``ivl`` (days), ``reps``, ``lapses``;
* FSRS memory state in the card's ``data`` JSON, as Anki stores it:
  ``{"s": stability, "d": difficulty, "lrt": last review (epoch seconds)}``;
* one ``revlog`` row per answer.

Anki, importing the package *with scheduling*, shifts day numbers by the
difference between the package's "today" and its own, so a card due in three
days here is due in three days there. Day numbers follow Anki's rule for this
(legacy v2) collection: a study day starts at 04:00 local time, day 0 is the
local date of the collection's creation stamp ``crt``.

Input is the review log (:class:`~quizzer.scheduling.review.Review`, which records
the schedule each answer produced) and, optionally, the store's current card
states (:class:`CardProgress`, or ``fsrs.Card.to_dict()``-shaped dicts via
:meth:`CardProgress.from_state_dict`), which win over what the log implies.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any, Literal, NamedTuple

from quizzer.anki.model import FIELD_CONCEPT, FIELD_INDEX, KIND_SIDES, MODEL_ID, Direction
from quizzer.anki.notes import from_field
from quizzer.cards.card import CardKey
from quizzer.fsutil import atomic_write_bytes
from quizzer.scheduling import studyday
from quizzer.scheduling.review import Review

State = Literal["learning", "review", "relearning"]

#: Anki's hour at which a study day begins (its default "next day starts at").
ROLLOVER_HOUR = 4

# Anki card columns: type and queue values.
_TYPE = {"learning": 1, "review": 2, "relearning": 3}
_QUEUE_SUSPENDED, _QUEUE_LEARN, _QUEUE_REVIEW, _QUEUE_DAY_LEARN = -1, 1, 2, 3
# revlog.type: 0 learn, 1 review, 2 relearn.
_REVLOG_TYPE = {"new": 0, "learning": 0, "review": 1, "relearning": 2}
_FSRS_STATES = {1: "learning", 2: "review", 3: "relearning"}
_DEFAULT_EASE = 2500


@dataclass(frozen=True, slots=True)
class CardProgress:
    """Where one studied card stands: its state, next due moment and FSRS memory."""

    card_id: str
    state: State
    due: datetime
    interval_days: float
    stability: float | None = None
    difficulty: float | None = None
    reps: int = 0
    lapses: int = 0
    last_review: datetime | None = None
    suspended: bool = False

    @classmethod
    def from_state_dict(
        cls, card_id: str, data: Mapping[str, Any], reviews: Sequence[Review] = ()
    ) -> CardProgress:
        """Build from a store's card state dict (``fsrs.Card.to_dict()`` shape).

        Understood keys: ``state`` (1/2/3 or a name), ``due`` and ``last_review``
        (ISO 8601 or datetime), ``stability``, ``difficulty``; optional
        ``interval_days``, ``reps``, ``lapses``, ``suspended``. Missing counts come
        from ``reviews``.
        """
        raw_state = data.get("state", 2)
        state = _FSRS_STATES.get(raw_state, raw_state) if isinstance(raw_state, int) else raw_state
        if isinstance(raw_state, str):
            state = raw_state.lower()
        if state not in _TYPE:
            raise ValueError(f"{card_id}: unknown card state {raw_state!r}")
        due = _as_datetime(data["due"])
        last = _as_datetime(data["last_review"]) if data.get("last_review") else None
        if last is None and reviews:
            last = max(r.reviewed_at for r in reviews)
        if "interval_days" in data:
            interval = float(data["interval_days"])
        elif last is not None:
            interval = (due - last).total_seconds() / 86400
        else:
            interval = 0.0
        return cls(
            card_id=card_id,
            state=state,  # type: ignore[arg-type]
            due=due,
            interval_days=interval,
            stability=data.get("stability"),
            difficulty=data.get("difficulty"),
            reps=int(data.get("reps", len(reviews))),
            lapses=int(data.get("lapses", _lapses(reviews))),
            last_review=last,
            suspended=bool(data.get("suspended", False)),
        )


def _as_datetime(value: datetime | str) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError(f"datetime without a time zone: {value!r}")
    return moment.astimezone(UTC)


def _lapses(reviews: Iterable[Review]) -> int:
    return sum(1 for r in reviews if r.phase == "review" and r.grade == 1)


def progress_from_reviews(reviews: Iterable[Review]) -> dict[str, CardProgress]:
    """Each card's standing after its last answer in the log (card id → progress)."""
    by_card: dict[str, list[Review]] = defaultdict(list)
    for review in reviews:
        by_card[review.card_id].append(review)
    out: dict[str, CardProgress] = {}
    for card_id, items in by_card.items():
        items.sort(key=lambda r: r.reviewed_at)
        last = items[-1]
        if last.interval_days >= 1:
            state: State = "review"
        elif last.phase in ("review", "relearning"):
            state = "relearning"
        else:
            state = "learning"
        due = last.due or last.reviewed_at + timedelta(days=last.interval_days)
        out[card_id] = CardProgress(
            card_id=card_id,
            state=state,
            due=due,
            interval_days=last.interval_days,
            stability=last.stability,
            difficulty=last.difficulty,
            reps=len(items),
            lapses=_lapses(items),
            last_review=last.reviewed_at,
        )
    return out


def study_day(moment: datetime, tz: tzinfo | None = None) -> date:
    """Anki's study day of ``moment``: the local date, counted from 04:00 (system zone if
    ``tz`` is ``None``)."""
    return studyday.study_day(moment, tz or moment.astimezone().tzinfo, ROLLOVER_HOUR)  # type: ignore[arg-type]


def day_number(moment: datetime, crt: int, tz: tzinfo | None = None) -> int:
    """The collection-relative day on which ``moment`` falls (Anki's ``due`` for reviews)."""
    created = datetime.fromtimestamp(crt, UTC)
    created_local = created.astimezone(tz)
    return (study_day(moment, tz) - created_local.date()).days


class FillCounts(NamedTuple):
    """What :func:`fill_progress` did."""

    #: Studied cards whose schedule was written.
    cards: int
    #: Review log rows written.
    revlog_rows: int
    #: Studied cards with no card in the package (deck, pair or kind not exported).
    not_exported: int


def _direction_for(card: CardKey) -> Direction | None:
    sides = (card.pair.prompt_side, card.pair.answer_side)
    for kind, kind_sides in KIND_SIDES.items():
        if kind_sides == sides:
            return Direction(kind, card.pair.prompt_lang, card.pair.answer_lang)  # type: ignore[arg-type]
    return None


def _card_index(conn: sqlite3.Connection) -> dict[tuple[str, Direction], int]:
    """(concept uid, direction) → card id, read from the collection itself."""
    (models_json,) = conn.execute("SELECT models FROM col").fetchone()
    model = json.loads(models_json).get(str(MODEL_ID))
    if model is None:
        raise ValueError("this package was not written by quizzer (its note type is missing)")
    by_ord: dict[int, Direction] = {}
    for template in model["tmpls"]:
        kind, langs = template["name"].split(" ", 1)
        source, target = langs.split("→")
        by_ord[int(template["ord"])] = Direction(kind, source, target)  # type: ignore[arg-type]
    uid_of: dict[int, str] = {}
    concept_field = FIELD_INDEX[FIELD_CONCEPT]
    for nid, flds in conn.execute("SELECT id, flds FROM notes WHERE mid = ?", (MODEL_ID,)):
        uid_of[nid] = from_field(flds.split("\x1f")[concept_field])
    index: dict[tuple[str, Direction], int] = {}
    for cid, nid, ord_ in conn.execute("SELECT id, nid, ord FROM cards"):
        if nid in uid_of and ord_ in by_ord:
            index[(uid_of[nid], by_ord[ord_])] = cid
    return index


def _revlog_interval(days: float, due: datetime | None, at: datetime) -> int:
    """revlog ivl/lastIvl: whole days when >= 1 day, else negative seconds (Anki's convention)."""
    if days >= 1:
        return round(days)
    if due is not None and due > at:
        return -max(1, round((due - at).total_seconds()))
    if days > 0:
        return -max(1, round(days * 86400))
    return 0


def fill_progress(
    conn: sqlite3.Connection,
    progress: Mapping[str, CardProgress],
    reviews: Iterable[Review],
    *,
    tz: tzinfo | None = None,
) -> FillCounts:
    """Write schedules and review history into a quizzer collection; returns what it wrote.

    ``progress`` overrides what ``reviews`` imply for the same card. Cards and
    reviews for concepts or directions not in the package are skipped and
    counted (``not_exported``), so the caller can say so. ``tz``
    is the learner's time zone for day boundaries (default: this machine's). The
    collection itself says which card is which (note ``Concept`` field, template names).
    """
    reviews = list(reviews)
    states = progress_from_reviews(reviews)
    states.update(progress)
    index = _card_index(conn)
    (crt,) = conn.execute("SELECT crt FROM col").fetchone()

    def card_for(card_id: str) -> int | None:
        try:
            key = CardKey.parse(card_id)
        except ValueError:
            return None
        direction = _direction_for(key)
        return index.get((key.concept_uid, direction)) if direction else None

    scheduled = not_exported = 0
    for card_id, state in sorted(states.items()):
        cid = card_for(card_id)
        if cid is None:
            not_exported += 1
            continue
        if state.state == "review":
            ivl = max(1, round(state.interval_days))
        elif state.state == "relearning":
            # The interval it will return to: FSRS's stability is the best estimate.
            ivl = max(1, round(state.stability or 1))
        else:
            ivl = 0
        if state.state == "review":
            queue, due = _QUEUE_REVIEW, day_number(state.due, crt, tz)
        elif state.last_review is not None and study_day(state.due, tz) > study_day(
            state.last_review, tz
        ):
            # A learning step that ends on a later day waits in the day-learn queue.
            queue, due = _QUEUE_DAY_LEARN, day_number(state.due, crt, tz)
        else:
            queue, due = _QUEUE_LEARN, int(state.due.timestamp())
        if state.suspended:
            queue = _QUEUE_SUSPENDED
        data: dict[str, float | int] = {}
        if state.stability is not None and state.difficulty is not None:
            data = {"s": round(state.stability, 4), "d": round(state.difficulty, 4)}
            if state.last_review is not None:
                # Anki 25.07+ keeps the last review time here ("lrt", epoch seconds).
                data["lrt"] = int(state.last_review.timestamp())
        conn.execute(
            "UPDATE cards SET type = ?, queue = ?, due = ?, ivl = ?, factor = ?, reps = ?,"
            " lapses = ?, left = ?, data = ? WHERE id = ?",
            (
                _TYPE[state.state],
                queue,
                due,
                ivl,
                _DEFAULT_EASE,
                state.reps,
                state.lapses,
                0 if state.state == "review" else 1,
                json.dumps(data, separators=(",", ":")) if data else "",
                cid,
            ),
        )
        scheduled += 1

    used: set[int] = {row[0] for row in conn.execute("SELECT id FROM revlog")}
    rows = 0
    for review in sorted(reviews, key=lambda r: (r.reviewed_at, r.id)):
        cid = card_for(review.card_id)
        if cid is None:
            continue
        rid = int(review.reviewed_at.timestamp() * 1000)
        while rid in used:  # revlog ids are millisecond stamps and must be unique
            rid += 1
        used.add(rid)
        conn.execute(
            "INSERT INTO revlog VALUES (?,?,?,?,?,?,?,?,?)",
            (
                rid,
                cid,
                -1,
                review.grade,
                _revlog_interval(review.interval_days, review.due, review.reviewed_at),
                _revlog_interval(review.last_interval_days, None, review.reviewed_at),
                round(review.difficulty * 100) if review.difficulty is not None else 0,
                max(0, min(review.duration_ms, 2**31 - 1)),
                _REVLOG_TYPE[review.phase],
            ),
        )
        rows += 1
    conn.commit()
    return FillCounts(scheduled, rows, not_exported)


def fill_package(
    path: Path | str,
    progress: Mapping[str, CardProgress],
    reviews: Iterable[Review],
    *,
    tz: tzinfo | None = None,
) -> FillCounts:
    """:func:`fill_progress` on an ``.apkg`` already on disk (rewritten atomically)."""
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="quizzer-apkg-") as tmp:
        db_path = Path(tmp) / "collection.anki2"
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            with archive.open("collection.anki2") as src, db_path.open("wb") as dst:
                shutil.copyfileobj(src, dst)
            others = {i.filename: archive.read(i) for i in infos if i.filename != db_path.name}
        conn = sqlite3.connect(db_path)
        try:
            counts = fill_progress(conn, progress, reviews, tz=tz)
        finally:
            conn.close()
        out = Path(tmp) / "out.apkg"
        with zipfile.ZipFile(out, "w") as archive:
            for info in infos:
                if info.filename == db_path.name:
                    data = db_path.read_bytes()
                else:
                    data = others[info.filename]
                archive.writestr(info, data, compress_type=info.compress_type)
        atomic_write_bytes(path, out.read_bytes())
    return counts
