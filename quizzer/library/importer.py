"""Importing glossary files into a user deck: read, decode, tag, align, write atomically.

The pure work lives in :mod:`quizzer.glossary.parse`, :mod:`quizzer.glossary.language_id`
and :mod:`quizzer.glossary.align`; this adapter reads files, shows a progress bar for
large ones, turns every problem into an :class:`~quizzer.errors.InputError`
(file, line, what to do) *before* anything is written, and writes the deck file
with :func:`quizzer.library.decks.write_deck` (temp file + rename).
"""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from quizzer.concepts import tables_json
from quizzer.concepts.concept import SLUG_RE
from quizzer.concepts.deck import Deck, DeckFormatError, check_name
from quizzer.concepts.languages import LanguageTagError, check_language
from quizzer.concepts.textrules import describe, forbidden_char
from quizzer.errors import InputError, SourceError
from quizzer.fsutil import read_regular_file, remove_stale_temps
from quizzer.glossary.align import align
from quizzer.glossary.alignment_report import AlignmentReport
from quizzer.glossary.entries import AlignError, SourceEntry, SourceFile
from quizzer.glossary.language_id import LanguageIdError, tag_file
from quizzer.glossary.mapping import MappingError, mapping_lines
from quizzer.glossary.mapping import parse_mapping as _parse_mapping
from quizzer.glossary.parse import MAX_GLOSSARY_BYTES, GlossaryError, decode, parse
from quizzer.glossary.slug import fully_transliterable, slugify
from quizzer.library import cache as deckcache
from quizzer.library.deck_lock import deck_lock
from quizzer.library.decks import DECK_SUFFIX, deck_files, write_deck
from quizzer.library.merge_target import find_target, merge, remember_rendered
from quizzer.library.summary import read_summary, remember_summary
from quizzer.paths import bundled_decks_dir, user_decks_dir

R = TypeVar("R")

#: Files at least this big get a progress bar (when stderr is a terminal).
PROGRESS_MIN_BYTES = 256 * 1024

#: Longest deck id: its file name, and the temp file's (``.ID.toml.XXXXXXXX.tmp``), must
#: stay under the 255 bytes file systems allow in a name.
MAX_DECK_ID = 200


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import did (or, with ``dry_run``, would do)."""

    deck: Deck
    path: Path
    report: AlignmentReport
    created: bool  # the deck file did not exist before
    changed: bool  # the deck file's bytes differ from before (or it is new)
    written: bool  # the file was written (False for a dry run or no change)
    #: The deck folder did not exist: writing created it (a dry run would have).
    new_folder: bool = False
    #: Each file read, with its languages (count and confidence) and notes on entries whose
    #: language couldn't be told, in the order given.
    files: tuple[SourceFile, ...] = ()


def read_source_file(path: Path, what: str) -> bytes:
    """The bytes of a file given to ``quizzer import`` (``what``: glossary, table), read
    with the glossaries' size limit; a file that can't be read is an :class:`InputError`."""
    try:
        return read_regular_file(path, MAX_GLOSSARY_BYTES, what)
    except OSError as exc:
        raise InputError(
            f"can't read the file: {exc.strerror}",
            hint="check the path, and that you may read the file",
            path=path,
        ) from exc


def reads_as_glossary(path: Path) -> bool:
    """Whether the file at ``path`` reads as a glossary (title, subtitle, term and
    definition lines): for commands given one by mistake to say so."""
    try:
        parse(decode(read_regular_file(path, MAX_GLOSSARY_BYTES, "glossary")))
    except (OSError, InputError, SourceError):
        return False
    return True


def read_glossary(
    path: Path, *, lang: str | None = None, show_progress: bool = False
) -> SourceFile:
    """Read, decode, parse and language-tag one glossary file."""
    path = Path(path)
    data = read_source_file(path, "glossary")
    text: str | None = None
    try:
        text = decode(data)
        with _progress(path.name, len(data), show_progress) as (reading, tagging):
            glossary = parse(text, progress=reading)
            tags = tag_file(
                [(e.term, e.definition, e.term_line) for e in glossary.entries],
                forced=lang,
                progress=tagging,
            )
    except GlossaryError as exc:
        listed = listed_by(text) if text is not None else None
        hint = None
        if listed is not None:
            hint = (
                f"is it a list of terms and definitions separated by {listed!r}? then say so: "
                f"quizzer import {shlex.quote(str(path))} --separator {shlex.quote(listed)}"
            )
        raise exc.to_input_error(path, hint=hint) from exc
    except LanguageIdError as exc:
        raise exc.to_input_error(path) from exc
    name = path.name  # a property that splits the path: once, not per entry
    entries = tuple(
        SourceEntry(name, e.index, code, e.term, e.definition, e.term_line, e.definition_line)
        for e, code in zip(glossary.entries, tags.langs, strict=True)
    )
    return SourceFile(name, glossary.title, entries, tags.languages(), tags.notes)


#: Separators of term/definition lists that no table reading finds by itself (it finds tabs,
#: commas and semicolons), in the order tried.
_LIST_SEPARATORS = (" - ", " – ", " — ", " = ", " : ", " | ", "|", ":")


def listed_by(text: str) -> str | None:
    """The separator every non-blank line of ``text`` (two at least) holds, of those a
    term/definition list is often written with (``perro - dog``), or ``None``. A text of
    one line is read by its rows separated by semicolons, as Quizlet can write them."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        lines = [row for row in lines[0].split(";") if row.strip()]
    if len(lines) < 2:
        return None
    return next((sep for sep in _LIST_SEPARATORS if all(sep in line for line in lines)), None)


Tick = Callable[[int, int], None]


@contextmanager
def _progress(name: str, size: int, enabled: bool) -> Iterator[tuple[Tick | None, Tick | None]]:
    """Rich progress bars fed by the parser's and the tagger's ``progress(done, total)``."""
    if not enabled or size < PROGRESS_MIN_BYTES:
        yield None, None
        return
    with Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        reading = bar.add_task(f"{name}: reading lines", total=None)
        tagging = bar.add_task(f"{name}: telling languages", total=None)

        def tick_reading(done: int, total: int) -> None:
            bar.update(reading, completed=done, total=total)

        def tick_tagging(done: int, total: int) -> None:
            bar.update(tagging, completed=done, total=total)

        yield tick_reading, tick_tagging


@contextmanager
def _status(message: str, enabled: bool) -> Iterator[None]:
    """A spinner on stderr while a long step runs."""
    if not enabled:
        yield
        return
    with Console(stderr=True).status(message):
        yield


def _read_mapping(path: Path) -> tuple[dict[tuple[str, int], str], dict[tuple[str, str], int]]:
    """The mapping file's entries, and the line of each (for errors naming an entry)."""
    try:
        text = read_regular_file(path, MAX_GLOSSARY_BYTES, "mapping").decode("utf-8-sig")
    except OSError as exc:
        raise InputError(f"can't read mapping file: {exc.strerror}", path=path) from exc
    except UnicodeDecodeError as exc:
        raise InputError("mapping file is not UTF-8 text", path=path) from exc
    try:
        return _parse_mapping(text, ""), mapping_lines(text)
    except AlignError as exc:
        raise exc.to_input_error(path) from exc


def _deck_identity(deck_name: str | None, first: SourceFile, first_path: Path) -> tuple[str, str]:
    if deck_name:
        deck_id = deck_name if SLUG_RE.match(deck_name) else slugify(deck_name)
        if not deck_id:
            raise InputError(
                f"can't make a deck id from {deck_name!r}",
                hint="give --deck a name with some Latin letters or digits, e.g. --deck my-terms",
            )
        return deck_id, deck_name
    # The first file's title names the deck ("Глоссарий ИИ" → glossariy-ii) when it can be
    # spelt in Latin letters; otherwise the file name does.
    title_id = slugify(first.title) if fully_transliterable(first.title) else ""
    deck_id = title_id or slugify(first_path.stem) or "glossary"
    return deck_id, first.title


def check_lang_option(lang: str) -> str:
    """``--lang``'s tag in its standard form, or an :class:`InputError` naming the option
    (with the tag meant when ``lang`` is a language's name: ``farsi`` → ``fa``)."""
    try:
        return check_language(lang)
    except LanguageTagError as exc:
        raise InputError(f"--lang: {exc.problem}", hint=exc.hint) from None


def check_names(deck_name: str | None, files: Sequence[Path]) -> None:
    """Refuse a ``--deck`` name or a glossary file name the deck loader would refuse,
    before anything is written: a deck file holding one would stop every later command."""
    if deck_name is not None:
        try:
            check_name(deck_name)
        except DeckFormatError as exc:
            raise InputError(
                f"--deck {deck_name!r}: {exc.message}",
                hint="give --deck a plain one-line name, e.g. --deck my-terms",
            ) from exc
    for path in files:
        bad = forbidden_char(path.name)
        if bad is not None:
            raise InputError(
                f"the file name contains {describe(bad)}",
                hint="rename the file: its name is recorded as the source of its texts",
                path=path,
            )


def _check_deck_id(deck_id: str) -> None:
    """Refuse an id too long for a file name (the file system would, with a vaguer message)."""
    if len(deck_id) > MAX_DECK_ID:
        raise InputError(
            f"the deck name is too long: its id would be {len(deck_id)} characters "
            f"(at most {MAX_DECK_ID}), too long for a file name",
            hint="give a shorter name with --deck, e.g. --deck my-terms",
        )


def import_glossaries(
    paths: Sequence[Path | str],
    *,
    deck: str | None = None,
    lang: str | None = None,
    into: Path | str | None = None,
    dry_run: bool = False,
    mapping: Path | str | None = None,
    show_progress: bool | None = None,
) -> ImportResult:
    """Import glossary files into one user deck (created, or merged into when it exists).

    Everything is read and checked first; the deck file is written only when all
    is well and its content changed. Raises :class:`InputError` for any bad input.
    """
    return _import(
        paths,
        deck=deck,
        lang=lang,
        into=into,
        dry_run=dry_run,
        mapping=mapping,
        show_progress=show_progress,
    )


def _import(
    paths: Sequence[Path | str],
    *,
    deck: str | None,
    lang: str | None,
    into: Path | str | None,
    dry_run: bool,
    mapping: Path | str | None,
    show_progress: bool | None,
) -> ImportResult:
    if not paths:
        raise InputError("no glossary files given", hint="quizzer import FILE...")
    if lang is not None:
        lang = check_lang_option(lang)
    if show_progress is None:
        show_progress = sys.stderr.isatty()
    files = [Path(p) for p in paths]
    seen: dict[str, Path] = {}
    for path in files:
        if path.name in seen:
            raise InputError(
                f"two glossaries named {path.name!r} (also {seen[path.name]})",
                hint="each file name is recorded as the source of its texts; rename one",
                path=path,
            )
        seen[path.name] = path
    check_names(deck, files)
    sources = [read_glossary(p, lang=lang, show_progress=show_progress) for p in files]
    overrides, mapping_at = _read_mapping(Path(mapping)) if mapping is not None else ({}, {})

    deck_id, deck_name = _deck_identity(deck, sources[0], files[0])
    check_deck_id(deck_id)

    def align_into(into: Deck | None) -> tuple[Deck, AlignmentReport]:
        return _align(
            sources,
            deck_id=deck_id,
            deck_name=into.name if into else deck_name,
            existing=into,
            overrides=overrides,
            mapping=Path(mapping) if mapping is not None else None,
            mapping_at=mapping_at,
            seen=seen,
            show_progress=show_progress,
        )

    written = write_built_deck(align_into, deck_id=deck_id, into=into, dry_run=dry_run)
    return ImportResult(
        deck=written.deck,
        path=written.path,
        report=written.report,
        created=written.created,
        changed=written.changed,
        written=written.written,
        new_folder=written.new_folder,
        # (without their entries: the deck holds the texts now)
        files=tuple(replace(source, entries=()) for source in sources),
    )


def _align(
    sources: Sequence[SourceFile],
    *,
    deck_id: str,
    deck_name: str,
    existing: Deck | None,
    overrides: dict[tuple[str, int], str],
    mapping: Path | None,
    mapping_at: dict[tuple[str, str], int],
    seen: dict[str, Path],
    show_progress: bool,
) -> tuple[Deck, AlignmentReport]:
    """Align ``sources`` into ``existing`` (or a new deck); alignment errors become
    :class:`InputError`s naming the glossary file, or the mapping file and its line."""
    entries = sum(len(source.entries) for source in sources)
    try:
        with _status(f"aligning {entries:,} entries", show_progress and entries >= 5_000):
            result, report = align(
                sources,
                deck_id=deck_id,
                deck_name=deck_name,
                existing=existing,
                mapping=overrides,
            )
    except MappingError as exc:
        # An entry of the mapping file that matches nothing: point at its line there.
        file, line = exc.key if exc.key else ("", 0)
        raise InputError(
            exc.message,
            hint=exc.hint,
            path=mapping,
            line=mapping_at.get((file, str(line))),
        ) from exc
    except AlignError as exc:
        raise exc.to_input_error(seen.get(exc.file or "") or mapping) from exc
    if existing is not None:
        result = Deck(
            id=result.id,
            name=result.name,
            concepts=result.concepts,
            description=existing.description,
        )
    return result, report


def _remember_tables(deck: Deck, key: str) -> None:
    """Put the tables of the deck just written (whose bytes' digest is ``key``) in the cache.

    The next load then skips parsing the file: tomllib takes ~6 s for 50,000 concepts,
    the cached JSON ~0.2 s. The tables are the deck's own (``to_dict`` is what the file
    parses to, and :mod:`~quizzer.concepts.tables_json` writes exactly its JSON; tests
    hold both), and the file remains the copy that counts: a lost cache is rebuilt from it.
    """
    deckcache.put_tables_json(key, tables_json.dumps(deck))


@dataclass(frozen=True, slots=True)
class Written(Generic[R]):
    """What writing an import's deck did (or, dry, would do), with the builder's report."""

    deck: Deck
    path: Path
    report: R
    created: bool
    changed: bool
    written: bool
    new_folder: bool


def check_deck_id(deck_id: str) -> None:
    """Refuse a deck id too long for a file name, or a bundled deck's id."""
    _check_deck_id(deck_id)
    bundled = {read_summary(p, bundled=True).id: p for p in deck_files(bundled_decks_dir())}
    if deck_id in bundled:
        raise InputError(
            f"deck id {deck_id!r} belongs to a bundled deck ({bundled[deck_id].name})",
            hint="choose another name with --deck",
        )


def write_built_deck(
    build: Callable[[Deck | None], tuple[Deck, R]],
    *,
    deck_id: str,
    into: Path | str | None,
    dry_run: bool,
) -> Written[R]:
    """Build the deck ``deck_id`` with ``build(existing deck or None)`` and write it to the
    user deck folder when it changed (temp file + rename, under the deck's lock); nothing
    is written for a dry run. Glossaries, Anki packages and tables are all written so."""
    _check_deck_id(deck_id)
    directory = user_decks_dir(into)
    if directory.exists() and not directory.is_dir():
        raise InputError("is not a directory", hint="give --into a folder", path=directory)
    new_folder = not directory.exists()
    # A dry run writes nothing, so it needs no lock; an import holds its deck's from reading
    # the deck to writing it.
    guard = contextlib.nullcontext() if dry_run else deck_lock(directory, deck_id)
    with guard:
        try:
            target, existing = find_target(deck_id, directory)
        except OSError as exc:
            raise InputError(
                f"can't read the deck folder: {exc.strerror or exc}",
                hint="choose a readable, writable --into folder, or check its permissions",
                path=exc.filename if exc.filename is not None else directory,
            ) from exc
        merged = merge(existing, build)
        deck, report, text, changed = merged.deck, merged.report, merged.text, merged.changed
        del merged
        written = changed and not dry_run
        if not dry_run:  # a killed import's temp file goes even when nothing is written now
            remove_stale_temps(directory, DECK_SUFFIX)
        if written:
            assert text is not None  # a changed deck comes with its text
            # The next load (a re-import, `quizzer decks`, the home screen) finds the deck in
            # the cache. 50,000 concepts are ~60 MB of text, bytes, tables and JSON: each
            # copy goes once used, so they are never all held at once (and the text is
            # encoded once, for the file and its digest).
            raw = text.encode("utf-8")
            del text
            write_deck(deck, target, rendered=raw)
            key = deckcache.digest(raw)
            remember_summary(deck, raw, target, key=key)
            del raw
            _remember_tables(deck, key)
            remember_rendered(key, deck)
    return Written(
        deck=deck,
        path=target,
        report=report,
        created=existing is None,
        changed=changed,
        written=written,
        new_folder=new_folder,
    )
