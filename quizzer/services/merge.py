"""``quizzer merge``: bring answers given elsewhere (Anki, another machine) into the store.

Two sources, one path:

* an Anki package (:mod:`quizzer.anki.package_reader`): each revlog row of a card
  quizzer exported becomes a review (time from the row id, grade from ``ease``,
  duration from ``time``, mode ``anki``) — unless the store already has an answer of
  that card at that millisecond: the row came from quizzer in the first place (the
  export writes a row per answer, its id the answer's epoch milliseconds, bumped by a
  few when two answers share one) or was merged before. Suspended cards stay suspended.
* another progress store: every answer whose id this store lacks (ids are unique per
  answer), and the other side's suspensions.

Review ids are derived from the source (:func:`~quizzer.scheduling.answer.review_id`
of the card, the moment and the revlog row id), so merging the same file twice, or the
``.apkg`` then the ``.colpkg`` of one collection, adds nothing. Every card whose log
changes is recomputed by replaying its whole log in time order; for a store merge,
every card whose log differs between the two stores, so whichever store merges into
the other, the cards end in the same states. The batch is written all or nothing
(:meth:`quizzer.progress.store.Store.merge_batch`).
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import stat
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path

from quizzer.anki.package_reader import AnkiHistory, RevlogRow, read_package
from quizzer.cards.card import CardKey
from quizzer.errors import InputError, StoreError
from quizzer.paths import default_db_path
from quizzer.progress import open_store
from quizzer.progress.store import Store
from quizzer.progress.storepath import store_exists
from quizzer.scheduling.answer import review_id
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.replay import replay_trace
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings
from quizzer.services.deck_import import card_resolver

#: Called as ``on_progress(stage, done, total)``; stages ``replay`` and ``write``.
ProgressCallback = Callable[[str, int, int], None]

#: How far (ms) an exported revlog row id may sit after its answer's time: the export
#: bumps a row id by one while it is taken (answers of several cards in one millisecond).
EXPORT_ID_BUMP_MS = 50
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def epoch_ms(moment: datetime) -> int:
    """Whole milliseconds since the epoch, in integers (a float product can lose one)."""
    return (moment - _EPOCH) // _MS


@dataclass(slots=True)
class MergeReport:
    """What a merge added (or, dry, would add) and what it left alone."""

    source: Path
    #: ``"anki"`` or ``"store"``.
    kind: str
    dry_run: bool = False
    #: (deck id, direction code) → answers added.
    added: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Answers the store already had (from quizzer's own export, or merged before).
    known: int = 0
    #: Cards recomputed from their logs.
    recomputed: int = 0
    #: Cards newly suspended.
    suspended: int = 0
    #: Notes of the package quizzer didn't export, and the answers on them (never touched).
    foreign_notes: int = 0
    foreign_answers: int = 0
    #: Notes quizzer didn't export that `quizzer import` made concepts of (found by GUID).
    imported_notes: int = 0
    #: Anki rows that are no answer (rescheduled by hand).
    manual_rows: int = 0
    #: Answers undone here since the copy was made (left out, so they stay undone).
    undone: int = 0

    @property
    def total(self) -> int:
        """Answers added in all."""
        return sum(self.added.values())


def _known_ms(reviews: Iterable[Review]) -> dict[str, list[int]]:
    """Card id → the epoch milliseconds of its answers in the log, sorted."""
    out: dict[str, list[int]] = defaultdict(list)
    for review in reviews:
        out[review.card_id].append(epoch_ms(review.reviewed_at))
    for stamps in out.values():
        stamps.sort()
    return out


def _is_known(stamps: list[int], row_id: int) -> bool:
    """Whether an answer at ``row_id`` ms, or up to the export's bump before it, is logged."""
    i = bisect.bisect_left(stamps, row_id - EXPORT_ID_BUMP_MS)
    return i < len(stamps) and stamps[i] <= row_id + 1


def anki_due(row: RevlogRow, tz: tzinfo) -> datetime | None:
    """When Anki made the card due by this answer: its interval (``ivl``) after the answer,
    whole days on the learner's local calendar, or seconds in learning; ``None`` if none.

    Taken as the answer's ``due``, the replay keeps it (as it keeps any date the learner
    was told), so quizzer's next day for a card answered in Anki is Anki's own, fuzz and
    all, not one recomputed a day or two off.
    """
    at = _EPOCH + row.id * _MS
    if row.ivl > 0:
        # Same tz: aware arithmetic keeps the wall-clock time, so the study day moves by ivl.
        return at.astimezone(tz) + timedelta(days=row.ivl)
    if row.ivl < 0:
        return at + timedelta(seconds=-row.ivl)
    return None


def anki_reviews(
    history: AnkiHistory, log: Iterable[Review], tz: tzinfo = UTC
) -> tuple[list[Review], int]:
    """(the reviews the package adds, how many of its answers the log already has).

    Each keeps the due date Anki gave (:func:`anki_due`); ``tz`` is the learner's zone."""
    known = _known_ms(log)
    out: list[Review] = []
    seen: set[int] = set()
    skipped = 0
    for row in history.rows:
        stamps = known.get(row.card_id)
        if (stamps and _is_known(stamps, row.id)) or row.id in seen:
            skipped += 1
            continue
        seen.add(row.id)
        at = _EPOCH + row.id * _MS
        grade: Grade = row.ease  # type: ignore[assignment]  # 1-4, checked by the reader
        out.append(
            Review(
                id=review_id(row.card_id, at, f"anki:{row.id}"),
                card_id=row.card_id,
                reviewed_at=at,
                grade=grade,
                mode="anki",
                duration_ms=min(row.time_ms, 2**31 - 1),
                due=anki_due(row, tz),
            )
        )
    return out, skipped


def replay(
    card_id: str,
    reviews: Sequence[Review],
    settings: SchedulerSettings,
    tz: tzinfo,
    only: Container[str] | None = None,
) -> tuple[CardState, list[Review]]:
    """The card's state after its reviews (:func:`quizzer.scheduling.replay.replay_trace`),
    and each review (those whose id is in ``only``, if given) with the schedule the replay
    gave it.

    Replayed reviews keep their id, time, grade and answer details; phase, intervals,
    due, stability and difficulty are the replay's (an answer that already had a due
    date keeps it: the fuzz drawn at the time).
    """
    final, trace = replay_trace(card_id, reviews, settings, tz)
    assert final is not None  # reviews is never empty here
    out: list[Review] = []
    before = CardState.new(CardKey.parse(card_id), trace[0][0].reviewed_at)
    for review, after in trace:
        at = review.reviewed_at
        if only is not None and review.id not in only:
            before = after
            continue
        out.append(
            dataclasses.replace(
                review,
                phase=before.phase,
                last_interval_days=round(before.scheduled_days, 6),
                interval_days=round((after.due - at).total_seconds() / 86400, 6),
                due=after.due,
                stability=after.stability,
                difficulty=after.difficulty,
            )
        )
        before = after
    return final, out


@dataclass(slots=True)
class _Batch:
    reviews: list[Review]
    states: list[CardState]


@dataclass(slots=True)
class _Merge:
    """One merge into an open store: what it found so far and how to tell progress."""

    store: Store
    report: MergeReport
    now: datetime
    on_progress: ProgressCallback | None = None

    def from_anki(self, history: AnkiHistory) -> _Batch:
        """The batch an Anki package brings (its quizzer cards' new answers, suspensions)."""
        self.report.foreign_notes = history.foreign_notes
        self.report.imported_notes = history.imported_notes
        self.report.foreign_answers = history.foreign_rows
        self.report.manual_rows = history.manual_rows
        new, self.report.known = anki_reviews(history, self.store.reviews(), self.store.tz)
        new = self._not_undone(new, timedelta(milliseconds=EXPORT_ID_BUMP_MS))
        return self.recompute(new, (), history.suspended)

    def _not_undone(self, new: list[Review], slack: timedelta = timedelta(0)) -> list[Review]:
        """``new`` less the answers undone in this store. An undone answer is known by its
        review id, or, come back through another program under an id of its own (an Anki
        package), as an answer to its card at its time, up to ``slack`` later."""
        undone = self.store.undone_answers()
        ids = {answer.review_id for answer in undone}
        times: dict[str, list[datetime]] = {}
        for answer in undone:
            times.setdefault(answer.card, []).append(answer.when)
        early = timedelta(milliseconds=1)
        kept = [
            r
            for r in new
            if r.id not in ids
            and not any(t - early <= r.reviewed_at <= t + slack for t in times.get(r.card_id, ()))
        ]
        self.report.undone = len(new) - len(kept)
        return kept

    def from_store(self, theirs: Sequence[Review], their_suspended: set[str]) -> _Batch:
        """The batch another store brings: the answers whose ids this store lacks."""
        ours = self.store.reviews()
        our_ids = {r.id for r in ours}
        their_ids = {r.id for r in theirs}
        new = [r for r in theirs if r.id not in our_ids]
        self.report.known = len(theirs) - len(new)
        new = self._not_undone(new)
        # Cards only we answered since the copy are replayed too: both directions then agree.
        only_ours = {r.card_id for r in ours if r.id not in their_ids}
        return self.recompute(new, only_ours, their_suspended)

    def recompute(self, new: Sequence[Review], also: Iterable[str], suspend: set[str]) -> _Batch:
        """Replay every card with a new review (and those in ``also``); suspend ``suspend``."""
        store, report = self.store, self.report
        by_card: dict[str, list[Review]] = defaultdict(list)
        for review in store.reviews():
            by_card[review.card_id].append(review)
        new_ids = {r.id for r in new}
        changed = {r.card_id for r in new} | set(also)
        for review in new:
            by_card[review.card_id].append(review)
        states: dict[str, CardState] = {}
        added: list[Review] = []
        todo = sorted(changed)
        for done, card_id in enumerate(todo, start=1):
            state, replayed = replay(
                card_id, by_card[card_id], store.settings, store.tz, only=new_ids
            )
            before = store.card(card_id)
            if before is not None:
                state.suspended = state.suspended or before.suspended
                state.leech = state.leech or before.leech
                state.flagged = state.flagged or before.flagged
            states[card_id] = state
            added.extend(replayed)
            if self.on_progress and (done % 500 == 0 or done == len(todo)):
                self.on_progress("replay", done, len(todo))
        for card_id in sorted(suspend):
            # Never studied here: a new card's state that only carries the suspension.
            target = states.get(card_id) or store.card(card_id)
            target = target or CardState.new(CardKey.parse(card_id), self.now)
            if target.suspended:
                continue
            target.suspended = True
            states[card_id] = target
            report.suspended += 1
        report.recomputed = len(changed)
        for review in added:
            key = CardKey.parse(review.card_id)
            report.added[(key.deck, key.pair.code)] += 1
        added.sort(key=lambda r: (r.reviewed_at, r.id))
        return _Batch(added, [states[c] for c in sorted(states)])


def _read_other_store(path: Path, own: Path) -> tuple[list[Review], set[str]]:
    if path.resolve() == own.resolve():
        raise InputError(
            "this is the store being merged into",
            hint="give the copy from the other machine",
            path=path,
        )
    try:
        with open_store(path, read_only=True) as other:
            return other.reviews(), {c.card_id for c in other.cards() if c.suspended}
    except StoreError as exc:
        # The file given to merge is input: its trouble is exit 2, this store is untouched.
        raise InputError(exc.message, hint=exc.hint, path=exc.path or path) from None
    except RecursionError:
        raise InputError(
            "this progress store is nested too deeply to be one of quizzer's",
            hint="give the copy from the other machine as quizzer wrote it",
            path=path,
        ) from None


def _source_kind(path: Path) -> str:
    if not path.exists():
        raise InputError(
            "no such file", hint="give an .apkg, a .colpkg or a progress store", path=path
        )
    if path.is_dir():
        if store_exists(path):
            return "store"
        raise InputError(
            "this is a folder, not a progress store",
            hint="give an .apkg, a .colpkg or another store's folder",
            path=path,
        )
    # Checked before anything opens it: /dev/zero never ends and a FIFO blocks the open.
    if not stat.S_ISREG(path.stat().st_mode):
        raise InputError(
            "not a regular file (a device, a pipe or a socket)",
            hint="give an .apkg, a .colpkg or a progress store file",
            path=path,
        )
    if zipfile.is_zipfile(path) or path.suffix.lower() in (".apkg", ".colpkg"):
        return "anki"
    raise InputError(
        "neither an Anki package nor a quizzer progress store",
        hint="merge an .apkg or .colpkg exported by Anki with scheduling, or another store's "
        "folder; the file was left as it is",
        path=path,
    )


def merge_file(
    source: str | os.PathLike[str],
    db: str | os.PathLike[str] | None = None,
    *,
    dry_run: bool = False,
    on_progress: ProgressCallback | None = None,
    now: datetime | None = None,
) -> MergeReport:
    """Merge the Anki package or progress store at ``source`` into the store at ``db``.

    The source is read whole before the store is opened: a damaged or foreign file is
    an :class:`~quizzer.errors.InputError` and the store is never touched. ``dry_run``
    computes the report and writes nothing. ``now`` (default: the clock) dates the state
    of a card suspended there but never studied here.
    """
    path = Path(source)
    own = default_db_path(db)
    kind = _source_kind(path)
    report = MergeReport(source=path, kind=kind, dry_run=dry_run)
    # Notes `quizzer import` made concepts of are found by their GUIDs in the user decks.
    history = read_package(path, card_resolver()) if kind == "anki" else None
    theirs = _read_other_store(path, own) if kind == "store" else None
    with open_store(own, read_only=dry_run) as store:
        merge = _Merge(store, report, now or datetime.now(UTC), on_progress)
        if history is not None:
            batch = merge.from_anki(history)
        else:
            assert theirs is not None
            batch = merge.from_store(*theirs)
        if not dry_run:

            def tick(done: int, total: int) -> None:
                if on_progress:
                    on_progress("write", done, total)

            store.merge_batch(batch.reviews, batch.states, tick)
    return report


def added_rows(report: MergeReport) -> list[tuple[str, str, int]]:
    """``(deck, direction, answers)`` rows of the report, sorted."""
    return [(deck, code, n) for (deck, code), n in sorted(report.added.items())]
