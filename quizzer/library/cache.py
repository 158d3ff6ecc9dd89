"""A cache of parsed deck files.

Python's TOML parser is pure Python: a deck of 400 concepts in five languages
takes ~0.1 s to parse, most of the time quizzer needs before showing the first
card. The parsed tables are kept as JSON (parsed ~20× faster) under the user
cache dir, keyed by a hash of the deck file's bytes, so any edit to the file is
a miss. Validation still runs on every load; the cache only skips the parsing.
Every failure to read or write the cache is ignored: it can always be rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from quizzer import __version__
from quizzer.fsutil import atomic_write_text
from quizzer.paths import cache_dir

#: Bump when the cached form changes; old entries are then simply never hit.
CACHE_FORMAT = 1


def _entry(raw: bytes, directory: Path | None) -> Path:
    digest = hashlib.blake2b(raw, digest_size=16).hexdigest()
    return (directory or cache_dir()) / "decks" / f"{digest}.json"


def get(raw: bytes, directory: Path | None = None) -> dict[str, Any] | None:
    """The parsed tables of the deck file whose bytes are ``raw``, if cached and intact."""
    try:
        payload = json.loads(_entry(raw, directory).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: a deeply nested file
        return None
    if (
        not isinstance(payload, dict)
        or payload.get("format") != CACHE_FORMAT
        or payload.get("version") != __version__
        or not isinstance(payload.get("tables"), dict)
    ):
        return None
    return payload["tables"]


def put(raw: bytes, tables: dict[str, Any], directory: Path | None = None) -> None:
    """Remember ``tables`` as the parse of ``raw`` (best effort, atomic)."""
    payload = {"format": CACHE_FORMAT, "version": __version__, "tables": tables}
    with contextlib.suppress(OSError, TypeError, ValueError, RecursionError):
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        atomic_write_text(_entry(raw, directory), text)
