"""Tables of text: Quizlet exports, CSV and TSV (plain, with a header row, or with Anki's
header lines), told apart by their content.

* **Anki's header lines** (what Anki's "Notes in plain text" export writes): ``#separator:tab``,
  ``#html:true``, ``#columns:Front	Back``, ``#deck:…``, ``#tags:…``, ``#notetype:…``, and
  ``#guid column:1``, ``#deck column:2``, ``#notetype column:…``, ``#tags column:…`` naming
  columns that hold no text. Rows are CSV (quotes as Anki writes them); with ``#html:true``
  each cell's HTML is reduced to its text.
* **A header row** naming the columns' languages (``en``, ``es``, ``term_en``,
  ``definition_es``), then rows, separated by tabs, commas or semicolons.
* **A Quizlet export** (or any two-column list): term and definition separated by a tab, a
  comma, a semicolon or the string ``--separator`` gives, rows by newline or by semicolon.
  Only the first separator of a row splits it (a definition may hold commas); a
  tab-separated row with more tabs has more columns.

:func:`read_table` returns ``None`` for text that is none of these (a glossary, read by
:mod:`quizzer.glossary.parse`), unless a separator was given.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Sequence

from quizzer.decksources.columns import header_columns
from quizzer.decksources.html_text import html_to_text, plain_text
from quizzer.decksources.table import MAX_ROWS, DeckSourceError, Row, SourceTable
from quizzer.glossary.parse import MAX_LINE_CHARS

#: Most columns a row may have: a flashcard table has a handful, never hundreds.
MAX_COLUMNS = 64

#: The separators Anki's ``#separator:`` names (it also takes the character itself).
SEPARATOR_NAMES = {
    "tab": "\t",
    "comma": ",",
    "semicolon": ";",
    "space": " ",
    "pipe": "|",
    "colon": ":",
}
_SHOWN = {"\t": "TAB", ",": "comma", ";": "semicolon", " ": "space", "|": "pipe", ":": "colon"}

#: Anki's header keys, and those naming a column that holds no text.
_ANKI_KEYS = frozenset(
    {
        "separator",
        "html",
        "tags",
        "columns",
        "notetype",
        "deck",
        "notetype column",
        "deck column",
        "tags column",
        "guid column",
        "if matches",
    }
)
_HEADER_RE = re.compile(r"#([a-z ]+):(.*)")
_CLOZE_RE = re.compile(r"\{\{c\d+::")


def shown_separator(separator: str) -> str:
    """A separator as the report names it (``TAB``, ``comma``, ``" :: "``)."""
    return _SHOWN.get(separator, repr(separator))


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _check_lengths(lines: Sequence[str] | Sequence[tuple[int, str]]) -> None:
    """Refuse a row longer than any row of cards (``lines``, or (line, row) pairs): a row
    holds a term and its definition, and Python's CSV reader refuses a field past 128 KiB
    in its own words."""
    for number, item in enumerate(lines, start=1):
        line, text = item if isinstance(item, tuple) else (number, item)
        if len(text) > MAX_LINE_CHARS:
            raise DeckSourceError(
                f"this row is {len(text):,} characters long (a row holds at most "
                f"{MAX_LINE_CHARS:,})",
                line,
                hint="check that this is a table of cards with one row per line; shorten "
                "that row or leave it out",
            )


def read_table(text: str, separator: str | None = None) -> SourceTable | None:
    """The table ``text`` holds, or ``None`` when it holds none (and no separator was given).

    Raises :class:`DeckSourceError` (with the line) for a table with a bad row.
    """
    if separator == "":
        raise DeckSourceError("--separator is empty", hint="give the string between the columns")
    lines = _lines(text)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        if separator is not None:
            raise DeckSourceError("the file has no rows", hint="give a file with one row per card")
        return None
    headers = _anki_headers(lines)
    if headers:
        _check_lengths(lines)
        return _anki_table(lines, headers, separator)
    named = _header_row(lines[first], separator)
    if named is not None:
        _check_lengths(lines)
        sep, names = named
        rows = _csv_rows(lines, first + 1, sep, plain_text)
        return _checked(
            SourceTable(f"table with a header row ({shown_separator(sep)}-separated)", rows, names)
        )
    return _pairs(text, lines, separator)


def _anki_headers(lines: Sequence[str]) -> dict[str, tuple[int, str]]:
    """Anki's ``#key:value`` lines at the top: key → (line, value); ``{}`` when none."""
    found: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(lines, start=1):
        match = _HEADER_RE.fullmatch(line.strip())
        if not match or match.group(1).strip() not in _ANKI_KEYS:
            break
        found[match.group(1).strip()] = (number, match.group(2).strip())
    return found


def _column_number(headers: dict[str, tuple[int, str]], key: str, width: int | None) -> int | None:
    if key not in headers:
        return None
    line, value = headers[key]
    if not value.isdigit() or int(value) < 1 or (width is not None and int(value) > width):
        raise DeckSourceError(
            f"#{key}:{value} names no column", line, hint="columns are numbered from 1"
        )
    return int(value) - 1


def _anki_table(
    lines: Sequence[str], headers: dict[str, tuple[int, str]], separator: str | None
) -> SourceTable:
    start = max(line for line, _value in headers.values())
    if "separator" in headers:
        line, value = headers["separator"]
        named = SEPARATOR_NAMES.get(value.lower(), value)
        if len(named) != 1:
            raise DeckSourceError(
                f"#separator:{value} is no separator Anki writes",
                line,
                hint="use tab, comma, semicolon, space, pipe, colon or one character",
            )
        sep = separator or named
    else:
        sep = separator or _guess_separator([x for x in lines[start:] if x.strip()][:1])
    html = headers.get("html", (0, "false"))[1].lower() == "true"
    rows = _csv_rows(lines, start, sep, html_to_text if html else plain_text)
    width = max((len(row.cells) for row in rows), default=0)
    meta = {
        key: _column_number(headers, f"{key} column", width)
        for key in ("guid", "deck", "notetype", "tags")
    }
    dropped = {n for n in meta.values() if n is not None}
    guid_at = meta["guid"]
    kept = [
        Row(
            row.line,
            tuple(cell for n, cell in enumerate(row.cells) if n not in dropped),
            row.cells[guid_at] if guid_at is not None and guid_at < len(row.cells) else None,
        )
        for row in rows
    ]
    kept, swapped = _without_reverse_cards(kept) if guid_at is None else (kept, 0)
    names: tuple[str, ...] = ()
    if "columns" in headers:
        every = [name.strip() for name in headers["columns"][1].split(sep)]
        names = tuple(name for n, name in enumerate(every) if n not in dropped)
    deck = headers.get("deck", (0, ""))[1] or None
    what = f"Anki notes as text (header lines, {shown_separator(sep)}-separated"
    what += ", HTML)" if html else ")"
    notes: tuple[str, ...] = ()
    numbers: tuple[int, ...] = ()
    if dropped:
        numbers = tuple(n + 1 for n in range(width) if n not in dropped)
        told = ", ".join(
            f"{n + 1} (#{key} column)" for key, n in sorted(meta.items(), key=_at) if n is not None
        )
        notes = (
            f"columns {told}: no texts, left out (--columns names the other columns, in order)",
        )
    if swapped:
        notes += (
            f"{swapped} rows are an earlier row's two texts swapped (a note's reverse card, "
            "as Anki's Cards in Plain Text writes it): left out, the note is one concept",
        )
    return _checked(SourceTable(what, tuple(kept), names, deck, notes, numbers))


def _without_reverse_cards(rows: list[Row]) -> tuple[list[Row], int]:
    """``rows`` without those that are an earlier row's two texts swapped, and how many.

    Anki's "Cards in Plain Text" writes each card's question and answer: a Basic and
    reversed note is a row ``el perro / the dog`` and a row ``the dog / el perro``. Kept,
    each column held both languages, the reverse rows became concepts of their own and
    their English texts were taken for Spanish.
    """
    seen: set[tuple[str, str]] = set()
    out: list[Row] = []
    for row in rows:
        if len(row.cells) == 2:
            front, back = row.cells
            if (back, front) in seen and front != back:
                continue
            seen.add((front, back))
        out.append(row)
    return out, len(rows) - len(out)


def _at(item: tuple[str, int | None]) -> int:
    return -1 if item[1] is None else item[1]


def _guess_separator(lines: Sequence[str]) -> str:
    sample = "\n".join(lines)
    for candidate in ("\t", ";", ","):
        if candidate in sample:
            return candidate
    return "\t"


def _header_row(line: str, separator: str | None) -> tuple[str, tuple[str, ...]] | None:
    if len(line) > MAX_LINE_CHARS:
        return None  # column names are short: this is no header row
    for sep in (separator,) if separator else ("\t", ",", ";"):
        if sep in line:
            cells = next(csv.reader([line], delimiter=sep)) if len(sep) == 1 else line.split(sep)
            names = tuple(cell.strip() for cell in cells)
            if header_columns(names) is not None:
                return sep, names
    return None


def _csv_rows(
    lines: Sequence[str], start: int, sep: str, clean: Callable[[str], str]
) -> tuple[Row, ...]:
    """Rows of ``lines[start:]`` read as CSV with ``sep`` (one character), cells cleaned."""
    if len(sep) != 1:
        rows: list[Row] = []
        for number, text in enumerate(lines[start:], start=start + 1):
            if text.strip():
                rows.append(Row(number, tuple(clean(cell) for cell in text.split(sep))))
        return tuple(rows)
    # Each line with its line break again: a quoted field spanning lines keeps it.
    body = [line + "\n" for line in lines[start:]]
    reader = csv.reader(body, delimiter=sep, quotechar='"', strict=False)
    out: list[Row] = []
    before = 0
    line = start + 1
    try:
        for cells in reader:
            line = start + before + 1
            before = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            out.append(Row(line, tuple(clean(cell) for cell in cells)))
    except csv.Error:
        # Only a field past the CSV reader's size limit gets here (lines are checked for
        # length first): a quote opened and never closed runs on over the following lines.
        raise _unclosed_quote(start + before + 1) from None
    # The reader takes a quote opened and never closed to run to the end of the file: the
    # last row then spans lines and holds an odd number of quotes.
    spanned = lines[line - 1 :]
    if before > line - start and sum(text.count('"') for text in spanned) % 2:
        raise _unclosed_quote(line)
    return tuple(out)


def _unclosed_quote(line: int) -> DeckSourceError:
    return DeckSourceError(
        "a double quote opened in this row is never closed: the lines after it would be "
        "read as one text",
        line,
        hint='close the quoted field ("…"), write a quote inside one as two (""), or leave '
        "quotes out of unquoted text",
    )


def _pairs(text: str, lines: Sequence[str], separator: str | None) -> SourceTable | None:
    """A Quizlet-style list: rows by newline or semicolon, columns by ``separator`` or found."""
    content = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    pieces = _semicolon_rows(text)
    # Rows by semicolon: more rows than lines (no row runs over a line break). Such a file
    # is read by its semicolon rows or not at all: read by lines, its one line of 15 rows
    # separated by ' - ' was one row split at its first semicolon.
    by_semicolons = len(pieces) > len(content)
    # A semicolon between the columns is what spreadsheets write where the comma is the
    # decimal mark; rows by semicolon never hold one, so the two can't be confused.
    for sep in (separator,) if separator else ("\t", ",", ";"):
        # Each row by semicolon one term and one definition.
        if by_semicolons and all(piece.count(sep) == 1 for _n, piece in pieces):
            _check_lengths(pieces)
            rows = tuple(_split(n, piece, sep) for n, piece in pieces)
            return _checked(_pairs_table(rows, sep, "rows separated by semicolons"))
        if not by_semicolons and all(sep in line for _n, line in content):
            _check_lengths(lines)
            rows = tuple(_split(n, line, sep) for n, line in content)
            return _checked(_pairs_table(rows, sep, "one per line"))
    if separator is None:
        return None
    bad = next(n for n, line in content if separator not in line)
    raise DeckSourceError(
        f"no {shown_separator(separator)} between term and definition on this line",
        bad,
        hint="check --separator, or give a file with one term and definition per row",
    )


def _pairs_table(rows: tuple[Row, ...], sep: str, rows_by: str) -> SourceTable:
    return SourceTable(
        f"Quizlet export or two-column list ({shown_separator(sep)} between term and "
        f"definition, {rows_by})",
        rows,
    )


def _semicolon_rows(text: str) -> list[tuple[int, str]]:
    """The semicolon-separated rows of ``text`` with the line each starts on."""
    out: list[tuple[int, str]] = []
    line = 1
    for piece in text.split(";"):
        stripped = piece.strip()
        if "\n" in stripped:
            return []  # a row split over lines: rows are lines, not semicolon-separated
        if stripped:
            lead = piece[: len(piece) - len(piece.lstrip())]
            out.append((line + lead.count("\n"), stripped))
        line += piece.count("\n")
    return out if len(out) > 1 else []


def _split(line: int, text: str, sep: str) -> Row:
    if sep == "\t":
        return Row(line, tuple(plain_text(cell) for cell in text.split("\t")))
    term, _, definition = text.partition(sep)
    return Row(line, (plain_text(term), plain_text(definition)))


def _checked(table: SourceTable) -> SourceTable:
    """``table``, refused when it has no rows, a row without two texts, cloze deletions, or
    more columns than a table of cards has."""
    if not table.rows:
        raise DeckSourceError("the file has no rows", hint="give a file with one row per card")
    if len(table.rows) > MAX_ROWS:
        raise DeckSourceError(
            f"the file has more than {MAX_ROWS:,} rows, the most one import takes",
            table.rows[MAX_ROWS].line,
            hint="split it into several files and import each into a deck of its own (--deck)",
        )
    for row in table.rows:
        if len(row.cells) > MAX_COLUMNS:
            raise DeckSourceError(
                f"this row has {len(row.cells)} columns (at most {MAX_COLUMNS})",
                row.line,
                hint="check the separator (--separator)",
            )
        texts = [cell for cell in row.cells if cell]
        if len(texts) < 2:
            raise DeckSourceError(
                "this row has fewer than two texts (a card needs a prompt and an answer)",
                row.line,
                hint="give each row a term and its definition or translation, or remove it",
            )
        if any(_CLOZE_RE.search(cell) for cell in texts):
            raise DeckSourceError(
                "this row holds cloze deletions ({{c1::…}}), which quizzer can't ask as "
                "term and definition",
                row.line,
                hint="leave cloze notes out of the export",
            )
    return table
