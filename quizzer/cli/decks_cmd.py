"""`quizzer decks`, `show`, `import` and `validate`: listing, reading and importing decks.

Texts are data: everything a deck holds is printed through ``rich.text.Text``
(never markup), so a term like ``[bold]`` or ``{{Front}}`` appears as written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from quizzer.cli.output import print_json
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import LANGUAGES, SIDES
from quizzer.errors import InputError
from quizzer.glossary.align import UNSURE_BELOW, AlignmentReport
from quizzer.glossary.parse import GlossaryError, decode, parse
from quizzer.library.decks import (
    DECK_SUFFIX,
    DeckFile,
    deck_files,
    find_deck,
    load_library,
    read_deck,
)
from quizzer.paths import bundled_decks_dir, user_decks_dir
from quizzer.ui.textshape import fix_cell_widths, has_rtl, resolve_rtl_mode, visual_lines


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``decks``, ``show``, ``import`` and ``validate`` to the CLI."""
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
        "the definition and where each text came from.",
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
    p.set_defaults(func=cmd_show)

    p = subparsers.add_parser(
        "import",
        help="import glossary files into a user deck",
        description="Import glossaries (line 1 title, line 2 subtitle, then term and "
        "definition lines) into ONE user deck. Several files in different languages are "
        "aligned into the same concepts: by acronym, and by position when the files are "
        "parallel. Importing again is idempotent; an edited file updates texts and keeps ids.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", type=Path, help="glossary text files")
    p.add_argument(
        "--deck",
        metavar="NAME",
        help="deck to create or merge into (default: the first file's title line, or its "
        "file name when the title has no Latin spelling)",
    )
    p.add_argument(
        "--lang",
        metavar="CODE",
        choices=LANGUAGES,
        help=f"language of every entry ({', '.join(LANGUAGES)}) instead of detecting it",
    )
    p.add_argument(
        "--into",
        metavar="DIR",
        type=Path,
        help="user deck folder (default: $QUIZZER_DECKS, else the platform's user data dir)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="print the alignment report, write nothing"
    )
    p.add_argument(
        "--map",
        metavar="FILE",
        type=Path,
        help='TOML file fixing the alignment: ["file.txt"] then lines like 27 = "concept-id"',
    )
    p.add_argument("--json", action="store_true", help="print the alignment report as JSON")
    p.set_defaults(func=cmd_import)

    p = subparsers.add_parser(
        "validate",
        help="check deck files",
        description="Check deck files (default: the bundled decks and the user deck folder). "
        "Prints one line per file; exits with 2 if any file has a problem.",
    )
    p.add_argument(
        "paths", nargs="*", metavar="PATH", type=Path, help="deck files or folders of them"
    )
    p.set_defaults(func=cmd_validate)


def _console() -> Console:
    # Bengali vowel signs take a cell in terminals; Rich counts some as zero.
    fix_cell_widths()
    return Console(highlight=False, soft_wrap=True)


# -- decks -----------------------------------------------------------------------------------


def deck_summary(item: DeckFile) -> dict[str, Any]:
    """The JSON record `quizzer decks --json` prints for one deck."""
    deck = item.deck
    complete = [
        lang for lang in LANGUAGES if deck.concepts and all(lang in c.entries for c in deck)
    ]
    return {
        "id": deck.id,
        "name": deck.name,
        "bundled": item.bundled,
        "path": str(item.path),
        "concepts": len(deck),
        "languages": list(deck.languages),
        "complete_languages": complete,
        "sources": deck.source_counts(),
    }


def cmd_decks(args: argparse.Namespace) -> int:
    """`quizzer decks`."""
    library = load_library()
    if args.json:
        print_json([deck_summary(item) for item in library])
        return 0
    if not library:
        _console().print(Text("No decks found."))
        return 0
    table = Table(box=None, pad_edge=False)
    # Only the name may wrap: ids, counts and the language list stay whole at 80 columns.
    for column in ("deck", "name", "concepts", "languages", "texts", "where"):
        table.add_column(column, overflow="fold", no_wrap=column != "name")
    for item in library:
        s = item.deck.source_counts()
        table.add_row(
            Text(item.deck.id),
            Text(item.deck.name),
            Text(str(len(item.deck))),
            Text(" ".join(item.deck.languages)),
            Text(f"{s['seed']}/{s['authored']}/{s['corrected']}"),
            Text("bundled" if item.bundled else "user"),
        )
    console = _console()
    console.print(table)
    console.print(
        Text("texts: seed/authored/corrected (from glossaries/written/fixed)", style="dim")
    )
    console.print(Text(f"user decks: {user_decks_dir()}", style="dim"))
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
    if "file" in record:
        label += f" {record['file']}:{record['line']}"
    return label


#: Width of the "  ar definition " label column in `quizzer show`.
_LABEL_CELLS = 16


def _append_lines(out: Text, text: str, style: str, rtl: str, width: int) -> None:
    """Append ``text``; in ``app`` mode right-to-left text is wrapped first, then shaped and
    reordered line by line, continuation lines indented under the label column."""
    if rtl != "app" or not has_rtl(text):
        out.append(text, style=style)
        return
    lines = visual_lines(text, max(width - _LABEL_CELLS, 20), "app")
    for index, line in enumerate(lines):
        if index:
            out.append("\n" + " " * _LABEL_CELLS)
        out.append(line, style=style)


def render_deck(deck: Deck, *, rtl: str = "terminal", width: int = 0) -> Text:
    """The human-readable `quizzer show` output, as one literal :class:`Text`.

    ``rtl`` is ``terminal`` (texts in logical order) or ``app`` (right-to-left texts
    wrapped to ``width`` cells, shaped and in visual order, for terminals without bidi).
    """
    out = Text()
    out.append(deck.name, style="bold")
    out.append(f"  ({deck.id}, {len(deck)} concepts)\n")
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
                record = text.to_dict()
                out.append(f"  {lang} {side:<10} ", style="dim")
                _append_lines(out, text.text, "bold" if side == "term" else "", rtl, width)
                out.append(f"  [{_source_label(record)}]", style="dim")
                out.append("\n")
                if text.source.kind == "corrected":
                    out.append(f"  {'':<13} was: ", style="dim")
                    _append_lines(out, text.source.original or "", "", rtl, width)
                    out.append(f"  ({text.source.reason})\n", style="dim")
    return out


def cmd_show(args: argparse.Namespace) -> int:
    """`quizzer show DECK`."""
    deck = find_deck(args.deck).deck
    if args.json:
        print_json([concept_json(c) for c in deck])
    else:
        console = _console()
        rtl = "terminal"
        if args.rtl == "app" or (args.rtl == "auto" and console.is_terminal):
            rtl = resolve_rtl_mode(args.rtl)
        console.print(render_deck(deck, rtl=rtl, width=console.width), end="")
    return 0


# -- import ----------------------------------------------------------------------------------


def render_report(report: AlignmentReport) -> Table:
    """The alignment report: one row per concept touched, with confidence and evidence."""
    table = Table(box=None, pad_edge=False)
    for column in ("concept", "status", "confidence", "entries (lang:line via method)"):
        table.add_column(column)
    for c in report.concepts:
        parts = [f"{m.entry.lang}:{m.entry.term_line} {m.method}" for m in c.matches]
        confidence = f"{c.confidence:.2f}" + ("  UNSURE" if c.unsure else "")
        if c.likely:
            confidence += f" (likely {' or '.join(c.likely)})"
        table.add_row(
            Text(c.concept_id),
            Text(c.status),
            Text(confidence, style="bold yellow" if c.unsure else ""),
            Text(", ".join(parts)),
        )
    return table


def cmd_import(args: argparse.Namespace) -> int:
    """`quizzer import FILE...`."""
    from quizzer.library.importer import import_glossaries

    result = import_glossaries(
        args.files,
        deck=args.deck,
        lang=args.lang,
        into=args.into,
        dry_run=args.dry_run,
        mapping=args.map,
    )
    report = result.report
    if args.json:
        print_json(
            {
                "deck": result.deck.id,
                "path": str(result.path),
                "concept_count": len(result.deck),
                "changed": result.changed,
                "written": result.written,
                "alignment": report.to_dict(),
            }
        )
        return 0
    console = _console()
    langs: dict[str, set[str]] = {}
    for c in report.concepts:
        for m in c.matches:
            langs.setdefault(m.entry.file, set()).add(m.entry.lang)
    for file, found in langs.items():
        codes = " ".join(lang for lang in LANGUAGES if lang in found)
        console.print(Text(f"{file}: {codes}", style="dim"))
    console.print(render_report(report))
    for note in report.notes:
        console.print(Text(f"note: {note}", style="yellow"))
    unsure = report.unsure
    if unsure:
        example = next((c for c in unsure if c.likely), unsure[0])
        entry = example.matches[-1].entry
        target = example.likely[0] if example.likely else example.concept_id
        console.print(
            Text(
                f"{len(unsure)} concept(s) aligned with confidence below {UNSURE_BELOW}: check "
                "them, and if one is wrong pass --map FILE with lines like\n"
                f'  ["{entry.file}"]\n'
                f'  {entry.term_line} = "{target}"',
                style="yellow",
            )
        )
    counts = (
        f"{report.count('new')} new, {report.count('updated')} updated, "
        f"{report.count('unchanged')} unchanged"
    )
    if args.dry_run:
        verb = "would write" if result.changed else "would leave unchanged"
        console.print(
            Text(f"dry run: {verb} {result.path} ({len(result.deck)} concepts; {counts})")
        )
    elif result.written:
        verb = "created" if result.created else "updated"
        summary = f"{verb} deck {result.deck.id!r}: {result.path}"
        console.print(Text(f"{summary} ({len(result.deck)} concepts; {counts})"))
    else:
        console.print(Text(f"deck {result.deck.id!r} unchanged: {result.path}"))
    return 0


# -- validate --------------------------------------------------------------------------------


def _read_for_validate(path: Path) -> Deck:
    """:func:`read_deck`, but a glossary given by mistake is named as such."""
    try:
        return read_deck(path)
    except InputError:
        if path.suffix.lower() == DECK_SUFFIX:
            raise
        glossary = _as_glossary(path)
        if glossary:
            raise InputError(
                "this looks like a glossary (title, subtitle, term and definition lines), "
                "not a deck file",
                hint=f"import it with `quizzer import {path}`; validate checks deck files (*.toml)",
                path=path,
            ) from None
        raise InputError(
            "not a deck file (deck files are TOML and end in .toml)",
            hint="give a deck file, e.g. one listed by `quizzer decks`",
            path=path,
        ) from None


def _as_glossary(path: Path) -> bool:
    """Whether the file reads as a glossary."""
    try:
        parse(decode(path.read_bytes()))
    except (OSError, GlossaryError):
        return False
    return True


def cmd_validate(args: argparse.Namespace) -> int:
    """`quizzer validate [PATH...]`."""
    targets: list[Path] = []
    if args.paths:
        for path in args.paths:
            if path.is_dir():
                found = deck_files(path)
                if not found:
                    raise InputError(
                        "no deck files (*.toml) in this folder", hint="give deck files", path=path
                    )
                targets.extend(found)
            elif path.exists():
                targets.append(path)
            else:
                raise InputError("no such file or folder", path=path)
    else:
        targets = deck_files(bundled_decks_dir()) + deck_files(user_decks_dir())
    console = _console()
    errors = 0
    ids: dict[str, Path] = {}
    for path in targets:
        try:
            deck = _read_for_validate(path)
            if not deck.concepts:
                # Loadable, but nothing to study: most likely a deck whose concepts were lost.
                raise InputError(
                    "deck has no concepts",
                    hint="add [[concepts]] tables (see `quizzer show training-efficiency`), "
                    "or remove the file",
                    path=path,
                )
            if deck.id in ids:
                raise InputError(
                    f"deck id {deck.id!r} is also used by {ids[deck.id]}",
                    hint="give one of the decks another id",
                    path=path,
                    line=1,
                )
        except InputError as exc:
            errors += 1
            print(f"quizzer: error: {exc}", file=sys.stderr)
            continue
        ids[deck.id] = path
        console.print(Text(f"ok  {path} ({deck.id}: {len(deck)} concepts)"))
    if errors:
        print(f"{errors} of {len(targets)} deck file(s) have problems", file=sys.stderr)
        return 2
    if not targets:
        console.print(Text("no deck files to check"))
    return 0
