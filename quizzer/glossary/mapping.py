"""The mapping file: the user's word on which concept a glossary entry belongs to.

Alignment takes it as the strongest evidence (``map``, confidence 1.0); the import
report's hint for an unsure match shows the lines to write.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping

from quizzer.concepts.concept import SLUG_RE
from quizzer.glossary.entries import AlignError


def parse_mapping(text: str, name: str = "mapping file") -> dict[tuple[str, int], str]:
    """Parse a mapping file: which concept id an entry (file name, line) belongs to.

    Format (TOML)::

        # file name = { line of the term (or definition) = "concept-id" }
        ["002_8ab2fe190dc945a0.txt"]
        27 = "moe"

    A concept id not in the deck yet names a new concept.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        raise AlignError(
            f"{name} is not valid TOML: {exc}",
            line=int(found.group(1)) if found else None,
            hint='write one table per glossary file: ["file.txt"] then lines like 27 = "moe"',
        ) from exc
    out: dict[tuple[str, int], str] = {}
    for file, table in data.items():
        if not isinstance(table, Mapping):
            raise AlignError(
                f"{name}: {file!r} must be a table of line = concept-id",
                hint=f'write ["{file}"] on its own line, then lines like 27 = "moe"',
            )
        for key, cid in table.items():
            if not key.isdigit() or int(key) < 1:
                raise AlignError(f"{name}: [{file}] key {key!r} is not a line number")
            if not isinstance(cid, str) or not SLUG_RE.match(cid):
                raise AlignError(
                    f"{name}: [{file}] {key} = {cid!r} is not a concept id",
                    hint="concept ids are slugs like 'lora' (a-z, 0-9, hyphens)",
                )
            out[(file, int(key))] = cid
    return out
