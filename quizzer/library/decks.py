"""The deck library: bundled decks plus the user's imported decks, read from disk."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from quizzer.concepts import deck as deckfile
from quizzer.concepts import deckwriter
from quizzer.concepts.concept import Concept, Entry, EntryTable, Provenance, Text
from quizzer.concepts.deck import Deck, DeckFormatError
from quizzer.concepts.languages import CONCEPT_FIELDS, Side, deck_key, tag_of_key
from quizzer.errors import InputError, shown
from quizzer.fsutil import atomic_write_bytes, atomic_write_text, read_regular_file
from quizzer.library import cache as deckcache
from quizzer.library.overrides import overridden
from quizzer.paths import bundled_decks_dir, user_decks_dir

DECK_SUFFIX = ".toml"


@dataclass(frozen=True, slots=True)
class DeckFile:
    """A deck together with the file it came from and whether it ships with quizzer."""

    deck: Deck
    path: Path
    bundled: bool


def read_deck(path: Path) -> Deck:
    """Read and validate one deck file; any problem becomes an :class:`InputError`."""
    path = Path(path)
    return deck_from_bytes(deck_bytes(path), path)


def deck_bytes(path: Path) -> bytes:
    """The bytes of a deck file (a regular file of bounded size), or an :class:`InputError`."""
    try:
        return read_regular_file(path, deckfile.MAX_DECK_BYTES, "deck")
    except OSError as exc:
        raise InputError(f"can't read deck file: {exc.strerror}", path=path) from exc


def deck_from_bytes(raw: bytes, path: Path, *, key: str | None = None) -> Deck:
    """The validated deck of a file's bytes ``raw``; the parse comes from the cache when it
    holds one for these bytes (``key`` is their :func:`~quizzer.library.cache.digest`)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            "deck file is not UTF-8 text", hint="save it as UTF-8", path=path, line=line
        ) from exc
    key = key or deckcache.digest(raw)
    try:
        refused = deckcache.get_refusal(key)
        if refused is not None:
            raise refused
        try:
            return _cached_deck(raw, text, key) or _parsed_deck(raw, text, key)
        except DeckFormatError as exc:
            # Every command reads every deck: a refused file is parsed once, not each time.
            deckcache.put_refusal(key, exc)
            raise
    except DeckFormatError as exc:
        raise exc.to_input_error(
            path,
            hint="fix the field named above (each [[concepts]] table has an id and, per "
            "language, a term and a definition with text and source; "
            "`quizzer show training-efficiency` shows a complete deck), "
            "then run `quizzer validate`",
        ) from exc


def _cached_deck(raw: bytes, text: str, key: str) -> Deck | None:
    """The deck from the cache's tables for ``raw``; ``None`` on a miss or a bad entry.

    A cache entry that doesn't validate (damaged, or planted) says nothing about the deck
    file: it is ignored, and the file parsed and cached again.
    """
    tables = deckcache.get(raw, key=key)
    if tables is None:
        return None
    try:
        return deckfile.from_dict(tables, text)
    except Exception:  # anything wrong with an entry means: parse the file
        return None


#: The provenance of a text that has only a kind (``authored``), shared: it is immutable.
_KIND_ONLY: dict[str, Provenance] = {}


def _valid_text(table: Mapping[str, Any]) -> Text:
    if len(table) == 2:  # text and source: most authored decks' every text
        kind = table["source"]
        source = _KIND_ONLY.get(kind) or _KIND_ONLY.setdefault(kind, Provenance(kind))
        return Text(table["text"], source)
    source = Provenance(
        table["source"],
        table.get("file"),
        table.get("line"),
        table.get("original"),
        table.get("reason"),
    )
    return Text(table["text"], source)


def deck_from_valid_tables(tables: Mapping[str, Any]) -> Deck:
    """The deck of a deck file's parse that has already validated, built without checking
    it again (:func:`~quizzer.concepts.deck.from_dict` checks every field of every text).

    Only for tables known valid: a cached parse whose summary is cached too (see
    :func:`quizzer.library.summary.validated_tables`). Studying a 50,000-concept deck
    builds it in about half the time.
    """
    deck_id = tables["id"]
    concepts = tuple(
        Concept(
            id=item["id"],
            deck=deck_id,
            acronym=item.get("acronym"),
            entries={
                tag_of_key(key): Entry(_valid_text(table["term"]), _valid_text(table["definition"]))
                for key, table in item.items()
                if key not in CONCEPT_FIELDS
            },
        )
        for item in tables["concepts"]
    )
    return Deck(deck_id, tables["name"], concepts, tables.get("description", ""))


class LazyEntries(EntryTable):
    """A concept's entries by language, each built from its validated table when first
    asked for: a session asks for two languages of a deck's every concept (which cards
    it has in a direction) and for all of them only on the cards it shows. A big deck's
    tables come as JSON text (:func:`~quizzer.library.cache.get_lazily`): a language's is
    decoded when first read."""

    __slots__ = ("_built", "_item")

    def __init__(self, item: dict[str, Any]) -> None:
        self._item = item
        self._built: dict[str, Entry] = {}

    def _table(self, lang: str) -> Any:
        key = deck_key(lang)
        if key in CONCEPT_FIELDS:
            return None
        table = self._item.get(key)
        if table is not None and type(table) is not dict:
            # Two threads decoding one table at once decode equal ones: either may stay.
            table = self._item[key] = deckcache.decode_field(table)
        return table

    def __getitem__(self, lang: str) -> Entry:
        entry = self._built.get(lang)
        if entry is None:
            table = self._table(lang)
            if table is None:
                raise KeyError(lang)  # the concept has no text in ``lang``
            entry = Entry(_valid_text(table["term"]), _valid_text(table["definition"]))
            # Two threads building one entry at once build equal ones: either may stay.
            self._built[lang] = entry
        return entry

    def text(self, lang: str, side: Side) -> str | None:
        """The text for ``lang`` and ``side`` straight from the table (no entry built)."""
        entry = self._built.get(lang)
        if entry is not None:
            return entry.side(side).text
        table = self._table(lang)
        return table[side]["text"] if table is not None else None

    def __contains__(self, lang: object) -> bool:
        if not isinstance(lang, str):
            return False
        key = deck_key(lang)
        return key not in CONCEPT_FIELDS and key in self._item

    def __iter__(self) -> Iterator[str]:
        # The deck file's keys are valid and standard (checked when it was read): a key is
        # its language's tag, but for ``ind`` (Indonesian, ``id``).
        return (tag_of_key(key) for key in self._item if key not in CONCEPT_FIELDS)

    def __len__(self) -> int:
        return sum(key not in CONCEPT_FIELDS for key in self._item)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


def lazy_deck_from_valid_tables(tables: Mapping[str, Any]) -> Deck:
    """:func:`deck_from_valid_tables`, each concept's texts built when first read
    (:class:`LazyEntries`): the deck a session or the home screen's counts open. Equal to
    the eager one concept for concept; only for tables known valid, as that one (a big
    deck's as :func:`~quizzer.library.cache.get_lazily` gives them)."""
    deck_id = tables["id"]
    concepts = tuple(
        Concept(id=item["id"], deck=deck_id, acronym=item.get("acronym"), entries=entries)
        for item in tables["concepts"]
        for entries in (LazyEntries(item),)
    )
    return Deck(deck_id, tables["name"], concepts, tables.get("description", ""))


def _parsed_deck(raw: bytes, text: str, key: str) -> Deck:
    """The deck parsed from ``text``, its tables cached once they validate (a deck that is
    refused leaves no tables in the cache, only its refusal)."""
    tables = deckfile.parse(text)
    deck = deckfile.from_dict(tables, text)
    deckcache.put(raw, tables, key=key)
    return deck


def write_deck(deck: Deck, path: Path, *, rendered: str | bytes | None = None) -> None:
    """Write a deck file atomically (temp file, fsync, rename).

    ``rendered`` is the deck's text (or its UTF-8 bytes) when the caller already has it;
    otherwise the fast
    :mod:`quizzer.concepts.deckwriter` renders it (byte for byte what ``deck.dumps`` gives).
    A file-system refusal (missing or read-only folder,
    a file where a folder should be, a full disk) becomes an :class:`InputError`; the
    temp file is removed, so the folder holds the old deck file or none.
    """
    path = Path(path)
    try:
        if isinstance(rendered, bytes):
            atomic_write_bytes(path, rendered)
        else:
            atomic_write_text(path, rendered if rendered is not None else deckwriter.dumps(deck))
    except OSError as exc:
        # Name the folder or file the system refused, never our temp file.
        where = exc.filename2 or exc.filename or path
        if Path(where).name.startswith(f".{path.name}."):
            where = path
        what = exc.strerror or str(exc)
        raise InputError(
            f"can't write the deck file {path.name}: {what}",
            hint="choose a writable --into folder (or $QUIZZER_DECKS), or check its permissions",
            path=where,
        ) from exc


def deck_files(directory: Path) -> list[Path]:
    """The deck files in ``directory``, sorted by name; none if it doesn't exist."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix == DECK_SUFFIX and p.is_file())


def readable_deck(path: Path) -> Deck | None:
    """The deck in ``path``, or ``None`` after a warning on stderr when it can't be read.

    One broken deck file (hand-edited, or written by an older quizzer) must not stop
    every command: the others load, and `quizzer validate` names what is wrong.
    """
    try:
        return read_deck(path)
    except InputError as exc:
        warn_skipped(exc)
        return None


def warn_skipped(exc: InputError) -> None:
    """Say on stderr that a deck file was left out, and why."""
    print(f"quizzer: warning: skipped a deck file it can't read: {exc}", file=sys.stderr)


def clashes(ids: dict[str, Path], deck_id: str, path: Path) -> bool:
    """Whether ``deck_id`` is already taken by another file in ``ids`` (then a warning
    naming both files is printed, and the caller skips ``path``); else note it in ``ids``.

    Bundled decks come first, so a user deck can never shadow one; one clashing file
    must not stop every command, any more than one unreadable file does.
    """
    if deck_id in ids:
        print(
            f"quizzer: warning: skipped {shown(path)}: its deck id {shown(deck_id)!r} is "
            f"already used by {shown(ids[deck_id])}; give the deck in {shown(path.name)} "
            "another id to use it",
            file=sys.stderr,
        )
        return True
    ids[deck_id] = path
    return False


def load_library(user_dir: Path | str | None = None) -> list[DeckFile]:
    """Bundled decks, then user decks; a user deck can't shadow a bundled deck's id."""
    found: list[DeckFile] = []
    ids: dict[str, Path] = {}
    dirs = [(bundled_decks_dir(), True), (user_decks_dir(user_dir), False)]
    for directory, bundled in dirs:
        for path in deck_files(directory):
            deck = readable_deck(path)
            if deck is None:
                continue
            if clashes(ids, deck.id, path):
                continue
            if bundled:  # the learner's edits of its texts, kept beside the user decks
                deck = overridden(deck, user_decks_dir(user_dir))
            found.append(DeckFile(deck=deck, path=path, bundled=bundled))
    return found


class Named(Protocol):
    """Anything with a deck's id and name: a deck, or a listing of one."""

    @property
    def id(self) -> str: ...  # noqa: D102

    @property
    def name(self) -> str: ...  # noqa: D102


NamedT = TypeVar("NamedT", bound=Named)


def match_deck(decks: Sequence[NamedT], name: str) -> NamedT:
    """The deck of ``decks`` whose id or name is ``name`` (case-insensitive).

    :class:`InputError` listing the known decks when none is.
    """
    wanted = name.casefold()
    for deck in decks:
        if wanted in (deck.id.casefold(), deck.name.casefold()):
            return deck
    known = ", ".join(deck.id for deck in decks) or "none"
    raise InputError(f"no deck named {name!r}", hint=f"known decks: {known}")


def find_deck(name: str, user_dir: Path | str | None = None) -> DeckFile:
    """The deck whose id or name matches ``name`` (case-insensitive), or an :class:`InputError`."""
    library = load_library(user_dir)
    deck = match_deck([item.deck for item in library], name)
    return next(item for item in library if item.deck is deck)
