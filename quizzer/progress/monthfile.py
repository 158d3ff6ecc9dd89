"""One month file of the review log, sealed, and how a copy of it is vouched for.

A month file (and its mirror, the same bytes) is a TinyDB document with the
table ``reviews`` and, last, a ``seal``::

    {"reviews":{"1":{…},…},"seal":{"1":{"month":"2026-08","count":80,"gen":5,"crc":"…"}}}

``crc`` is the CRC-32 of every byte before ``,"seal":``, so a flipped byte
anywhere in the answers shows, and ``gen`` is the generation of the snapshot
whose compaction wrote the file. The snapshot lists every month it knows, with
its count and that generation (``meta.months``: the manifest). A copy is
*vouched for* when it reads, every record in it is a valid answer
(:func:`~quizzer.progress.values.review_problem`), its seal verifies and it
agrees with the manifest — or carries the next generation (a compaction cut
short after writing its months and before its snapshot; its journal is still
live and folding it again changes nothing). A month file without a seal was
written before seals existed; it is vouched for while the manifest doesn't list
its month (an old store: the next compaction that touches the month seals it).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import quizzer.progress.jsontext as jsontext
import quizzer.progress.logdecoder as logdecoder
import quizzer.progress.monthcache as monthcache
from quizzer.errors import StoreError
from quizzer.progress.journal_events import ReviewData, plain
from quizzer.progress.manifest import Manifest
from quizzer.progress.snapshot import dumps, parse
from quizzer.progress.values import review_problem, shown_value
from quizzer.scheduling.review import Review

#: Where the seal starts; the CRC covers every byte before it.
_SEAL = b',"seal":'
T = TypeVar("T")


def encode(month: str, reviews: list[ReviewData], gen: int) -> bytes:
    """The bytes of a month file (and of its mirror) holding ``reviews``, sealed by ``gen``."""
    texts = (dumps(plain(r)) for r in reviews)
    return b"".join(encode_texts(month, texts, len(reviews), gen))


def encode_texts(month: str, texts: Iterable[bytes], count: int, gen: int) -> Iterator[bytes]:
    """:func:`encode` in pieces, from each review's JSON text (``count`` of them), streamed.

    The CRC is taken as the pieces go, so a million answers are never one string.
    """
    head = b'{"reviews":{'
    crc = zlib.crc32(head)
    yield head
    n = 0
    for n, text in enumerate(texts, start=1):
        piece = b'%s"%d":%s' % (b"," if n > 1 else b"", n, text)
        crc = zlib.crc32(piece, crc)
        yield piece
    if n != count:
        raise ValueError(f"{month}: {n} answers to write, {count} announced")
    crc = zlib.crc32(b"}", crc)
    seal = {"month": month, "count": count, "gen": gen, "crc": f"{crc:08x}"}
    yield b"}" + _SEAL + dumps({"1": seal}) + b"}"


@dataclass(frozen=True, slots=True)
class Copy(Generic[T]):
    """One copy (the month file or its mirror) as read: its answers, its seal's generation.

    ``reviews`` are the records as dicts (:func:`read_copy`) or as :class:`Review`
    objects (:func:`read_answers`); ``gen`` is ``None`` for a file written before
    seals; ``problem`` says why the copy can't be used (``"missing"`` when there is
    no file).
    """

    reviews: list[T]
    gen: int | None
    problem: str | None
    #: How many answers the file holds when ``reviews`` are only some (``None``: all).
    held: int | None = None

    @property
    def count(self) -> int:
        """How many answers the copy holds."""
        return len(self.reviews) if self.held is None else self.held

    @property
    def exists(self) -> bool:
        """There is a file (perhaps damaged)."""
        return self.problem != "missing"


def _problem(message: str) -> Copy[Any]:
    return Copy([], None, message)


def _read_bytes(file: Path) -> bytes | Copy[Any]:
    try:
        return file.read_bytes()
    except FileNotFoundError:
        return _problem("missing")
    except OSError as exc:
        return _problem(f"can't read it: {exc.strerror}")


def read_copy(file: Path, month: str) -> Copy[ReviewData]:
    """Read one copy of ``month``'s answers, checking its layout, its seal and every record."""
    raw = _read_bytes(file)
    return raw if isinstance(raw, Copy) else _decode(raw, file, month)


def read_answers(
    file: Path, month: str, cards: Callable[[str], bool] | None = None
) -> Copy[Review]:
    """:func:`read_copy` with the answers as :class:`Review` objects (reading the whole log).

    The same checks, made cheap for a file as quizzer writes it: one decoder compiled
    from :class:`Review`'s own fields (:mod:`quizzer.progress.logdecoder`) checks every
    value while it builds the objects. Anything it doesn't take as it is (a bad value,
    an unusual but valid time) is read the careful way, record by record, so what is
    accepted and the message naming a bad record are the same either way. With
    ``cards`` only the answers of the cards it says yes to are kept (every record is
    still checked), a slice of the file at a time.
    """
    raw = _read_bytes(file)
    if isinstance(raw, Copy):
        return raw
    seal_at = raw.rfind(_SEAL)
    if cards is None and seal_at > 0 and (cached := _cached(file, raw, month, seal_at)):
        return cached
    fast = logdecoder.decode(raw, cards)
    if fast is None:
        copy = _decode(raw, file, month)
        if copy.problem:
            return _problem(copy.problem)
        answers = [Review.from_dict(plain(d)) for d in copy.reviews]
        if cards is None:
            return Copy(answers, copy.gen, None)
        return Copy([r for r in answers if cards(r.card_id)], copy.gen, None, len(answers))
    reviews, seal, held = fast
    gen, problem = check_seal(seal, raw, month, held)
    if problem:
        return _problem(problem)
    if cards is None and gen is not None:
        monthcache.save(file, raw, seal_at, reviews)
    return Copy(reviews, gen, None, None if cards is None else held)


def _cached(file: Path, raw: bytes, month: str, seal_at: int) -> Copy[Review] | None:
    """The answers of the month file ``raw`` from its cache, if one holds exactly them
    (:mod:`quizzer.progress.monthcache`) and its own seal verifies; else ``None``."""
    reviews = monthcache.load(file, raw, seal_at)
    if reviews is None:
        return None
    try:
        seal = jsontext.loads(raw[seal_at + len(_SEAL) : -1])
    except ValueError:
        return None
    gen, problem = check_seal(seal, raw, month, len(reviews))
    # Damage to the month file itself is named by the reading without the cache.
    return None if problem or gen is None else Copy(reviews, gen, None)


def _decode(raw: bytes, file: Path, month: str) -> Copy[ReviewData]:
    try:
        doc = parse(raw, file)
    except StoreError as exc:
        return _problem(exc.message.replace("progress store", "review log file", 1))
    layout = _layout_problem(doc)
    if layout:
        return _problem(f"review log file is damaged (not a table of reviews: {layout})")
    table: dict[str, Any] = doc["reviews"]
    # Records first: a bad value is named with its record, whatever else is wrong.
    reviews: list[ReviewData] = []
    for key, data in table.items():
        problem = review_problem(data)
        if problem:
            return _problem(f"review log file is damaged (record {key}: {problem})")
        reviews.append(data)
    gen, problem = check_seal(doc.get("seal", logdecoder.NO_SEAL), raw, month, len(table))
    return _problem(problem) if problem else Copy(reviews, gen, None)


def _layout_problem(doc: dict[str, Any]) -> str | None:
    """What makes ``doc`` no month file's layout, said with what it holds (``None``: it is one)."""
    if not set(doc) <= {"reviews", "seal"}:
        return f"its tables are {shown_value(sorted(doc), 60)}"
    if "reviews" not in doc:
        return 'it has no table "reviews"'
    if not isinstance(doc["reviews"], dict):
        return f'"reviews" is {shown_value(doc["reviews"])}, not a table'
    return None


def check_seal(
    seal_table: Any, raw: bytes, month: str, count: int
) -> tuple[int | None, str | None]:
    """The seal's generation (``None``: no seal), or why the seal doesn't hold."""
    if seal_table is logdecoder.NO_SEAL:
        return None, None
    seal = seal_table.get("1") if isinstance(seal_table, dict) else None
    if not isinstance(seal, dict):
        return None, "review log file is damaged (its seal is not a record)"
    cut = raw.rfind(_SEAL)
    crc = f"{zlib.crc32(memoryview(raw)[:cut]):08x}" if cut > 0 else None  # no copy of it
    if seal.get("crc") != crc:
        return None, "review log file is damaged (its checksum doesn't match its bytes)"
    if seal.get("month") != month or seal.get("count") != count:
        return None, (
            f"review log file is damaged (sealed as {shown_value(seal.get('count'), 20)} answers "
            f"of {shown_value(seal.get('month'), 20)}, holds {count} of {month})"
        )
    gen = seal.get("gen")
    if isinstance(gen, bool) or not isinstance(gen, int) or gen < 0:
        return None, (
            "review log file is damaged (its seal's gen is not a whole number of 0 or more: "
            f"{shown_value(gen, 20)})"
        )
    return gen, None


def vouch(copy: Copy[Any], month: str, manifest: Manifest | None, gen: int) -> str | None:
    """Why ``copy`` can't be trusted next to a snapshot of generation ``gen`` (``None``: it can).

    ``manifest`` is the snapshot's ``meta.months`` (``None``: a snapshot from before
    manifests, which vouches for nothing beyond each file's own checks).
    """
    if copy.problem:
        return copy.problem
    if manifest is None:
        return None
    entry = manifest.get(month)
    if copy.gen is None:
        if entry is None:
            return None
        return "review log file is damaged (no seal, but the snapshot lists this month)"
    if copy.gen == gen + 1:
        return None  # written by a compaction cut short before its snapshot
    if entry is None:
        return (
            f"review log file is not vouched for (generation {copy.gen}; the snapshot of "
            f"generation {gen} doesn't list {month})"
        )
    if [copy.count, copy.gen] != list(entry):
        return (
            f"review log file is not vouched for (it holds {copy.count} answers of "
            f"generation {copy.gen}; the snapshot lists {entry[0]} of generation {entry[1]})"
        )
    return None
