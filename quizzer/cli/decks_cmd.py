"""`quizzer decks` and `show`: listing the decks and reading one's concept records.

Texts are data: everything a deck holds is printed through ``rich.text.Text``
(never markup), so a term like ``[bold]`` or ``{{Front}}`` appears as written.
Importing and checking deck files (`import`, `validate`) is :mod:`quizzer.cli.import_cmd`.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from rich.table import Table
from rich.text import Text

from quizzer.cli.console import text_console
from quizzer.cli.output import print_json
from quizzer.cli.subcommands import Subcommands
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import CONCEPT_FIELDS, SIDES, check_language
from quizzer.errors import shown
from quizzer.library.decks import match_deck, read_deck
from quizzer.library.summary import DeckSummary, library_summaries, validated_tables
from quizzer.paths import user_decks_dir
from quizzer.ui.textshape import (
    base_direction,
    cells,
    has_rtl,
    resolve_rtl_mode,
    visual_lines,
    wrap_cells,
)


def register(subparsers: Subcommands) -> None:
    """Add ``decks`` and ``show`` to the CLI."""
    p = subparsers.add_parser(
        "decks",
        help="list the bundled and imported decks",
        description="List every deck: bundled ones and those imported into the user deck "
        "folder ($QUIZZER_DECKS, else the platform's user data dir), with concept counts, "
        "languages and how many texts are seed, authored or corrected.",
    )
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.set_defaults(func=cmd_decks)

    p = subparsers.add_parser(
        "show",
        help="show a deck's concept records",
        description="Show every concept of a deck: id, acronym, and per language the term, "
        "the definition and where each text came from. In a terminal the lines wrap to its width "
        "between words, and a deck of more than "
        f"{SHOW_LIMIT} concepts shows its first {SHOW_LIMIT} (--all: every one); piped, each "
        "text stays on one line and every concept is printed.",
    )
    p.add_argument("deck", metavar="DECK", help="deck id or name (see `quizzer decks`)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print a JSON list of concepts: id, acronym, and per language term, "
        "definition and provenance",
    )
    p.add_argument(
        "--rtl",
        choices=("auto", "app", "terminal"),
        default="auto",
        help="Arabic on screen: 'app' wraps, joins and orders it here (for terminals without "
        "bidi, like tmux), 'terminal' prints it in logical order for terminals that do bidi; "
        "'auto' (default) picks for the terminal, and piped output stays logical",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help=f"in a terminal, show every concept of a deck of more than {SHOW_LIMIT} "
        "(by default its first ones and how to see the rest; piped output is always whole)",
    )
    p.set_defaults(func=cmd_show)


#: In a terminal, a deck bigger than this shows its first concepts only (without --all):
#: 50,000 concepts scrolling past are of no use there, and took seconds to lay out.
SHOW_LIMIT = 200


# -- decks -----------------------------------------------------------------------------------


def deck_record(summary: DeckSummary) -> dict[str, Any]:
    """The JSON record `quizzer decks --json` prints for one deck."""
    return {
        "id": summary.id,
        "name": summary.name,
        "bundled": summary.bundled,
        "path": str(summary.path),
        "concepts": summary.concepts,
        "languages": list(summary.languages),
        "complete_languages": list(summary.complete_languages),
        "sources": dict(summary.sources),
    }


def cmd_decks(args: argparse.Namespace) -> int:
    """`quizzer decks`: from the deck summaries (cached), not the decks' concepts."""
    library = library_summaries()
    if args.json:
        print_json([deck_record(item) for item in library])
        return 0
    if not library:
        text_console().print(Text("No decks found."))
        return 0
    table = Table(box=None, pad_edge=False)
    # Only the name may wrap: ids, counts and the language list stay whole at 80 columns.
    for column in ("deck", "name", "concepts", "languages", "texts", "where"):
        table.add_column(column, overflow="fold", no_wrap=column != "name")
    for item in library:
        s = item.sources
        table.add_row(
            Text(item.id),
            Text(item.name),
            Text(str(item.concepts)),
            Text(" ".join(item.languages)),
            Text(f"{s.get('seed', 0)}/{s.get('authored', 0)}/{s.get('corrected', 0)}"),
            Text("bundled" if item.bundled else "user"),
        )
    console = text_console()
    console.print(table)
    console.print(
        Text("texts: seed/authored/corrected (from glossaries/written/fixed)", style="dim")
    )
    console.print(Text(f"user decks: {shown(user_decks_dir())}", style="dim"))
    return 0


# -- show ------------------------------------------------------------------------------------


def concept_json(concept: Concept) -> dict[str, Any]:
    """The stable JSON form of one concept (see `quizzer show --help`)."""
    languages: dict[str, Any] = {}
    for lang in concept.languages:
        entry = concept.entries[lang]
        provenance = {}
        for side in SIDES:
            record = entry.side(side).to_dict()
            record.pop("text")
            provenance[side] = record
        languages[lang] = {
            "term": entry.term.text,
            "definition": entry.definition.text,
            "provenance": provenance,
        }
    return {
        "id": concept.id,
        "uid": concept.uid,
        "acronym": concept.acronym,
        "languages": languages,
    }


def _source_label(record: dict[str, Any]) -> str:
    label = record["source"]
    # A seed text has both; an authored one may have either alone (nothing requires them).
    where = ":".join(str(record[key]) for key in ("file", "line") if key in record)
    return f"{label} {where}" if where else label


#: Width of the "  ar definition " label column in `quizzer show`.
_LABEL_CELLS = 16


def _append_wrapped(
    out: Text, prefix: str, text: str, style: str, suffix: str, *, rtl: str, width: int
) -> None:
    """Append one field wrapped to ``width`` cells, for a terminal.

    ``prefix`` (the label, dim) starts the first line; continuation lines are indented under
    the text. Lines break between words (:func:`visual_lines`, so never inside a grapheme
    cluster); in ``app`` mode right-to-left text is shaped per line and every line ends at
    the right edge, as the app aligns it. ``suffix`` (dim: the source, a reason) follows on
    the last line if it fits there, else on lines of its own.
    """
    indent = cells(prefix)
    column = max(width - indent, 10)
    lines = visual_lines(text, column, rtl)
    right = rtl == "app" and has_rtl(text) and base_direction(text) == "R"
    # (text, style, whether it starts a new line)
    rows = [
        (" " * (column - cells(line)) + line if right else line, style, index > 0)
        for index, line in enumerate(lines)
    ]
    tail = visual_lines(suffix, column, rtl)
    if not right and len(tail) == 1 and cells(lines[-1]) + 2 + cells(tail[0]) <= column:
        rows.append(("  " + tail[0], "dim", False))
    else:
        rows.extend((line, "dim", True) for line in tail)
    out.append(prefix, style="dim")
    for row, row_style, new_line in rows:
        if new_line:
            out.append("\n" + " " * indent)
        out.append(row, style=row_style)
    out.append("\n")


def plain_lines(
    deck_id: str,
    name: str,
    concepts: Iterable[Mapping[str, Any]],
    count: int,
    shape: Callable[[str], str] = str,
) -> Iterator[str]:
    """The `quizzer show` text, one line at a time, unwrapped (each text on one line).

    ``concepts`` are concept tables as the deck file holds them (a valid deck's cached
    parse, or :meth:`Concept.to_dict`), so a big deck is printed without building its
    concepts; ``shape`` turns a text into what is printed (``--rtl app``: shaped lines).
    """
    yield f"{name}  ({deck_id}, {count} concepts)\n"
    # Labels made once and no call for the plain shape: a 50,000-concept deck is 150,000
    # lines, and per-line work is most of `quizzer show big | less`.
    labels: dict[str, list[tuple[str, str]]] = {}  # by the deck file's key of a language
    plain = shape is str
    for concept in concepts:
        acronym = concept.get("acronym")
        yield f"\n{concept['id']}  {acronym}\n" if acronym else f"\n{concept['id']}\n"
        for key, entry in concept.items():
            if key in CONCEPT_FIELDS:
                continue
            sides = labels.get(key)
            if sides is None:
                lang = check_language(key)
                sides = labels[key] = [(side, f"  {lang} {side:<10} ") for side in SIDES]
            for side, label in sides:
                record = entry[side]
                text = record["text"] if plain else shape(record["text"])
                source = record["source"]  # _source_label, without a call per line
                if "line" in record and "file" in record:  # a seed text: no call per line
                    yield f"{label}{text}  [{source} {record['file']}:{record['line']}]\n"
                elif "line" in record or "file" in record:
                    yield f"{label}{text}  [{_source_label(record)}]\n"
                else:
                    yield f"{label}{text}  [{source}]\n"
                if source == "corrected":
                    original = shape(record.get("original") or "")
                    yield f"  {'':<13} was: {original}  ({record.get('reason')})\n"


def _app_shape(width: int) -> Callable[[str], str]:
    """``--rtl app`` unwrapped: right-to-left texts wrapped, shaped and reordered line by
    line, continuation lines indented under the label column."""

    def shape(text: str) -> str:
        if not has_rtl(text):
            return text
        lines = visual_lines(text, max(width - _LABEL_CELLS, 20), "app")
        return ("\n" + " " * _LABEL_CELLS).join(lines)

    return shape


def render_deck(
    deck: Deck,
    *,
    rtl: str = "terminal",
    width: int = 0,
    wrap: bool = False,
    total: int | None = None,
) -> Text:
    """The human-readable `quizzer show` output, as one literal :class:`Text`.

    ``rtl`` is ``terminal`` (texts in logical order) or ``app`` (right-to-left texts
    wrapped to ``width`` cells, shaped and in visual order, for terminals without bidi).
    With ``wrap`` (a terminal) every line fits in ``width`` cells; without it (piped) each
    text stays on one line (:func:`plain_lines`). ``total`` is the deck's size when
    ``deck`` holds only its first concepts.
    """
    count = len(deck) if total is None else total
    if not wrap:
        shape = _app_shape(width) if rtl == "app" else str
        concepts = (c.to_dict() for c in deck)
        return Text("".join(plain_lines(deck.id, deck.name, concepts, count, shape)))
    out = Text()
    title = f"{deck.name}  ({deck.id}, {count} concepts)"
    out.append("\n".join(wrap_cells(title, width)), style="bold")
    out.append("\n")
    for concept in deck:
        out.append("\n")
        out.append(concept.id, style="bold cyan")
        if concept.acronym:
            out.append("  ")
            out.append(concept.acronym, style="cyan")
        out.append("\n")
        for lang in concept.languages:
            entry = concept.entries[lang]
            for side in SIDES:
                text = entry.side(side)
                source = f"[{_source_label(text.to_dict())}]"
                label = f"  {lang} {side:<10} "
                style = "bold" if side == "term" else ""
                corrected = text.source.kind == "corrected"
                _append_wrapped(out, label, text.text, style, source, rtl=rtl, width=width)
                if corrected:
                    original, reason = text.source.original or "", f"({text.source.reason})"
                    was = f"{'':<15} was: "
                    _append_wrapped(out, was, original, "", reason, rtl=rtl, width=width)
    return out


def cmd_show(args: argparse.Namespace) -> int:
    """`quizzer show DECK`: a big deck's valid cached parse is printed as it is (piped), or
    its first :data:`SHOW_LIMIT` concepts (in a terminal, without ``--all``)."""
    summary = match_deck(library_summaries(), args.deck)
    if args.json:
        print_json([concept_json(c) for c in read_deck(summary.path)])
        return 0
    console = text_console()
    rtl = "terminal"
    if args.rtl == "app" or (args.rtl == "auto" and console.is_terminal):
        rtl = resolve_rtl_mode(args.rtl)
    tables = validated_tables(summary)
    if not console.is_terminal and rtl == "terminal" and tables is not None:
        # Piped: plain lines straight from the cached parse (50,000 concepts in ~0.1 s).
        lines = plain_lines(summary.id, summary.name, tables["concepts"], summary.concepts)
        while chunk := "".join(itertools.islice(lines, 8192)):  # a few large writes
            sys.stdout.write(chunk)
        sys.stdout.flush()
        return 0
    bounded = console.is_terminal and not args.all and summary.concepts > SHOW_LIMIT
    if bounded and tables is not None:
        first = tables["concepts"][:SHOW_LIMIT]
        concepts = tuple(Concept.from_dict(item, summary.id) for item in first)
        deck = Deck(id=summary.id, name=summary.name, concepts=concepts)
    else:
        deck = read_deck(summary.path)
        if bounded:
            deck = Deck(id=deck.id, name=deck.name, concepts=deck.concepts[:SHOW_LIMIT])
    # A terminal gets lines that fit its width; piped output keeps each text on one line.
    text = render_deck(
        deck, rtl=rtl, width=console.width, wrap=console.is_terminal, total=summary.concepts
    )
    console.print(text, end="")
    if bounded:
        more = summary.concepts - SHOW_LIMIT
        note = (
            f"\n… and {more} more concepts: `quizzer show {summary.id} --all` shows every "
            f"one, `quizzer show {summary.id} | less` pages them"
        )
        console.print(Text("\n".join(wrap_cells(note, console.width)), style="dim"))
    return 0
