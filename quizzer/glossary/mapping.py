"""The mapping file: the user's word on which concept a glossary entry belongs to.

Alignment takes it as the strongest evidence (``map``, confidence 1.0); the import
report's hint for an unsure match shows the lines to write. An entry that matches
nothing — a file the import doesn't have, a definition line, a line with no entry, a
concept id neither the deck nor the import has — is an error (:class:`MappingError`,
raised by :func:`check_mapping`), never ignored: the user meant something by it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping, Sequence

from quizzer.concepts.concept import SLUG_RE
from quizzer.glossary.entries import AlignError, SourceFile

Key = tuple[str, int]

_TABLE_RE = re.compile(
    r"""^\s*\[\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[A-Za-z0-9_-]+))(?:\.[^\]]*)?"""
    r"""\s*\]\s*(?:#.*)?$"""
)
_KEY_RE = re.compile(r"""^\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[A-Za-z0-9_-]+))\s*=""")


class MappingError(AlignError):
    """An entry of the mapping file that can't be applied; ``key`` is the entry (glossary
    file name, line) so the caller can point at its line in the mapping file."""

    def __init__(
        self,
        message: str,
        key: Key | None,
        hint: str | None = None,
        *,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message, line, hint, file=file)
        self.key = key


def mapping_lines(text: str) -> dict[tuple[str, str], int]:
    """Where each entry of a mapping file is: ``(file name, key) → line`` (1-based), and
    ``(file name, "") → line`` of its table header. Best effort (tables and keys written one
    per line, as the report suggests); what it can't place is simply absent."""
    out: dict[tuple[str, str], int] = {}
    table: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        found = _TABLE_RE.match(line)
        if found:
            table = found["dq"] if found["dq"] is not None else found["sq"] or found["bare"]
            out.setdefault((table, ""), number)
            continue
        found = _KEY_RE.match(line)
        if found and table is not None:
            key = found["dq"] if found["dq"] is not None else found["sq"] or found["bare"]
            out.setdefault((table, key), number)
    return out


def parse_mapping(text: str, name: str = "mapping file") -> dict[tuple[str, int], str]:
    """Parse a mapping file: which concept id an entry (file name, line) belongs to.

    Format (TOML)::

        # file name = { line of the term = "concept-id" }
        ["002_8ab2fe190dc945a0.txt"]
        27 = "moe"

    The concept id is one the deck has, or one the import makes for a new concept (as its
    report shows); :func:`check_mapping` refuses anything else. ``name`` prefixes the
    messages (empty: none, for a caller that names the file itself).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        raise AlignError(
            f"{name or 'mapping file'} is not valid TOML: {exc}",
            line=int(found.group(1)) if found else None,
            hint='write one table per glossary file: ["file.txt"] then lines like 27 = "moe"',
        ) from exc
    except RecursionError as exc:  # tomllib recurses into nested arrays and inline tables
        raise AlignError(
            f"{name or 'mapping file'} nests arrays or tables too deeply",
            hint='write one table per glossary file: ["file.txt"] then lines like 27 = "moe"',
        ) from exc
    lines = mapping_lines(text)
    prefix = f"{name}: " if name else ""
    out: dict[tuple[str, int], str] = {}
    for file, table in data.items():
        if not isinstance(table, Mapping):
            raise AlignError(
                f"{prefix}{file!r} must be a table of line = concept-id",
                line=lines.get((file, "")),
                hint=f'write ["{file}"] on its own line, then lines like 27 = "moe"',
            )
        for key, cid in table.items():
            if isinstance(cid, Mapping):
                raise AlignError(
                    f"{prefix}[{file}.{key}] reads as a table {key!r} inside {file!r}",
                    line=lines.get((file, "")),
                    hint=f'write the file name in quotes: ["{file}.{key}"]',
                )
            if not key.isdigit() or int(key) < 1:
                raise AlignError(
                    f"{prefix}[{file}] key {key!r} is not a line number",
                    line=lines.get((file, key)),
                    hint='write the line of the entry\'s term, e.g. 27 = "moe"',
                )
            if not isinstance(cid, str) or not SLUG_RE.match(cid):
                raise AlignError(
                    f"{prefix}[{file}] {key} = {cid!r} is not a concept id",
                    line=lines.get((file, key)),
                    hint="concept ids are slugs like 'lora' (a-z, 0-9, hyphens)",
                )
            out[(file, int(key))] = cid
    return out


def check_mapping(
    mapping: Mapping[Key, str],
    files: Sequence[SourceFile],
    concept_ids: Collection[str] | None = None,
    deck_id: str = "",
) -> None:
    """Raise :class:`MappingError` for the first entry of ``mapping`` that matches nothing.

    Every entry must name a file of ``files``, the line of an entry's term there (a
    definition line is refused with the term's line to write instead), and — when
    ``concept_ids`` is given — one of those ids (the deck's and the ones the import makes).
    """
    if not mapping:
        return  # (most imports: no need to index every entry of every file)
    names = [f.file for f in files]
    terms: dict[Key, str] = {}
    definitions: dict[Key, int] = {}
    for source in files:
        for e in source.entries:
            terms[(e.file, e.term_line)] = e.term
            definitions[(e.file, e.definition_line)] = e.term_line
    for key, cid in mapping.items():
        file, line = key
        entry = f'["{file}"] {line} = "{cid}"'
        if file not in names:
            raise MappingError(
                f"the mapping's {entry} names {file}, which is not one of the files imported",
                key,
                hint=f"name each table after a glossary given to the import "
                f"({', '.join(names)}), or remove the table",
            )
        if key in definitions:
            term_line = definitions[key]
            raise MappingError(
                f"the mapping's {entry} names a definition: line {line} of {file} is the "
                f"definition of the entry whose term is on line {term_line}",
                key,
                hint=f'use the line of the term: {term_line} = "{cid}"',
            )
        if key not in terms:
            raise MappingError(
                f"the mapping names line {line} of {file}, which holds no entry",
                key,
                file=file,
                line=line,
                hint="use the line number of the entry's term",
            )
        if concept_ids is not None and cid not in concept_ids:
            deck = f"deck {deck_id!r}" if deck_id else "the deck"
            raise MappingError(
                f"the mapping's {entry} names concept {cid!r}, which is neither in {deck} nor "
                "made by this import",
                key,
                hint="use a concept id `quizzer show` lists for the deck, or one the report of "
                "`quizzer import ... --dry-run` shows",
            )
