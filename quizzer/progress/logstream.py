"""The whole review log read once, a slice of answers at a time (migrating a big store).

Migrating to schema 4 replays every answer of the log. Read whole,
a million answers are most of a gigabyte; read in batches of cards, the log is read
again for each batch. :func:`answers` reads it once and gives it a slice at a time,
each slice thrown away once replayed (:class:`~quizzer.scheduling.replay.LogReplay`).

It gives exactly what :func:`~quizzer.progress.history.read_log` gives, or raises
:class:`Unstreamable` — at the start or midway — for anything it would read
otherwise: a month file not as quizzer writes a sealed month (or whose seal or the
snapshot's manifest doesn't vouch for it: the careful reading falls back to its
mirror and names the damage), a journal with undos, an answer id given twice. The
caller then reads the log the careful way.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from operator import attrgetter
from pathlib import Path

import quizzer.progress.journal as journal
import quizzer.progress.logdecoder as logdecoder
import quizzer.progress.monthfile as monthfile
import quizzer.progress.reviewlog as reviewlog
from quizzer.progress.files import journal_path, months
from quizzer.progress.journal_events import has_review, is_undo, plain
from quizzer.progress.manifest import Manifest
from quizzer.progress.values import BAD_VALUE
from quizzer.scheduling.review import Review

_ID = attrgetter("id")


class Unstreamable(Exception):
    """The log can't be given a slice at a time exactly as it reads whole: read it whole."""


def answers(path: Path, gen: int, manifest: Manifest | None) -> Iterator[list[Review]]:
    """Every answer of the log of the store at ``path`` (snapshot generation ``gen``), a
    slice at a time: the months in order, each in its file's order, then the journal's.

    :class:`Unstreamable` (see the module doc) when that is not what the log holds.
    """
    jpath = journal_path(path)
    events = []
    if journal.generation(jpath) >= gen:
        try:
            events = [event for _, event in journal.scan(jpath, 0)]
        except journal.JournalDamage as exc:
            raise Unstreamable("the journal is damaged") from exc
    if any(is_undo(event) for event in events):
        raise Unstreamable("the journal takes answers back")
    seen = array("q")  # each answer's id, hashed: an id given twice is read another way
    for month in months(path, manifest):
        for piece in _month(path, month, manifest, gen):
            seen.extend(map(hash, map(_ID, piece)))
            yield piece
    try:
        journal_answers = [
            Review.from_dict(plain(event["review"])) for event in events if has_review(event)
        ]
    except BAD_VALUE as exc:
        raise Unstreamable("a journal answer can't be read") from exc
    seen.extend(map(hash, map(_ID, journal_answers)))
    if len(set(seen)) != len(seen):
        raise Unstreamable("an answer id is given twice")
    yield journal_answers


def _month(path: Path, month: str, manifest: Manifest | None, gen: int) -> Iterator[list[Review]]:
    """One month file's answers, a slice at a time, its seal and manifest entry checked."""
    file = reviewlog.month_path(path, month)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise Unstreamable(f"{file.name} can't be read") from exc
    found = logdecoder.sealed_table(raw)
    if found is None:
        raise Unstreamable(f"{file.name} is not a sealed month as quizzer writes it")
    pieces, seal = found
    held = 0
    for piece in pieces:
        if piece is None:
            raise Unstreamable(f"{file.name} holds a record to read carefully")
        held += len(piece)
        yield piece
    sealed_gen, problem = monthfile.check_seal(seal, raw, month, held)
    copy: monthfile.Copy[Review] = monthfile.Copy([], sealed_gen, problem, held)
    if monthfile.vouch(copy, month, manifest, gen) is not None:
        raise Unstreamable(f"{file.name} is not vouched for")
