"""The format of the store's cache files: a sealed header line, then one JSON document.

``P.stats`` (``aggregates``) and ``P.figures`` (``figurecache``) are caches of what the
review log says. Each is written as ``MAGIC VERSION CRC32\\n`` followed by its JSON body,
so a reader can tell a whole file of its own version from a torn, damaged or foreign one
before it trusts a byte of it. One rule for both, kept here.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import quizzer.progress.jsontext as jsontext
from quizzer.progress.values import reason_of

#: What a damaged JSON body can raise while its document is taken apart.
BAD_DOCUMENT = (ValueError, TypeError, KeyError, AttributeError, IndexError)


def seal(magic: bytes, version: int, document: dict[str, Any]) -> bytes:
    """The file's bytes: a header line (magic, version, CRC-32 of the body), then the body."""
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"%s %d %08x\n" % (magic, version, zlib.crc32(body)) + body


def unseal(raw: bytes, magic: bytes, version: int) -> tuple[Any, str]:
    """The document of a file :func:`seal` wrote, or ``None`` and why it can't be used.

    ``what`` names the problem for a person, in plain words: a file of another kind or
    version, a body that doesn't match its checksum, or one that isn't JSON (where).
    """
    head, _, body = raw.partition(b"\n")
    parts = head.split(b" ")
    if len(parts) != 3 or parts[0] != magic or parts[1] != str(version).encode():
        return None, "wrong kind"
    if parts[2] != b"%08x" % zlib.crc32(body):
        return None, "damaged (its checksum doesn't match its bytes)"
    try:
        return jsontext.loads(body), "ok"
    except (*BAD_DOCUMENT, UnicodeDecodeError) as exc:
        return None, f"damaged (in its body, {reason_of(exc)})"
