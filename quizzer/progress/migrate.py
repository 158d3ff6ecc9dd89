"""Schema versions of the progress store and the migrations between them.

Version 1 was the plain TinyDB layout: one JSON document with tables
``cards`` (card states), ``reviews`` (the review log) and ``settings``, written
whole by TinyDB's ``JSONStorage`` on every answer. Version 2 kept card states
and settings in an atomically written snapshot with a ``meta`` table, and the
review log in the append-only journal, never truncated. Version 3
keeps the review log in month files (``P.log/YYYY-MM.json``) and truncates the
journal at each compaction (generations, ``meta.gen``). Version 4 (current) has the
same layout; its card states count elapsed time in study days, as Anki does: migrating
to it recomputes every card's memory state from its review log.

Migrating keeps a byte-for-byte backup of the old file (``P.v1.bak``,
``P.v2.bak``, ``P.v3.bak``) first; from version 2 the old journal is kept too
(``P.journal.v2.bak``, a hard link).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import tzinfo
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any

import quizzer.progress.generations as generations
import quizzer.progress.journal as journal
import quizzer.progress.logstream as logstream
import quizzer.progress.reviewlog as reviewlog
from quizzer.errors import StoreError
from quizzer.fsutil import atomic_write_bytes, fsync_dir, keep_link
from quizzer.progress.doctor_replay import compare
from quizzer.progress.files import journal_path, log_dir, require_v2_journal
from quizzer.progress.history import read_log
from quizzer.progress.journal_events import Event, card_data, has_review
from quizzer.progress.localtz import LocalTimezone
from quizzer.progress.schema import SCHEMA_VERSION
from quizzer.progress.snapshot import AtomicJSONStorage
from quizzer.progress.state import State
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.replay import OutOfOrder

#: How many logged answers migrating to schema 4 replays per pass over the log, when the log
#: can't be read in one pass a slice at a time (:mod:`~quizzer.progress.logstream`). Migrating
#: 1M answers of 100k cards so peaked at 623 MB with 200,000, at 570 MB with 100,000; each
#: pass more reads the log again (~7 s of CPU a million answers).
REPLAY_BATCH = 100_000

#: The first schema whose journals start with a header line.
_HEADERS_FROM = 3


def signature_problem(path: Path, version: int) -> str | None:
    """Why a document of an old ``version`` read from ``path`` is not an old store to migrate.

    Only schema 3 and later start journals with a header: one beside an old-looking
    snapshot means the snapshot was replaced (damage, repaired from the backup).
    """

    if version < _HEADERS_FROM and journal.header(journal_path(path)) is not None:
        return (
            f"the snapshot looks like schema {version}, but the journal beside it was written "
            f"by schema {_HEADERS_FROM} or later"
        )
    return None


def version_backup_path(path: Path, version: int) -> Path:
    """Where the file is kept before migrating away from ``version``."""
    return path.with_name(f"{path.name}.v{version}.bak")


#: The first schema in the current layout (the review log in month files): older
#: documents can't be brought up to date without moving the log (:func:`migrate`).
LAYOUT_SINCE = 3


def in_current_layout(doc: dict[str, Any], version: int) -> dict[str, Any]:
    """``doc`` of schema ``version`` marked as of :data:`SCHEMA_VERSION`, touching no file.

    For a copy whose own journals are gone by (the doctor's base from an old ``P.bak``):
    from :data:`LAYOUT_SINCE` the layout is the same, and what the 3 → 4 step recomputes
    (memory states from the log) is the caller's to replay. ``ValueError`` before it.
    """
    if version < LAYOUT_SINCE:
        raise ValueError(f"schema {version} keeps the review log elsewhere")
    meta = doc["meta"]["1"]
    new = {**doc, "meta": {**doc["meta"], "1": {**meta, "schema": SCHEMA_VERSION, "undo": []}}}
    new["meta"]["1"].setdefault("migrated_from", version)
    return new


def migrate(
    path: Path,
    doc: dict[str, Any] | list[dict[str, Any]],
    version: int,
    tz: tzinfo | None = None,
    journal_lost: bool = False,
) -> dict[str, Any]:
    """Bring ``doc`` (read from ``path``) up to :data:`SCHEMA_VERSION`, keeping a backup.

    ``tz`` is the learner's time zone for study days (default: this machine's).
    A schema-2 store whose journal is lost is refused unless ``journal_lost`` (the doctor).
    Returns the migrated document, already written to ``path``. Given as a one-item list,
    the document is handed over: taken out of the list and emptied of its cards as the
    new states replace them, so that a big store's old and new states are not all held
    at once (the caller keeps no other reference to it).
    """
    owned = isinstance(doc, list)
    doc = doc.pop() if isinstance(doc, list) else doc

    if version == 2 and not journal_lost:
        require_v2_journal(path, doc)

    backup = version_backup_path(path, version)
    if not backup.exists():
        with open(path, "rb") as fh:  # copied a MiB at a time, atomically
            atomic_write_bytes(backup, iter(partial(fh.read, 1 << 20), b""))
    while version < SCHEMA_VERSION:
        step = _STEPS.get(version)
        if step is None:
            raise StoreError(f"no migration from schema version {version}", path=path)
        doc = _v3_to_v4(doc, path, tz, owned) if version == 3 else step(doc, path)
        owned = True  # a step's result is our own
        version += 1
    AtomicJSONStorage(path).write(doc)
    return doc


def _damaged(path: Path, journal_file: Path, exc: journal.JournalDamage) -> StoreError:
    """The error a migration stops with when the journal it must read is damaged."""
    return StoreError(
        f"the journal is damaged at line {exc.line}; can't migrate the store",
        hint=f"run `quizzer doctor --db {path}` first (a copy is kept)",
        path=journal_file,
        line=exc.line,
    )


def _v1_to_v2(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """Move the review log into the journal; card states and settings into the snapshot."""

    journal_file = journal_path(path)
    existing: set[str] = set()
    writer_end = 0
    if journal_file.exists():
        # A migration cut short may already have written some reviews: don't repeat them.
        found = journal.read(journal_file, 0)
        existing = {e["review"]["id"] for e in found.events if has_review(e)}
        writer_end = found.end
    reviews = sorted(
        doc.get("reviews", {}).values(), key=lambda r: (r.get("reviewed_at", ""), r.get("id", ""))
    )
    writer = journal.JournalWriter(journal_file, writer_end)
    seq = 0
    try:
        # One fsync for the batch: write lines, then sync once at the end.
        for review in reviews:
            seq += 1
            if review.get("id") in existing:
                continue
            writer.append_nosync({"op": "review", "seq": seq, "review": review})
        writer.sync()
        end = writer.end
    finally:
        writer.close()
    cards = {
        str(key): data
        for key, data in doc.get("cards", {}).items()
        if isinstance(data, dict) and "card_id" in data
    }
    settings = doc.get("settings", {}).get("1", {})
    meta: dict[str, Any] = {
        "schema": 2,
        "journal_offset": end,
        "seq": seq,
        "created": None,
        "undo": [],
        "recent": [],
        "migrated_from": 1,
    }
    return {"meta": {"1": meta}, "settings": {"1": settings}, "cards": cards}


def _v2_to_v3(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """Fold the whole journal into month files; the snapshot becomes generation 1.

    The old journal (generation 0: it has no header) is kept as
    ``P.journal.v2.bak``; the next open sees it is older than the snapshot and
    starts a fresh journal. Cut short by a crash, this simply runs again (the
    snapshot is still version 2 and folding is idempotent).
    """

    journal_file = journal_path(path)
    meta = doc.get("meta", {}).get("1", {})
    offset = int(meta.get("journal_offset", 0))
    st = State.from_document(doc)
    # A version-2 journal may hold millions of answers: they wait on disk, month by month.
    fold = reviewlog.Fold(spill_to=log_dir(path))

    def events() -> Iterator[Event]:
        for end, event in journal.scan(journal_file, 0):
            if end > offset:
                st.apply(event)  # the tail the version-2 snapshot hadn't absorbed yet
            yield event

    try:
        fold.add_events(events())
        st.months = {}
        fold.write(path, st.months, 0)  # sealed as generation 1, the snapshot's below
    except journal.JournalDamage as exc:
        raise _damaged(path, journal_file, exc) from exc
    finally:
        fold.close()
    backup = journal_file.with_name(journal_file.name + ".v2.bak")
    if journal_file.exists() and not backup.exists():
        keep_link(journal_file, backup)
        fsync_dir(path.parent)
    st.gen = 1
    new = st.to_document(0)
    new["meta"]["1"]["migrated_from"] = meta.get("migrated_from", 2)
    return new


def _v3_to_v4(
    doc: dict[str, Any], path: Path, tz: tzinfo | None = None, owned: bool = False
) -> dict[str, Any]:
    """Recompute every card's memory state from its review log (elapsed time in study days).

    Version 3 stores counted elapsed time as py-fsrs does, in whole 24-hour periods (an
    answer at 21:00 and the next at 08:00 were "the same day"); version 4 counts study
    days with the learner's day start, as Anki does, so their states are replayed from
    the log under that rule (:mod:`~quizzer.progress.doctor_replay`). What an open
    would replay of the journal's tail is folded in first and counted as absorbed, so
    no state of the old rule comes back from it; the due dates the learner was given
    stay. The undo stack is emptied: its entries would restore old-rule states.

    The log is read once, a slice at a time, and each card replayed as its answers come
    (:mod:`~quizzer.progress.logstream`); a log that can't be read so (damage, an undo
    in the journal, answers out of order) is read the careful way, in batches of cards.
    """

    meta = doc.get("meta", {}).get("1", {})
    st = State.from_document(doc, path)
    if owned:
        doc["cards"] = {}  # the old states live on in st alone, each freed when replaced
    end = int(meta.get("journal_offset", 0))
    jpath = journal_path(path)
    if jpath.exists() and not generations.standing(path, st.gen).stale:
        try:
            tail = journal.read(jpath, end)
        except journal.JournalDamage as exc:
            raise _damaged(path, jpath, exc) from exc
        for event in tail.events:
            st.apply(event)
        end = tail.end
    # Studied cards only: the memory states the old rule derived. A state at odds with
    # its log in other ways (a card the log alone knows) is the doctor's to report.
    # Every state is checked here, once, and built again when compared.
    studied = [card_id for card_id in list(st.raw) if _studied(st, card_id)]
    replay_tz = tz or LocalTimezone()
    try:
        # One pass over the log, a slice at a time (most stores).
        kept = _Kept(st, studied)
        answers = chain.from_iterable(logstream.answers(path, st.gen, st.months))
        _put_fixed(st, compare(answers, kept, st.settings, replay_tz).fixed, kept)
    except (logstream.Unstreamable, OutOfOrder):
        _replay_in_batches(path, st, studied, replay_tz)
    st.undo = []
    new = st.to_document(end)
    new["meta"]["1"]["migrated_from"] = meta.get("migrated_from", 3)
    return new


def _replay_in_batches(path: Path, st: State, studied: list[str], tz: tzinfo) -> None:
    """The schema-4 replay from the log read the careful way, a batch of cards at a time.

    A few hundred thousand answers at a time, by card: a million answers in memory at
    once would be most of a gigabyte (each pass reads the log again, keeping its cards').
    """

    logged = sum(entry[0] for entry in (st.months or {}).values())
    batches = max(1, -(-logged // REPLAY_BATCH))
    for batch in range(batches):

        def ours(card_id: str, batch: int = batch) -> bool:
            return hash(card_id) % batches == batch

        reviews = read_log(path, st.gen, st.months, ours).values()
        mine = _Kept(st, [card_id for card_id in studied if ours(card_id)])
        cmp = compare(reviews, mine, st.settings, tz)
        del reviews
        _put_fixed(st, cmp.fixed, mine)


def _put_fixed(st: State, fixed: list[CardState], studied: _Kept) -> None:
    """The replayed states of the ``studied`` cards among ``fixed`` into ``st``'s table."""

    while fixed:
        state = fixed.pop()  # each replayed state freed once its record is in the table
        if state.card_id in studied:
            st.put(state.card_id, card_data(state.to_dict()))


class _Kept(Mapping[str, "CardState"]):
    """The kept states of ``card_ids`` as a mapping, each built when asked for (not kept)."""

    def __init__(self, st: State, card_ids: list[str]) -> None:
        self._st = st
        self._ids = set(card_ids)

    def __getitem__(self, card_id: str) -> CardState:
        if card_id not in self._ids:
            raise KeyError(card_id)
        state = self._st.get(card_id)
        self._st.objs.pop(card_id, None)
        assert state is not None  # a studied card
        return state

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._ids


def _studied(st: State, card_id: str) -> bool:
    """Whether the card has answers (its state checked, and not kept as an object)."""
    state = st.get(card_id)
    st.objs.pop(card_id, None)
    return state is not None and state.reps > 0


_STEPS = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}
