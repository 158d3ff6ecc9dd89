"""A big fold's answers kept on disk, one file per month, until their month file is written.

Migrating a version-2 store folds its whole journal (a million answers) into month
files. Held in memory, even as JSON text, that peaked at 1.8 GB. A :class:`Spill`
instead appends each added answer as one line to a temp file of its month in the log
directory (``P.log/.2026-03.spill.<pid>.tmp``: a kill leaves only a temp file, which
the next writable open removes with the other leftovers), and when the month is
written reads back only what ordering needs — the answer's time and id, and where its
line is — so a month's answers are streamed from the spill file into the new month
file (:func:`quizzer.progress.monthfile.encode_texts`) in time order. Nothing here
changes what is written: the same records, in the same order, as a fold in memory.

A line is ``<time as JSON>\\t<id as JSON>\\t<review as JSON>\\n`` (JSON text holds no
raw tab or newline).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import datetime
from json.encoder import encode_basestring
from operator import itemgetter
from pathlib import Path
from typing import BinaryIO

from quizzer.progress.journal import compact_json
from quizzer.progress.journal_events import ReviewData, timestamp


def _text(value: object) -> bytes:
    # json.dumps with options builds an encoder per call: a third of spilling a million answers.
    return compact_json(value).encode("utf-8")


def _string(value: object) -> bytes:
    """:func:`_text` of an answer's time or id: the same bytes, a text without the dispatch."""
    return encode_basestring(value).encode("utf-8") if type(value) is str else _text(value)


class Merged:
    """A month's answers after the fold, in time order: their count and their JSON texts."""

    def __init__(self, fh: BinaryIO, places: list[tuple[int, int]]) -> None:
        self._fd = fh.fileno()
        self._places = places
        self.count = len(places)

    def texts(self) -> Iterator[bytes]:
        """Each answer's JSON text, read back from the spill file (again at each call)."""
        for offset, length in self._places:
            yield os.pread(self._fd, length, offset)


class Spill:
    """Added answers per month on disk (see the module doc); :meth:`close` removes the files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._files: dict[str, BinaryIO] = {}

    def add(self, month: str, review: ReviewData) -> None:
        """Keep one added answer of ``month`` (a later one with the same id replaces it)."""
        fh = self._files.get(month)
        if fh is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            name = f".{month}.spill.{os.getpid()}.tmp"
            fh = self._files[month] = open(self.directory / name, "w+b")  # noqa: SIM115
        at, rid = _string(review["reviewed_at"]), _string(review["id"])
        fh.write(b"%s\t%s\t%s\n" % (at, rid, _text(review)))

    def months(self) -> set[str]:
        """The months that gained answers."""
        return set(self._files)

    def merge(self, month: str, existing: list[ReviewData], gone: set[str]) -> Merged | None:
        """``existing`` with this month's added answers folded in and ``gone`` taken out.

        As :func:`quizzer.progress.reviewlog.merge` then
        :func:`~quizzer.progress.reviewlog.sort_by_time`: an existing answer keeps its
        place and its record, an added one whose id is already there is dropped, the
        last of added ones with one id wins at the first one's place; stable in time.
        ``None`` when that changes nothing (``existing`` as it is).
        """
        fh = self._files[month]
        fh.flush()
        held = {_text(d["id"]) for d in existing}
        gone_ids = {_text(rid) for rid in gone}
        added: dict[bytes, tuple[datetime, int, int]] = {}  # id -> (time, offset, length)
        fh.seek(0)
        offset = 0
        for line in fh:
            at, rid, rest = line.split(b"\t", 2)
            start = offset + len(at) + len(rid) + 2
            offset += len(line)
            if rid not in held and rid not in gone_ids:
                added[rid] = (timestamp(json.loads(at)), start, len(rest) - 1)
        kept = [d for d in existing if d["id"] not in gone]
        if not added and len(kept) == len(existing):
            return None
        # Existing answers go to the spill file's end, so every text is read from one place.
        fh.seek(0, os.SEEK_END)
        ordered: list[tuple[datetime, int, int]] = []
        for review in kept:
            text = _text(review)
            ordered.append((timestamp(review["reviewed_at"]), fh.tell(), len(text)))
            fh.write(text)
        fh.flush()
        ordered += added.values()
        ordered.sort(key=itemgetter(0))  # stable: ties keep their order
        return Merged(fh, [(start, length) for _, start, length in ordered])

    def close(self) -> None:
        """Close and remove every spill file."""
        for fh in self._files.values():
            fh.close()
            Path(fh.name).unlink(missing_ok=True)
        self._files.clear()
