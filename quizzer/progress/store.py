"""The progress store: card states, the full review log and settings, safe against crashes.

Files next to the store path ``P`` (default ``progress.json``):

``P``
    the snapshot, a TinyDB document (tables ``meta``, ``settings``, ``cards``)
    written only atomically (see :mod:`quizzer.progress.snapshot`). ``meta.gen``
    is the journal generation whose events it has absorbed up to
    ``meta.journal_offset``.
``P.log/YYYY-MM.json``
    the full review log, one TinyDB database per calendar month (UTC), table
    ``reviews`` (see :mod:`quizzer.progress.reviewlog`); written only by compaction,
    sealed (count, generation, CRC-32) and listed in the snapshot's manifest
    ``meta.months`` (see :mod:`quizzer.progress.monthfile`), mirrored as ``….json.bak``.
``P.journal``
    the append-only journal (see :mod:`quizzer.progress.journal`): a header line
    naming its generation, then every answer, bury, undo and settings change since
    the last compaction, one fsynced line each.
``P.bak``, ``P.journal.prev``
    the previous snapshot and the previous journal generation (hard links).
``P.cards.idx``
    the card index, a cache: where each card's record sits in the snapshot, so opening
    parses only the cards it touches (see :mod:`quizzer.progress.cardindex`).
``P.lock``
    held while a process writes the store; names that process and marks the journal's
    acknowledged end (see :meth:`~quizzer.progress.lock.StoreLock.mark`).

Recording an answer appends one line and fsyncs it — no rewrite of anything,
so its cost doesn't grow with the collection. Compaction (on close, or on
open when the tail is long) runs in this order, each file written atomically:

1. fold the journal's answers (minus undone ones) into the month files they
   belong to, keyed by review id — idempotent, so redoing it changes nothing;
2. write the snapshot with the next generation (it now absorbs the journal);
3. start a new journal holding only the header of that generation.

A kill between 1 and 2 leaves the old snapshot and journal (the answers are in
both the months and the journal; reading the log dedupes by id). A kill
between 2 and 3 leaves a journal of an older generation than the snapshot:
opening recognises it as absorbed and skips it.

The code is split by what it holds: :mod:`quizzer.progress.files` (file names),
:mod:`quizzer.progress.state` (the in-memory :class:`~quizzer.progress.state.State` and
how journal events change it), :mod:`quizzer.progress.journal_events` (the journal events and
undo entries, as typed dicts), :mod:`quizzer.progress.outcomes` (:class:`Bury`,
:class:`RecordOutcome`), :mod:`quizzer.progress.history` (reading the review log),
:mod:`quizzer.progress.opening` (opening, the lock, appending, closing),
:mod:`quizzer.progress.generations` (whether the journal is live, absorbed or damaged),
:mod:`quizzer.progress.monthfile` (sealed month files, the manifest),
:mod:`quizzer.progress.values` (every value read back checked),
:mod:`quizzer.progress.compaction`, :mod:`quizzer.progress.reading` (card states, due
cards, previews, the log) and :mod:`quizzer.progress.writing` (answers, buries, undo,
suspension, settings); this module puts them together as :class:`Store` and holds
:func:`open_store`.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

import quizzer.progress.cardindex as cardindex
from quizzer.errors import StoreError
from quizzer.paths import default_db_path
from quizzer.progress.cardtable import CardTable, LazyCards
from quizzer.progress.files import stats_path
from quizzer.progress.writing import WritingStore
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings

if TYPE_CHECKING:
    from quizzer.progress.merging import ProgressCallback
    from quizzer.stats.tally import Tally


class Store(WritingStore):
    """An open progress store. Use :func:`open_store`; close it (or use ``with``).

    ``tz`` is the learner's time zone for study days (default: the system's
    local zone, DST-aware); ``rng`` draws interval fuzz.

    It adds to the layers below it the work that reaches above them: migrating an old
    store as it opens, replaying the log after a settings change, and keeping the
    statistics caches tied to the files a compaction rewrites.
    """

    def _upgrade(self, held: list[dict[str, Any]], version: int) -> dict[str, Any]:
        # Imported here: only a store of an older schema is migrated, once.
        import quizzer.progress.migrate as migrate

        problem = migrate.signature_problem(self.path, version)
        if problem:
            raise StoreError(
                f"progress store is damaged ({problem})",
                hint=f"run `quizzer doctor --db {self.path}` to rebuild it from the backup",
                path=self.path,
            )
        if self.read_only:
            return super()._upgrade(held, version)
        return migrate.migrate(self.path, held, version, self.tz)

    def set_settings(self, settings: SchedulerSettings) -> None:
        """Change the scheduling settings (durably, like an answer); card states are
        recomputed from the log when the change affects them (:mod:`.doctor_replay`)."""
        # Imported here: the replay (the doctor's) is heavy and a settings change is rare.
        from quizzer.progress.doctor_replay import settings_changed

        with self._mutex:
            before = self.settings
            super().set_settings(settings)
            settings_changed(self, before)

    def _before_compaction(self) -> bool:
        # The statistics caches are tied to the files a compaction rewrites; without one
        # (statistics never shown) their code is not even imported.
        if self._live_tally is None and not stats_path(self.path).exists():
            return False
        import quizzer.progress.aggregates as aggregates

        aggregates.before_compaction(self)
        return True

    def _after_compaction(self) -> None:
        import quizzer.progress.aggregates as aggregates
        import quizzer.progress.figurecache as figurecache

        figurecache.after_compaction(self)
        aggregates.after_compaction(self)

    def merge_batch(
        self,
        reviews: Sequence[Review],
        states: Sequence[CardState],
        on_progress: ProgressCallback | None = None,
    ) -> None:
        """Add answers given elsewhere and set the cards they change, all or nothing.

        See :mod:`quizzer.progress.merging` (``quizzer merge``).
        """
        # Imported here: only `quizzer merge` and the doctor add batches, not the quiz.
        from quizzer.progress.merging import append_batch

        append_batch(self, reviews, states, on_progress)

    def cards_fingerprint(self) -> str:
        """A name for the card states the store holds now, equal for equal states, without
        reading a lazily opened snapshot (``CardTable.fingerprint``'s last hash): what a
        cache of figures counted from them is tied to (the home screen's deck counts)."""
        origin, steps = self.state.raw.fingerprint()
        return steps[-1][1] if steps else origin

    def disk_fingerprint(self) -> str | None:
        """:meth:`cards_fingerprint` as the next open of the store's files tells it (after
        :meth:`close` compacted: the new snapshot, named by its card index); ``None`` when
        the snapshot has no card index that fits it."""
        try:
            raw = self.path.read_bytes()
            spans = cardindex.load(self.path, raw, os.stat(self.path))
        except OSError:
            return None
        if spans is None:
            return None
        return CardTable(lazy=LazyCards(raw, spans, self.path)).fingerprint()[0]

    def stats_tally(self, tz: tzinfo | None = None) -> Tally:
        """The whole log summed for the statistics, study days in ``tz`` (default: the
        store's zone), from the statistics cache ``P.stats`` when it is still the log's
        (see :mod:`quizzer.progress.aggregates`), else counted from the log."""
        from quizzer.progress.aggregates import tally_for

        return tally_for(self, tz)


def open_store(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = False,
    tz: tzinfo | None = None,
    rng: random.Random | None = None,
    repairing: bool = False,
) -> Store:
    """Open (creating if needed) the progress store.

    ``path`` defaults to ``$QUIZZER_DB`` or the platform's user data dir. A
    second writer gets a :class:`StoreError` naming the process holding the
    store; ``read_only=True`` opens without the lock and never writes. While a repair's
    marker is there (an interrupted ``quizzer doctor``) the store is refused, except to
    the doctor's own opens (``repairing=True``).
    """
    return Store(default_db_path(path), read_only=read_only, tz=tz, rng=rng, repairing=repairing)
