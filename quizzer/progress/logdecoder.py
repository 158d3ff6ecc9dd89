"""A month file decoded straight into :class:`Review` objects, its values checked on the way.

Reading the whole log (a million answers) is mostly building objects: parsing each
record into a dict, checking it (:func:`~quizzer.progress.values.review_problem`)
and building its :class:`Review` took ~40 µs an answer. Here one msgspec decoder,
compiled once from :class:`Review`'s own annotations (grade 1-4, the quiz modes,
numbers, times), parses the JSON and builds the objects in one pass, running
``Review.__post_init__`` (aware times, a known mode, a whole ``duration_ms`` ≥ 0) on
each. What the decoder checks is as strict as the careful reading or stricter;
:func:`decode` then checks what it can't (ids, card ids). Where the two could differ
it gives up (``None``), and the caller reads the file the careful way, which names
the bad record: an invalid value, or a valid one this decoder treats differently (a
time with a lowercase ``z`` or more than six digits of fractions, which
``datetime.fromisoformat`` reads its own way).
"""

from __future__ import annotations

import re
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


@cache
def _decoder() -> Any:
    import msgspec

    class MonthDoc(msgspec.Struct, forbid_unknown_fields=True):
        reviews: dict[str, Review]
        seal: Any = msgspec.UNSET

    return msgspec.json.Decoder(MonthDoc), msgspec.UNSET, (msgspec.DecodeError,)


def decode(raw: bytes) -> tuple[list[Review], Any] | None:
    """The answers of a month file and its ``seal`` table, or ``None``: read it carefully.

    ``None`` when anything is not as quizzer writes it; the seal is returned as it
    is (:data:`NO_SEAL` when the document has none), for the caller to verify.
    """
    if _LOWER_Z in raw or _LONG_FRACTION.search(raw):
        return None
    decoder, unset, errors = _decoder()
    try:
        doc = decoder.decode(raw)
    except errors:  # DecodeError, and ValidationError (its subclass): a record to name
        return None
    except (ValueError, TypeError, OverflowError):  # raised by Review.__post_init__
        return None
    reviews = list(doc.reviews.values())
    known = _CARD_IDS
    for review in reviews:
        if not review.id:
            return None
        if review.card_id not in known:
            try:
                CardKey.parse(review.card_id)
            except ValueError:
                return None
            if len(known) >= _CARD_IDS_KEPT:
                known.clear()
            known.add(review.card_id)
    return reviews, NO_SEAL if doc.seal is unset else doc.seal
