"""Which language and side each column (or Anki field) holds.

Three ways, in order of authority: ``--columns es:term,en:term`` (the learner's word),
column names the file gives (``en``, ``es``, ``term_en``, ``definition_es``,
``es:term``), and the languages told from each column's texts. Within one language the
first column is the term and the second the definition.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from quizzer.concepts.languages import SIDES, Side, parse_side
from quizzer.decksources.langs import language_of, tag_for_name, valid_tag
from quizzer.decksources.table import DeckSourceError

#: What ``--columns`` takes for a column to leave out.
SKIP = frozenset({"-", "_", "skip"})

_SIDE_FIRST_RE = re.compile(r"(term|definition|def)[ _:.\-]+(.+)")
_SIDE_LAST_RE = re.compile(r"(.+?)[ _:.\-]+(term|definition|def)")
#: A bare language name in a header: a two- or three-letter code, or a tag with subtags
#: (``pt-BR``, ``zh-Hans``); other words ("dog", "house") never make a row a header.
_BARE_TAG_RE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*")


@dataclass(frozen=True, slots=True)
class Column:
    """A column's language and side (``side`` ``None``: by its place among the language's)."""

    lang: str
    side: Side | None = None


def parse_columns(option: str) -> list[Column | None]:
    """``--columns es:term,en:term,-`` → one :class:`Column` (or ``None``: skip) per column."""
    out: list[Column | None] = []
    for number, part in enumerate(option.split(","), start=1):
        item = part.strip()
        if item.lower() in SKIP:
            out.append(None)
            continue
        lang, _, side_text = item.partition(":")
        tag = valid_tag(lang)
        if tag is None:
            raise DeckSourceError(
                f"--columns: column {number} ({item!r}) names no language I know",
                hint="give LANG:SIDE per column, e.g. --columns es:term,en:term (- skips one)",
            )
        side: Side | None = None
        if side_text:
            try:
                side = parse_side(side_text)
            except ValueError as exc:
                raise DeckSourceError(
                    f"--columns: column {number} ({item!r}): {exc}",
                    hint="give LANG:term or LANG:definition per column, e.g. "
                    "--columns es:term,en:term (- skips one)",
                ) from None
        out.append(Column(tag, side))
    return out


def column_from_name(name: str) -> Column | None:
    """The column a header cell names (``term_en``, ``es``, ``es:definition``), or ``None``."""
    text = name.strip()
    lowered = text.lower()
    for pattern, side_at, tag_at in ((_SIDE_FIRST_RE, 1, 2), (_SIDE_LAST_RE, 2, 1)):
        found = pattern.fullmatch(lowered)
        if found:
            tag = language_of(text[found.start(tag_at) : found.end(tag_at)])
            if tag is not None:
                return Column(tag, parse_side(found.group(side_at)))
    if _BARE_TAG_RE.fullmatch(text):
        tag = valid_tag(text.replace("_", "-"))
        if tag is not None:
            return Column(tag)
    tag = tag_for_name(text)
    return Column(tag) if tag is not None else None


def header_columns(names: Sequence[str]) -> list[Column] | None:
    """The columns a header row names, when every cell names one; else ``None``."""
    found = [column_from_name(name) for name in names]
    if len(found) < 2 or any(column is None for column in found):
        return None
    return [column for column in found if column is not None]


def resolve(
    columns: Sequence[Column | None], noun: str = "column"
) -> list[tuple[str, Side] | None]:
    """Sides filled in (a language's first column the term, its second the definition).

    Raises :class:`DeckSourceError` for two columns holding the same text or a third
    column of one language.
    """
    taken: dict[str, list[Side]] = {}
    sides_of: dict[int, Side] = {}
    # Columns that name their side first (``term_en``), then the others take what is left
    # of their language: ``en, es, term_en, definition_es`` makes ``en`` the definition.
    numbered = list(enumerate(columns, start=1))
    for number, column in sorted(
        numbered, key=lambda item: item[1] is None or item[1].side is None
    ):
        if column is None:
            continue
        if valid_tag(column.lang) != column.lang:
            raise DeckSourceError(
                f"{noun} {number}: {column.lang!r} is not a language tag (BCP 47)",
                hint=f"say what each {noun} holds, e.g. --columns es:term,en:term",
            )
        sides = taken.setdefault(column.lang, [])
        side = column.side
        if side is None:
            free = [s for s in SIDES if s not in sides]
            if not free:
                raise DeckSourceError(
                    f"{noun} {number} is a third {noun} in {column.lang}: a language has a "
                    "term and a definition",
                    hint=f"say which {noun}s to keep with --columns, e.g. "
                    f"--columns es:term,en:term,- (- leaves a {noun} out)",
                )
            side = free[0]
        elif side in sides:
            raise DeckSourceError(
                f"{noun} {number} is a second {column.lang} {side}",
                hint="give each language's term and definition once, e.g. "
                "--columns es:term,en:term",
            )
        sides.append(side)
        sides_of[number] = side
    return [
        None if column is None else (column.lang, sides_of[number]) for number, column in numbered
    ]
