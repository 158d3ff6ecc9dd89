"""Concept records: a concept, its term and definition per language, and their sources.

A :class:`Concept` is the unit everything else hangs off: quiz cards, progress
and Anki notes all derive their identity from :attr:`Concept.uid`
(``"<deck>/<concept>"``), so editing texts never loses progress.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from quizzer.concepts.languages import (
    CONCEPT_FIELDS,
    SIDES,
    LanguageTagError,
    Side,
    check_language,
    deck_key,
)
from quizzer.concepts.textrules import MAX_TEXT_CHARS, describe, forbidden_char
from quizzer.errors import SourceError

SourceKind = Literal["seed", "authored", "corrected"]
SOURCE_KINDS: tuple[SourceKind, ...] = ("seed", "authored", "corrected")

#: A concept or deck id: lower-case ASCII words joined by single hyphens.
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class RecordError(SourceError):
    """A concept record is malformed; ``field`` is a dotted path to the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, field=field)
        self.args = (f"{field}: {message}",)


def check_plain(value: object, where: str) -> None:
    """Raise :class:`RecordError` if a string holds a control or bidi override character.

    Such characters would reach terminals and Anki raw (``ESC[31m`` recolours a
    terminal; U+202E reverses what follows), and no glossary line may hold them.
    """
    if isinstance(value, str):
        bad = forbidden_char(value)
        if bad is not None:
            raise RecordError(where, f"contains {describe(bad)}; texts are plain single-line text")


def check_length(value: object, where: str) -> None:
    """Raise :class:`RecordError` if a string is longer than a text may be."""
    if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
        raise RecordError(
            where,
            f"is {len(value):,} characters long (a text holds at most {MAX_TEXT_CHARS:,}); "
            "shorten it, or split it into several concepts",
        )


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a text came from.

    ``seed``: copied from a glossary (``file`` and 1-based ``line``).
    ``authored``: written by the quizzer team.
    ``corrected``: a text fixed (by the quizzer team, or by the learner in the card browser);
    ``original`` keeps the text before, ``reason`` says why, and ``file`` and ``line`` name
    the glossary line when the original came from one.
    """

    kind: SourceKind
    file: str | None = None
    line: int | None = None
    original: str | None = None
    reason: str | None = None

    def validate(self, where: str) -> None:
        """Raise :class:`RecordError` if the fields don't fit ``kind``."""
        if self.kind not in SOURCE_KINDS:
            raise RecordError(f"{where}.source", f"must be one of {', '.join(SOURCE_KINDS)}")
        for key, value in (
            ("file", self.file),
            ("original", self.original),
            ("reason", self.reason),
        ):
            if value is not None:
                if not isinstance(value, str):
                    raise RecordError(f"{where}.{key}", "must be a string")
                check_length(value, f"{where}.{key}")
                check_plain(value, f"{where}.{key}")
        if self.kind == "seed" or (self.kind == "corrected" and self.line is not None):
            if not self.file:
                raise RecordError(f"{where}.file", f"a {self.kind} text needs the glossary file")
            if not isinstance(self.line, int) or isinstance(self.line, bool) or self.line < 1:
                raise RecordError(f"{where}.line", "must be a line number (1 or more)")
        if self.kind == "corrected":
            if not self.original:
                raise RecordError(f"{where}.original", "a corrected text keeps the seed original")
            if not self.reason:
                raise RecordError(f"{where}.reason", "a corrected text says why it was corrected")


_TEXT_FIELDS = frozenset({"text", "source", "file", "line", "original", "reason"})


@dataclass(frozen=True, slots=True)
class Text:
    """One term or definition in one language, with its provenance."""

    text: str
    source: Provenance

    def to_dict(self) -> dict[str, Any]:
        """Serialise in the deck file's key order."""
        src = self.source
        out: dict[str, Any] = {"text": self.text, "source": src.kind}
        # The fields one by one, not a getattr loop: 100,000 texts of a big import.
        if src.file is not None:
            out["file"] = src.file
        if src.line is not None:
            out["line"] = src.line
        if src.original is not None:
            out["original"] = src.original
        if src.reason is not None:
            out["reason"] = src.reason
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str) -> Text:
        """Build and validate from a deck-file table; errors name ``where``."""
        # (type() first: the ABC check of isinstance is slow, and 100,000 texts load.)
        if type(data) is not dict and not isinstance(data, Mapping):
            raise RecordError(where, "must be a table with text and source")
        if not _TEXT_FIELDS.issuperset(data):
            unknown = set(data) - _TEXT_FIELDS
            raise RecordError(f"{where}.{sorted(unknown)[0]}", "unknown field")
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise RecordError(f"{where}.text", "missing or empty")
        check_length(text, f"{where}.text")
        check_plain(text, f"{where}.text")
        kind = data.get("source")
        if kind is None:
            raise RecordError(f"{where}.source", "missing (seed, authored or corrected)")
        prov = Provenance(
            kind=kind,
            file=data.get("file"),
            line=data.get("line"),
            original=data.get("original"),
            reason=data.get("reason"),
        )
        prov.validate(where)
        return cls(text=text, source=prov)


@dataclass(frozen=True, slots=True)
class Entry:
    """A concept in one language: its term and its definition."""

    term: Text
    definition: Text

    def side(self, side: Side) -> Text:
        """The term or the definition."""
        return self.term if side == "term" else self.definition


class EntryTable(Mapping[str, Entry]):
    """Entries by language that can give one text without building its :class:`Entry`
    (a deck's concepts opened from their validated tables, see
    :class:`quizzer.library.decks.LazyEntries`)."""

    __slots__ = ()

    def text(self, lang: str, side: Side) -> str | None:
        """The text for ``lang`` and ``side``, or ``None`` when the concept lacks it."""
        entry = self.get(lang)
        return entry.side(side).text if entry else None


@dataclass(frozen=True, slots=True)
class Concept:
    """One concept with its texts per language (BCP 47 tag → :class:`Entry`, in the order
    the deck file or the import gives them)."""

    id: str
    deck: str
    acronym: str | None = None
    entries: Mapping[str, Entry] = field(default_factory=dict)

    @property
    def uid(self) -> str:
        """Namespaced, stable identity: ``"<deck>/<id>"``."""
        return f"{self.deck}/{self.id}"

    @property
    def languages(self) -> tuple[str, ...]:
        """Languages this concept has, in the order of its entries."""
        return tuple(self.entries)

    @property
    def label(self) -> str:
        """A short name for lists and tables: the acronym, else a term, else the id.

        The English term when there is one (the decks' common language), else the term
        of the first language the concept has, so a Russian-only deck
        lists «Адаптеры», not ``adaptery``.
        """
        if self.acronym:
            return self.acronym
        for lang in ("en", *self.languages):
            term = self.text(lang, "term")
            if term:
                return term
        return self.id

    def text(self, lang: str, side: Side) -> str | None:
        """The text for ``lang`` and ``side``, or ``None`` when the concept lacks it."""
        entries = self.entries
        if type(entries) is not dict and isinstance(entries, EntryTable):
            return entries.text(lang, side)
        entry = entries.get(lang)
        return entry.side(side).text if entry else None

    def texts(self) -> Iterator[tuple[str, Side, Text]]:
        """Every (language, side, text) the concept holds, in the order of its entries."""
        for lang in self.languages:
            for side in SIDES:
                yield lang, side, self.entries[lang].side(side)

    def with_entry(self, lang: str, entry: Entry) -> Concept:
        """A copy with ``lang``'s entry replaced in place, or added after the others."""
        entries = dict(self.entries)
        entries[lang] = entry
        return replace(self, entries=entries)

    def to_dict(self) -> dict[str, Any]:
        """Serialise in the deck file's layout (the deck id is implied by the file)."""
        out: dict[str, Any] = {"id": self.id}
        if self.acronym:
            out["acronym"] = self.acronym
        for lang in self.languages:
            entry = self.entries[lang]
            out[deck_key(lang)] = {
                "term": entry.term.to_dict(),
                "definition": entry.definition.to_dict(),
            }
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], deck: str) -> Concept:
        """Build and validate one concept table of a deck file.

        Raises :class:`RecordError` whose ``field`` names the concept and field.
        """
        cid = data.get("id")
        if not isinstance(cid, str) or not SLUG_RE.match(cid):
            raise RecordError("id", "missing, or not a slug like 'lora' (a-z, 0-9, hyphens)")
        acronym = data.get("acronym")
        if acronym is not None and (not isinstance(acronym, str) or not acronym.strip()):
            raise RecordError(f"{cid}.acronym", "must be a non-empty string")
        check_plain(acronym, f"{cid}.acronym")
        entries: dict[str, Entry] = {}
        for key in data:
            if key in CONCEPT_FIELDS:
                continue
            lang = _language_of_key(cid, key)
            if lang in entries:
                raise RecordError(f"{cid}.{key}", f"a second table for {lang}")
            table = data[key]
            key_path = f"{cid}.{key}"
            if type(table) is not dict and not isinstance(table, Mapping):
                raise RecordError(key_path, "must be a table with term and definition")
            for side in SIDES:
                if side not in table:
                    raise RecordError(f"{key_path}.{side}", "missing")
            if len(table) != len(SIDES):  # both sides are there: anything more is extra
                extra = set(table) - set(SIDES)
                raise RecordError(f"{key_path}.{sorted(extra)[0]}", "unknown field")
            entries[lang] = Entry(
                term=Text.from_dict(table["term"], f"{key_path}.term"),
                definition=Text.from_dict(table["definition"], f"{key_path}.definition"),
            )
        if not entries:
            raise RecordError(cid, "has no language table (such as en, es or pt-BR)")
        return cls(id=cid, deck=deck, acronym=acronym, entries=entries)


def _language_of_key(cid: str, key: str) -> str:
    """The language whose table a concept's ``key`` names (its BCP 47 tag, or ``ind`` for
    Indonesian, see :func:`~quizzer.concepts.languages.deck_key`)."""
    try:
        lang = check_language(key)
    except LanguageTagError as exc:
        raise RecordError(
            f"{cid}.{key}",
            f"unknown field: not id, acronym or a language tag ({exc.hint})",
        ) from None
    if deck_key(lang) != key:
        raise RecordError(f"{cid}.{key}", f"write this language's key as {deck_key(lang)}")
    return lang
