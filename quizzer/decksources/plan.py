"""The language and side of every column of a deck source, and how each was decided."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from quizzer.concepts.languages import SIDES, Side
from quizzer.decksources.columns import Column, column_from_name, resolve
from quizzer.decksources.langs import column_language
from quizzer.decksources.table import DeckSourceError, Row
from quizzer.glossary.language_id import TextsLanguage

#: Columns left out named in the report; more are counted.
MAX_NAMED = 6


@dataclass(frozen=True, slots=True)
class ColumnPlan:
    """Per column its (language, side) or ``None`` (left out), and a line per column saying
    what it became and why, for the report."""

    mapping: tuple[tuple[str, Side] | None, ...]
    described: tuple[str, ...]


def _label(number: int, names: Sequence[str], numbers: Sequence[int] = ()) -> str:
    """``column 3 (Back)``: its number in the file (``numbers``, when columns holding no
    text were dropped) and its name."""
    name = names[number - 1] if number <= len(names) and names[number - 1] else ""
    shown = numbers[number - 1] if number <= len(numbers) else number
    return f"column {shown} ({name})" if name else f"column {shown}"


def plan_columns(
    rows: Sequence[Row],
    names: Sequence[str] = (),
    option: Sequence[Column | None] | None = None,
    *,
    candidates: Sequence[bool] | None = None,
    noun: str = "column",
    given_by: str = "--columns",
    numbers: Sequence[int] = (),
    pooled: Sequence[Sequence[str]] = (),
) -> ColumnPlan:
    """What each column holds: from ``option`` (``--columns``), else the names the file gives,
    else the language told from the column's texts. ``candidates`` (per column) leaves out
    columns no card shows (Anki fields only tested by a template); ``numbers`` are the file's
    numbers of the columns, when it has columns holding no text; ``pooled`` per column more
    texts in its language (an Anki field of the same name in another note type's notes).

    Raises :class:`DeckSourceError` when a column's language can't be told, or ``option``
    names more columns than there are.
    """
    width = max(len(names), max((len(row.cells) for row in rows), default=0))
    columns: list[Column | None]
    how: list[str]
    if option is not None:
        if len(option) > width:
            raise DeckSourceError(
                f"--columns names {len(option)} {noun}s; the file has {width}",
                hint=f"give one LANG:SIDE (or -) per {noun}, in order",
            )
        columns = [*option, *([None] * (width - len(option)))]
        how = [given_by] * width
        if sum(column is not None for column in columns) < 2:
            raise DeckSourceError(
                f"{given_by} keeps fewer than two {noun}s; a card needs two texts (a prompt "
                "and an answer)",
                hint=f"give one LANG:SIDE per {noun}, e.g. --columns es:term,en:term",
            )
    else:
        named = [column_from_name(name) for name in names]
        if sum(column is not None for column in named) >= 2:
            columns = [*named, *([None] * (width - len(named)))]
            how = ["its name"] * width
        else:
            columns, how = _detected(rows, names, numbers, width, candidates, noun, pooled)
    mapping = resolve(columns, noun)
    described = []
    left_out = []
    for number, (target, why) in enumerate(zip(mapping, how, strict=True), start=1):
        label = _label(number, names, numbers).replace("column", noun, 1)
        if target is None:
            left_out.append(names[number - 1] if number <= len(names) else str(number))
        else:
            described.append(f"{label}: {target[0]} {target[1]} (by {why})")
    if left_out:
        shown = ", ".join(left_out[:MAX_NAMED]) + (", …" if len(left_out) > MAX_NAMED else "")
        described.append(f"{len(left_out)} {noun}(s) left out: {shown}")
    return ColumnPlan(tuple(mapping), tuple(described))


def _detected(
    rows: Sequence[Row],
    names: Sequence[str],
    numbers: Sequence[int],
    width: int,
    candidates: Sequence[bool] | None,
    noun: str,
    pooled: Sequence[Sequence[str]],
) -> tuple[list[Column | None], list[str]]:
    columns: list[Column | None] = []
    unknown: dict[int, TextsLanguage] = {}
    for index in range(width):
        texts = [row.cells[index] for row in rows if index < len(row.cells)]
        if (candidates is not None and not candidates[index]) or not any(texts):
            columns.append(None)
            continue
        found = column_language([*texts, *(pooled[index] if index < len(pooled) else ())])
        if found.lang is None:
            unknown[index] = found
            columns.append(None)
            continue
        columns.append(Column(found.lang))
    if unknown:
        index, found = next(iter(unknown.items()))
        label = _label(index + 1, names, numbers).replace("column", noun, 1)
        texts = [row.cells[index] for row in rows if index < len(row.cells) and row.cells[index]]
        shown = ", ".join(texts[:SHOWN_TEXTS]) + (", …" if len(texts) > SHOWN_TEXTS else "")
        raise DeckSourceError(
            f"can't tell the language of {label} from its texts ({shown}): {found.why}",
            hint=_columns_hint(columns, unknown, noun, names, numbers),
        )
    return columns, ["its texts' language"] * width


#: Texts of a column named in the error saying its language can't be told.
SHOWN_TEXTS = 4


def _columns_hint(
    columns: Sequence[Column | None],
    unknown: dict[int, TextsLanguage],
    noun: str,
    names: Sequence[str],
    numbers: Sequence[int],
) -> str:
    """The ``--columns`` to pass: one item per column of the file, in order, each told
    language as told and ``LANG`` (``LANG1``, ``LANG2``… for several) for each other, with
    the languages its texts lean to."""
    placeholders = {
        index: "LANG" if len(unknown) == 1 else f"LANG{n}"
        for n, index in enumerate(unknown, start=1)
    }
    items, seen = [], Counter[str]()
    for index, column in enumerate(columns):
        if index in placeholders:
            items.append(f"{placeholders[index]}:term")
        elif column is None:
            items.append("-")
        else:
            seen[column.lang] += 1
            count = seen[column.lang]
            items.append(f"{column.lang}:{SIDES[count - 1]}" if count <= len(SIDES) else "-")
    width = len(columns)
    plural = f"its {width} {noun}s" if width != 1 else f"its one {noun}"
    meanings = [
        f"{placeholders[index]} the tag of "
        f"{_label(index + 1, names, numbers).replace('column', noun, 1)}'s language"
        for index in unknown
    ]
    return (
        f"say what each of {plural} holds, in order: --columns {','.join(items)} with "
        f"{' and '.join(meanings)} (es, en, ru, pt-BR…); - leaves a {noun} out"
    )
