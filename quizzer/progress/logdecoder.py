"""A month file decoded straight into :class:`Review` objects, its values checked on the way.

Reading the whole log (a million answers) is mostly building objects: parsing each
record into a dict, checking it (:func:`~quizzer.progress.values.review_problem`)
and building its :class:`Review` took ~40 µs an answer. Here one msgspec decoder,
compiled once from :class:`Review`'s own annotations (grade 1-4, the quiz modes,
numbers, times), parses the JSON and builds the objects in one pass, each checked by
``Review.__post_init__``; then, in loops run by ``map``, the ids are checked not empty
and the card ids parsed (each distinct one once). What the decoder checks is as strict
as the careful reading or stricter. Where the two could differ it gives up (``None``),
and the caller reads the file the careful way, which names the bad record: an invalid
value, or a valid one this decoder treats differently
(a time with a lowercase ``z``, more than six digits of fractions, which
``datetime.fromisoformat`` reads its own way).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from operator import attrgetter
from typing import Any

from quizzer.cards.card import CardKey
from quizzer.scheduling.review import Review

#: What :func:`decode` gives for a document without a seal (``None`` is a bad seal).
NO_SEAL: Any = object()

#: Times :func:`datetime.fromisoformat` and msgspec read differently (see the module doc):
#: a lowercase ``z`` ending a text, more than six digits of a second's fraction.
_LOWER_Z = b'z"'
_LOWER_Z_RE = re.compile(re.escape(_LOWER_Z))
_Z_LOOKS = 64
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


@cache
def _decoder() -> Any:
    import msgspec

    table: Any = dict[str, Review]
    layout: list[Any] = [("reviews", table), ("seal", Any, msgspec.UNSET)]
    month_doc = msgspec.defstruct("MonthDoc", layout, forbid_unknown_fields=True)
    decoders = (msgspec.json.Decoder(month_doc), msgspec.json.Decoder(table))
    # A too-deep document raises RecursionError: damage too, for the careful reading to name.
    return decoders, msgspec.json.Decoder(), msgspec.UNSET, (msgspec.DecodeError, RecursionError)


_CARD_ID = attrgetter("card_id")
_ID = attrgetter("id")


def _as_reviews(built: list[Review]) -> list[Review] | None:
    """``built`` as they are, ``None`` if an id is empty or a card id not a card key (the
    careful reading names the record). ``Review`` itself put every time in UTC.

    Loops in C (``map``), not per answer in Python: that was half of reading the log.
    """
    if not all(map(_ID, built)):
        return None
    if not _card_ids_ok(set(map(_CARD_ID, built))):
        return None
    return built


def decode(
    raw: bytes, cards: Callable[[str], bool] | None = None
) -> tuple[list[Review], Any, int] | None:
    """The answers of a month file, its ``seal`` table and how many answers it holds.

    ``None`` when anything is not as quizzer writes it: read it carefully. The seal is
    returned as it is (:data:`NO_SEAL` when the document has none), for the caller to
    verify. With ``cards``, only the answers of the cards it says yes to are returned
    (every record is still checked), and the table is decoded a slice at a time.
    """
    if _unusual(raw):
        return None
    if cards is not None and (found := _in_pieces(raw, cards)):
        return found
    (whole, _), _, unset, errors = _decoder()
    try:
        doc = whole.decode(raw)
    except errors:  # DecodeError, and ValidationError (its subclass): a record to name
        return None
    built = _as_reviews(list(doc.reviews.values()))
    if built is None:
        return None
    reviews: list[Review] = built
    held = len(reviews)
    if cards is not None:
        reviews = [r for r in reviews if cards(r.card_id)]
    return reviews, NO_SEAL if doc.seal is unset else doc.seal, held


def _card_ids_ok(card_ids: set[str]) -> bool:
    """Whether each of ``card_ids`` is a card key (those seen before are not parsed again)."""
    known = _CARD_IDS
    for card_id in card_ids - known:
        try:
            CardKey.parse(card_id)
        except ValueError:
            return False
        if len(known) >= _CARD_IDS_KEPT:
            known.clear()
        known.add(card_id)
    return True


def _unusual(raw: bytes) -> bool:
    """Whether ``raw`` holds a time this decoder reads otherwise than the careful reading."""
    return _has_lower_z(raw) or _LONG_FRACTION.search(raw) is not None


def _has_lower_z(raw: bytes) -> bool:
    """``_LOWER_Z in raw``, faster: each ``z`` found by ``memchr``, the few a month file has
    (card ids and typed texts may have more: after ``_Z_LOOKS`` of them, one search).

    (``bytes.find`` of the two bytes goes by their last, a quote: every few bytes of JSON.
    That took a tenth of reading a month file, a ``memchr`` for ``z`` a hundredth.)
    """
    at = raw.find(b"z")
    for _ in range(_Z_LOOKS):
        if at < 0:
            return False
        if raw[at + 1 : at + 2] == b'"':
            return True
        at = raw.find(b"z", at + 1)
    return at >= 0 and _LOWER_Z_RE.search(raw, at) is not None


def _in_pieces(raw: bytes, cards: Callable[[str], bool]) -> tuple[list[Review], Any, int] | None:
    """:func:`decode` of a sealed table a slice of records at a time (``None``: not one)."""
    found = _sealed(raw)
    if found is None:
        return None
    pieces, seal = found
    kept: list[Review] = []
    held = 0
    for reviews in pieces:
        if reviews is None:
            return None
        held += len(reviews)
        kept += [r for r in reviews if cards(r.card_id)]
    return kept, seal, held


def sealed_table(raw: bytes) -> tuple[Iterator[list[Review] | None], Any] | None:
    """A sealed month file's answers, a slice of records at a time, and its seal (as it is).

    ``None`` when ``raw`` is not laid out as quizzer writes a sealed month; a slice is
    ``None`` (and the last) when it doesn't decode as answers (read it carefully). A slice
    ends where a record does (``},"N":{``); one that ends inside a text instead fails to
    decode (its text is cut). Keys must run 1, 2, 3… as quizzer writes them, so that no
    record counts twice. The seal is not verified here.
    """
    return None if _unusual(raw) else _sealed(raw)


def _sealed(raw: bytes) -> tuple[Iterator[list[Review] | None], Any] | None:
    (_, table), any_value, _, errors = _decoder()
    cut = raw.rfind(_SEAL)
    if not raw.startswith(_TABLE) or cut < 0 or raw[cut - 1 : cut] != b"}" or raw[-1:] != b"}":
        return None
    try:
        seal = any_value.decode(raw[cut + len(_SEAL) : -1])
    except errors:
        return None

    def pieces() -> Iterator[list[Review] | None]:
        held = 0
        start, end = len(_TABLE), cut - 1
        while start < end:
            stop = end
            if end - start > PIECE:
                found = _BOUNDARY.search(raw, start + PIECE, end)
                stop = found.start() + 1 if found else end
            try:
                piece = table.decode(b"{" + raw[start:stop] + b"}")
            except errors:
                yield None
                return
            reviews = None
            if list(piece) == [str(n) for n in range(held + 1, held + len(piece) + 1)]:
                reviews = _as_reviews(list(piece.values()))
            yield reviews
            if reviews is None:
                return
            held += len(reviews)
            start = stop + 1  # past the comma

    return pieces(), seal


@cache
def _cache_codec() -> tuple[Any, Any, tuple[type[Exception], ...]]:
    import msgspec

    return (
        msgspec.msgpack.Encoder(),
        msgspec.msgpack.Decoder(list[Review]),
        (msgspec.DecodeError,),
    )


def encode_answers(reviews: list[Review]) -> bytes:
    """``reviews`` as msgpack (:mod:`quizzer.progress.monthcache`): binary floats and times."""
    encoded: bytes = _cache_codec()[0].encode(reviews)
    return encoded


def decode_answers(body: bytes | memoryview) -> list[Review] | None:
    """Inverse of :func:`encode_answers`, each value checked as a month file's are
    (``None``: something is not as :func:`encode_answers` writes it)."""
    _, decoder, errors = _cache_codec()
    try:
        built = decoder.decode(body)
    except errors:
        return None
    return _as_reviews(built)
