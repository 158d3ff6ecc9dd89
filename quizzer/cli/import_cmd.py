"""`quizzer import` and `validate`: importing glossaries into a user deck, checking deck files.

Texts are data: everything is printed through ``rich.text.Text`` (never markup).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

from quizzer.cli.console import text_console
from quizzer.cli.import_report import (
    FULL_TABLE_MAX,
    check_report_path,
    print_report,
    write_report,
)
from quizzer.cli.output import print_json
from quizzer.cli.subcommands import Subcommands
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import language_name
from quizzer.errors import InputError, shown
from quizzer.glossary.alignment_report import UNSURE_BELOW
from quizzer.library.deck_file_import import import_deck_file
from quizzer.library.decks import DECK_SUFFIX, deck_files, read_deck
from quizzer.library.importer import import_glossaries, reads_as_glossary
from quizzer.library.source_kind import source_kind
from quizzer.paths import bundled_decks_dir, user_decks_dir

if TYPE_CHECKING:
    from rich.console import Console


def register(subparsers: Subcommands) -> None:
    """Add ``import`` and ``validate`` to the CLI."""
    p = subparsers.add_parser(
        "import",
        help="import glossaries, Anki packages, Quizlet exports or CSV/TSV into a user deck",
        description="Import glossaries (line 1 title, line 2 subtitle, then term and "
        "definition lines) into ONE user deck. Several files in different languages are "
        "aligned into the same concepts: by acronym, and by position when the files are "
        "parallel. Importing again is idempotent; an edited file updates texts and keeps ids. "
        "An Anki package (.apkg, .colpkg), a Quizlet export or a CSV/TSV table (plain, with "
        "Anki's #header lines, or with a header row naming languages) is told by its content "
        "(a file named .apkg, .colpkg, .csv or .tsv by its name) and gives one concept per "
        "note or row; the report says which format it read.",
    )
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help="glossary text files, or one Anki package, Quizlet export or table",
    )
    p.add_argument(
        "--deck",
        metavar="NAME",
        help="deck to create or merge into (default: the first glossary's title line, or its "
        "file name when the title has no Latin spelling; for a package or table, the deck it "
        "names (the Anki deck a package's notes are in, Anki's #deck: line, quizzer's own "
        "notes) or its file name; a package imported before goes to the deck holding its "
        "notes)",
    )
    p.add_argument(
        "--lang",
        metavar="TAG",
        help="the language of every entry, as a BCP 47 tag (es, pt-BR, zh-Hans, fa…), "
        "instead of detecting it",
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
    p.add_argument(
        "--columns",
        metavar="SPEC",
        help="for a table or an Anki package: what each column (or note field, in order) "
        "holds, e.g. es:term,en:term (LANG:term or LANG:definition; - leaves one out)",
    )
    p.add_argument(
        "--separator",
        metavar="TEXT",
        help="for a Quizlet export or table: the string between term and definition "
        "(default: found from the file: tab, comma, semicolon, or Anki's #separator line)",
    )
    p.add_argument(
        "--report",
        metavar="FILE",
        type=Path,
        help="write the full alignment table (one row per concept) to FILE; without it a "
        f"report of over {FULL_TABLE_MAX} concepts prints counts and the unsure rows",
    )
    p.add_argument(
        "--verbose", action="store_true", help="print the full alignment table at any size"
    )
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


# -- import ----------------------------------------------------------------------------------


def cmd_import(args: argparse.Namespace) -> int:
    """`quizzer import FILE...`."""
    if any(path.suffix.lower() == DECK_SUFFIX for path in args.files):
        return _import_deck_file(args)
    if args.separator is not None or args.columns is not None or _has_deck_source(args.files):
        return _import_deck_source(args)
    if args.report is not None:
        check_report_path(args.report)
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
                **_outcome_fields(result),
                "languages": {
                    source.file: [
                        {
                            "lang": found.lang,
                            "entries": found.entries,
                            "confidence": round(found.confidence, 2),
                        }
                        for found in source.languages
                    ]
                    for source in result.files
                },
                "language_notes": [
                    {"file": source.file, "line": line, "note": note}
                    for source in result.files
                    for line, note in source.language_notes
                ],
                "alignment": report.to_dict(),
            }
        )
        if args.report is not None:
            write_report(report, args.report)
        return 0
    console = text_console()
    for source in result.files:
        found = ", ".join(
            f"{lang.lang} ({language_name(lang.lang)}, {lang.entries} entries, "
            f"{lang.confidence:.0%} sure)"
            for lang in source.languages
        )
        console.print(Text(f"{shown(source.file)}: {found}", style="dim"))
        for line, note in source.language_notes:
            console.print(Text(f"  {shown(source.file)}:{line}: {shown(note)}", style="yellow"))
    print_report(console, report, verbose=args.verbose, report_file=args.report)
    for note in report.notes:
        console.print(Text(f"note: {shown(note)}", style="yellow"))
    unsure = report.unsure
    if unsure:
        example = next((c for c in unsure if c.likely), unsure[0])
        entry = example.matches[-1].entry
        target = example.likely[0] if example.likely else example.concept_id
        console.print(
            Text(
                f"{len(unsure)} concept(s) aligned with confidence below {UNSURE_BELOW}: check "
                "them, and if one is wrong pass --map FILE with lines like\n"
                f'  ["{shown(entry.file)}"]\n'
                f'  {entry.term_line} = "{target}"',
                style="yellow",
            )
        )
    counts = (
        f"{report.count('new')} new, {report.count('updated')} updated, "
        f"{report.count('unchanged')} unchanged"
    )
    _print_outcome(console, result, counts, dry_run=args.dry_run)
    return 0


class _Outcome(Protocol):
    """What an import of glossaries or of a deck source did, as its last lines tell it."""

    @property
    def deck(self) -> Deck: ...
    @property
    def path(self) -> Path: ...
    @property
    def created(self) -> bool: ...
    @property
    def changed(self) -> bool: ...
    @property
    def written(self) -> bool: ...
    @property
    def new_folder(self) -> bool: ...


def _outcome_fields(result: _Outcome) -> dict[str, object]:
    """The deck written (or not) and where, as ``--json`` gives it."""
    return {
        "deck": result.deck.id,
        "path": str(result.path),
        "concept_count": len(result.deck),
        "changed": result.changed,
        "written": result.written,
        "created_folder": str(result.path.parent) if result.new_folder and result.written else None,
    }


def _concepts(count: int) -> str:
    return f"{count} concept" if count == 1 else f"{count} concepts"


def _print_outcome(console: Console, result: _Outcome, counts: str, *, dry_run: bool) -> None:
    """The folder made (if any) and the deck written, left unchanged, or (dry) what would be."""
    if result.new_folder:
        # The folder the user named is made (as asked), but never without a word.
        verb = "created" if result.written else "would create"
        console.print(Text(f"{verb} folder {shown(result.path.parent)}"))
    if dry_run:
        verb = "would write" if result.changed else "would leave unchanged"
        console.print(
            Text(f"dry run: {verb} {shown(result.path)} ({_concepts(len(result.deck))}; {counts})")
        )
    elif result.written:
        verb = "created" if result.created else "updated"
        summary = f"{verb} deck {result.deck.id!r}: {shown(result.path)}"
        console.print(Text(f"{summary} ({_concepts(len(result.deck))}; {counts})"))
    else:
        console.print(Text(f"deck {result.deck.id!r} unchanged: {shown(result.path)} ({counts})"))


def _import_deck_file(args: argparse.Namespace) -> int:
    """`quizzer import DECK.toml`: a quizzer deck file added to the user decks folder."""
    path, *others = args.files
    if others or path.suffix.lower() != DECK_SUFFIX:
        raise InputError(
            "a deck file (.toml) is imported on its own",
            hint="run `quizzer import` once for the deck file, once for the other files",
        )
    given = [
        flag
        for flag, value in (
            ("--deck", args.deck),
            ("--lang", args.lang),
            ("--columns", args.columns),
            ("--separator", args.separator),
            ("--map", args.map),
            ("--report", args.report),
        )
        if value is not None
    ]
    if given:
        raise InputError(
            f"{', '.join(given)} can't apply to a deck file: it keeps its own id, languages "
            "and concepts",
            hint=f"run `quizzer import {path}` without {', '.join(given)}",
            path=path,
        )
    result = import_deck_file(path, into=args.into, dry_run=args.dry_run)
    if args.json:
        print_json(
            {
                **_outcome_fields(result),
                "concepts": {
                    "new": result.report.new,
                    "updated": result.report.updated,
                    "unchanged": result.report.unchanged,
                    "removed": result.report.removed,
                },
            }
        )
        return 0
    console = text_console()
    console.print(Text(f"{shown(path)}: a quizzer deck file", style="dim"))
    _print_outcome(console, result, str(result.report), dry_run=args.dry_run)
    return 0


def _has_deck_source(files: list[Path]) -> bool:
    """Whether any file is an Anki package or a table rather than a glossary."""
    return any(source_kind(path) != "glossary" for path in files)


def _import_deck_source(args: argparse.Namespace) -> int:
    """`quizzer import FILE` of an Anki package, a Quizlet export or a CSV/TSV table."""
    # Imported here: the Anki reader it brings costs every glossary import ~0.1 s otherwise.
    from quizzer.services.deck_import import import_deck_source

    if len(args.files) != 1:
        raise InputError(
            "an Anki package, a Quizlet export or a table is imported on its own",
            hint="import it in a command of its own: quizzer import FILE",
        )
    if args.map is not None:
        raise InputError(
            "--map fixes the alignment of glossaries; a table or an Anki package gives one "
            "concept per row or note",
            hint="leave --map out (--columns says what each column holds)",
        )
    result = import_deck_source(
        args.files[0],
        deck=args.deck,
        columns=args.columns,
        separator=args.separator,
        lang=args.lang,
        into=args.into,
        dry_run=args.dry_run,
    )
    report = result.report
    if args.json:
        print_json(
            {
                "deck": result.deck.id,
                "path": str(result.path),
                "format": result.format,
                "columns": result.columns,
                "concept_count": len(result.deck),
                "new": report.new,
                "updated": report.updated,
                "unchanged": report.unchanged,
                "changed": result.changed,
                "written": result.written,
            }
        )
        return 0
    console = text_console()
    console.print(Text(f"{shown(args.files[0])}: read as {result.format}"))
    for line in result.columns:
        console.print(Text(f"  {line}", style="dim"))
    counts = f"{report.new} new, {report.updated} updated, {report.unchanged} unchanged"
    _print_outcome(console, result, counts, dry_run=args.dry_run)
    return 0


# -- validate --------------------------------------------------------------------------------


def _read_for_validate(path: Path) -> Deck:
    """:func:`read_deck`, but a glossary given by mistake is named as such."""
    try:
        return read_deck(path)
    except InputError:
        if path.suffix.lower() == DECK_SUFFIX or not path.is_file():
            raise
        glossary = reads_as_glossary(path)
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
    console = text_console()
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
        console.print(Text(f"ok  {shown(path)} ({deck.id}: {len(deck)} concepts)"))
    if errors:
        print(f"{errors} of {len(targets)} deck file(s) have problems", file=sys.stderr)
        return 2
    if not targets:
        console.print(Text("no deck files to check"))
    return 0
