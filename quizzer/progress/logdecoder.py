"""A month file decoded straight into :class:`Review` objects, its values checked on the way.

Reading the whole log (a million answers) is mostly building objects: parsing each
record into a dict, checking it (:func:`~quizzer.progress.values.review_problem`)
and building its :class:`Review` took ~40 µs an answer. Here one msgspec decoder,
compiled once from :class:`Review`'s own annotations (grade 1-4, the quiz modes,
numbers, times), parses the JSON and builds the objects in one pass. Each is built
as a :class:`_Checked` (a :class:`Review` with the same fields), whose
``__post_init__`` makes the checks ``Review.__post_init__`` makes — aware times, a
whole ``duration_ms`` ≥ 0 — without its conversions: a time not in UTC is left to
the careful reading; then the object becomes a plain :class:`Review` (checking it
once, not twice, was 40% of reading the log). What the decoder checks is as strict
as the careful reading or stricter; :func:`decode` then checks what it can't (ids,
card ids). Where the two could differ it gives up (``None``), and the caller reads
the file the careful way, which names the bad record: an invalid value, or a valid
one this decoder treats differently (a time with a lowercase ``z``, more than six
digits of fractions, which ``datetime.fromisoformat`` reads its own way, or another
offset than UTC's).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC
from functools import cache
from typing import Any

from quizzer.cards.card import CardKey
from quizzer.scheduling.review import Review

#: What :func:`decode` gives for a document without a seal (``None`` is a bad seal).
NO_SEAL: Any = object()

#: Times :func:`datetime.fromisoformat` and msgspec read differently (see the module doc):
#: a lowercase ``z`` ending a text, more than six digits of a second's fraction.
_LOWER_Z = b'z"'
_LONG_FRACTION = re.compile(rb"\.\d{7,}+[-+Zz]")


#: Card ids already parsed (a card's answers repeat its id; parsing it is most of a check).
_CARD_IDS: set[str] = set()
_CARD_IDS_KEPT = 500_000


#: A slice of a month's table decoded at a time when only some cards are kept (bytes).
PIECE = 4_000_000
_TABLE = b'{"reviews":{'
_SEAL = b',"seal":'
#: Where one record ends and the next begins, in a table as quizzer writes it.
_BOUNDARY = re.compile(rb'\},"\d+":\{')


class _Checked(Review):
    """A :class:`Review` as the decoder builds it: checked, then made a plain :class:`Review`."""

    __slots__ = ()

    def __post_init__(self) -> None:
        # msgspec has checked the types (Literal grade and mode, whole numbers, times).
        # Not in UTC, or naive: the careful reading converts it, or names the record.
        if self.reviewed_at.tzinfo is not UTC or (
            self.due is not None and self.due.tzinfo is not UTC
        ):
            raise ValueError("a time not in UTC")
        if self.duration_ms < 0:
            raise ValueError("a negative duration")
        # The same slots: the object is now exactly what Review(...) would have built.
        object.__setattr__(self, "__class__", Review)


@cache
def _decoder() -> Any:
    import msgspec

    class MonthDoc(msgspec.Struct, forbid_unknown_fields=True):
        reviews: dict[str, _Checked]
        seal: Any = msgspec.UNSET

    decoders = (msgspec.json.Decoder(MonthDoc), msgspec.json.Decoder(dict[str, _Checked]))
    return decoders, msgspec.json.Decoder(), msgspec.UNSET, (msgspec.DecodeError,)


def decode(
    raw: bytes, cards: Callable[[str], bool] | None = None
) -> tuple[list[Review], Any, int] | None:
    """The answers of a month file, its ``seal`` table and how many answers it holds.

    ``None`` when anything is not as quizzer writes it: read it carefully. The seal is
    returned as it is (:data:`NO_SEAL` when the document has none), for the caller to
    verify. With ``cards``, only the answers of the cards it says yes to are returned
    (every record is still checked), and the table is decoded a slice at a time.
    """
    if _LOWER_Z in raw or _LONG_FRACTION.search(raw):
        return None
    (whole, table), any_value, unset, errors = _decoder()
    try:
        with _collector_paused():
            if cards is not None and (found := _in_pieces(raw, table, any_value, cards)):
                return found
            doc = whole.decode(raw)
    except errors:  # DecodeError, and ValidationError (its subclass): a record to name
        return None
    except (ValueError, TypeError, OverflowError):  # raised by _Checked.__post_init__
        return None
    reviews = list(doc.reviews.values())
    if not _ids_ok(reviews):
        return None
    held = len(reviews)
    if cards is not None:
        reviews = [r for r in reviews if cards(r.card_id)]
    return reviews, NO_SEAL if doc.seal is unset else doc.seal, held


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a month's answers are built.

    The answers hold no cycles, but each collection walks every object alive: with a
    million answers read, the collector's passes cost as much as decoding.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _ids_ok(reviews: list[Review]) -> bool:
    known = _CARD_IDS
    for review in reviews:
        if not review.id:
            return False
        if review.card_id not in known:
            try:
                CardKey.parse(review.card_id)
            except ValueError:
                return False
            if len(known) >= _CARD_IDS_KEPT:
                known.clear()
            known.add(review.card_id)
    return True


def _in_pieces(
    raw: bytes, table: Any, any_value: Any, cards: Callable[[str], bool]
) -> tuple[list[Review], Any, int] | None:
    """:func:`decode` of a sealed table a slice of records at a time (``None``: not one).

    A slice ends where a record does (``},"N":{``); one that ends inside a text
    instead fails to decode (its text is cut), and so does the whole read. Keys must
    run 1, 2, 3… as quizzer writes them, so that no record counts twice.
    """
    cut = raw.rfind(_SEAL)
    if not raw.startswith(_TABLE) or cut < 0 or raw[cut - 1 : cut] != b"}" or raw[-1:] != b"}":
        return None
    seal = any_value.decode(raw[cut + len(_SEAL) : -1])
    kept: list[Review] = []
    held = 0
    start, end = len(_TABLE), cut - 1
    while start < end:
        stop = end
        if end - start > PIECE:
            found = _BOUNDARY.search(raw, start + PIECE, end)
            stop = found.start() + 1 if found else end
        piece = table.decode(b"{" + raw[start:stop] + b"}")
        reviews = list(piece.values())
        if list(piece) != [str(n) for n in range(held + 1, held + len(piece) + 1)]:
            return None
        if not _ids_ok(reviews):
            return None
        held += len(reviews)
        kept += [r for r in reviews if cards(r.card_id)]
        start = stop + 1  # past the comma
    return kept, seal, held
