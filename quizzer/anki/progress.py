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
states (:class:`~quizzer.scheduling.card_state.CardState`), which win over what the
log implies (:func:`progress_from_reviews`).
"""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import NamedTuple

from quizzer.anki.model import FIELD_CONCEPT, FIELD_INDEX, KIND_SIDES, MODEL_ID, Direction
from quizzer.anki.notes import from_field
from quizzer.cards.card import CardKey
from quizzer.fsutil import atomic_write_bytes
from quizzer.scheduling import studyday
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import CardPhase
from quizzer.scheduling.review import Review

#: The collection's name inside a package.
_COLLECTION = "collection.anki2"

#: Anki's hour at which a study day begins (its default "next day starts at").
ROLLOVER_HOUR = 4

# Anki card columns: type and queue values.
_TYPE = {"learning": 1, "review": 2, "relearning": 3}
_QUEUE_SUSPENDED, _QUEUE_LEARN, _QUEUE_REVIEW, _QUEUE_DAY_LEARN = -1, 1, 2, 3
# revlog.type: 0 learn, 1 review, 2 relearn.
_REVLOG_TYPE = {"new": 0, "learning": 0, "review": 1, "relearning": 2}
_DEFAULT_EASE = 2500
#: Anki's default "maximum answer seconds" (deck options), in milliseconds.
ANSWER_TIME_CAP_MS = 60_000


def _lapses(reviews: Iterable[Review]) -> int:
    return sum(1 for r in reviews if r.phase == "review" and r.grade == 1)


def progress_from_reviews(reviews: Iterable[Review]) -> dict[str, CardState]:
    """Each card's state after its last answer in the log (card id → state).

    The log keeps the schedule each answer produced: an interval of a day or more is
    a review card, a shorter one a learning step (relearning after a review card).
    """
    by_card: dict[str, list[Review]] = defaultdict(list)
    for review in reviews:
        by_card[review.card_id].append(review)
    out: dict[str, CardState] = {}
    for card_id, items in by_card.items():
        items.sort(key=lambda r: r.reviewed_at)
        last = items[-1]
        if last.interval_days >= 1:
            phase: CardPhase = "review"
        elif last.phase in ("review", "relearning"):
            phase = "relearning"
        else:
            phase = "learning"
        due = last.due or last.reviewed_at + timedelta(days=last.interval_days)
        out[card_id] = CardState.studied(
            card_id,
            phase,
            due,
            last_review=last.reviewed_at,
            stability=last.stability,
            difficulty=last.difficulty,
            reps=len(items),
            lapses=_lapses(items),
            first_review=items[0].reviewed_at,
        )
    return out


def study_day(moment: datetime, tz: tzinfo | None = None) -> date:
    """Anki's study day of ``moment``: the local date, counted from 04:00 (system zone if
    ``tz`` is ``None``)."""
    zone = tz or moment.astimezone().tzinfo
    assert zone is not None  # astimezone() always gives an aware moment
    return studyday.study_day(moment, zone, ROLLOVER_HOUR)


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
            return Direction(kind, card.pair.prompt_lang, card.pair.answer_lang)
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
        by_ord[int(template["ord"])] = Direction(kind, source, target)
    uid_of: dict[int, str] = {}
    concept_field = FIELD_INDEX[FIELD_CONCEPT]
    for nid, flds in conn.execute("SELECT id, flds FROM notes WHERE mid = ?", (MODEL_ID,)):
        uid_of[nid] = from_field(flds.split("\x1f")[concept_field])
    index: dict[tuple[str, Direction], int] = {}
    for cid, nid, ord_ in conn.execute("SELECT id, nid, ord FROM cards"):
        if nid in uid_of and ord_ in by_ord:
            index[(uid_of[nid], by_ord[ord_])] = cid
    return index


def revlog_factor(difficulty: float) -> int:
    """The revlog ``factor`` Anki logs for an FSRS answer leaving the card at ``difficulty``.

    Anki keeps FSRS difficulty (1-10) shifted to 0-1, per mille, plus 100: 100 to 1100.
    Measured on Anki's own rows (D 2.118 → 224, 5.2 → 567, 6.413 → 701), and checked
    against its engine in the tests.
    """
    return round((difficulty - 1) / 9 * 1000) + 100


def revlog_time(duration_ms: int) -> int:
    """The revlog ``time`` Anki logs for an answer that took ``duration_ms``: capped at
    :data:`ANSWER_TIME_CAP_MS` (its preset's "maximum answer seconds", 60 by default)."""
    return max(0, min(duration_ms, ANSWER_TIME_CAP_MS))


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
    progress: Mapping[str, CardState],
    reviews: Iterable[Review],
    *,
    tz: tzinfo | None = None,
) -> FillCounts:
    """Write schedules and review history into a quizzer collection; returns what it wrote.

    ``progress`` overrides what ``reviews`` imply for the same card (new cards in it,
    never answered, have nothing to carry and are left as genanki wrote them). Cards and
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
        phase = state.phase
        if phase == "new":
            continue
        cid = card_for(card_id)
        if cid is None:
            not_exported += 1
            continue
        if phase == "review":
            ivl = max(1, round(state.scheduled_days))
        elif phase == "relearning":
            # The interval it will return to: FSRS's stability is the best estimate.
            ivl = max(1, round(state.stability or 1))
        else:
            ivl = 0
        if phase == "review":
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
                _TYPE[phase],
                queue,
                due,
                ivl,
                _DEFAULT_EASE,
                state.reps,
                state.lapses,
                0 if phase == "review" else 1,
                json.dumps(data, separators=(",", ":")) if data else "",
                cid,
            ),
        )
        scheduled += 1

    used: set[int] = {row[0] for row in conn.execute("SELECT id FROM revlog")}
    rows = 0
    last_ivl: dict[int, int] = {}
    for review in sorted(reviews, key=lambda r: (r.reviewed_at, r.id)):
        cid = card_for(review.card_id)
        if cid is None:
            continue
        rid = int(review.reviewed_at.timestamp() * 1000)
        while rid in used:  # revlog ids are millisecond stamps and must be unique
            rid += 1
        used.add(rid)
        ivl = _revlog_interval(review.interval_days, review.due, review.reviewed_at)
        conn.execute(
            "INSERT INTO revlog VALUES (?,?,?,?,?,?,?,?,?)",
            (
                rid,
                cid,
                -1,
                review.grade,
                ivl,
                # Anki's lastIvl is the card's interval before the answer, learning steps
                # included (-600 after a 10-minute step): the previous row's ivl.
                last_ivl.get(cid, 0),
                revlog_factor(review.difficulty) if review.difficulty is not None else 0,
                revlog_time(review.duration_ms),
                _REVLOG_TYPE[review.phase],
            ),
        )
        last_ivl[cid] = ivl
        rows += 1
    conn.commit()
    return FillCounts(scheduled, rows, not_exported)


def fill_package(
    path: Path | str,
    progress: Mapping[str, CardState],
    reviews: Iterable[Review],
    *,
    tz: tzinfo | None = None,
) -> FillCounts:
    """:func:`fill_progress` on an ``.apkg`` already on disk (rewritten atomically).

    The collection is filled in memory, not in a temp folder: a killed run leaves
    nothing behind but the package as it was.
    """
    path = Path(path)
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        entries = {info.filename: archive.read(info) for info in infos}
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(entries[_COLLECTION])
        counts = fill_progress(conn, progress, reviews, tz=tz)
        entries[_COLLECTION] = conn.serialize()
    finally:
        conn.close()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info in infos:
            archive.writestr(info, entries[info.filename], compress_type=info.compress_type)
    atomic_write_bytes(path, out.getvalue())
    return counts
