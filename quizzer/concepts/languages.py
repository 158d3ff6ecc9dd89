"""Languages as BCP 47 tags, and facts about how they are written.

Any language a learner brings is a BCP 47 tag (``es``, ``pt-BR``, ``zh-Hans``, ``sr-Latn``,
``fa``…), checked and named by langcodes over CLDR's data (language_data): nothing here
lists languages by hand. The languages of the bundled decks are data in those decks.

A tag is kept in its standard form (``in`` → ``id``, ``iw`` → ``he``, ``EN`` → ``en``), so
the same language always has the same key in deck files, card ids and the progress store.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Literal

Side = Literal["term", "definition"]
SIDES: tuple[Side, ...] = ("term", "definition")

Direction = Literal["ltr", "rtl"]

#: ISO 15924 codes of the scripts written right to left (Unicode's Bidi_Class R or AL
#: letters): Arabic and its Nastaliq form, Hebrew, Syriac, Thaana, N'Ko, Adlam, Hanifi
#: Rohingya, Mandaic, Samaritan, Mende Kikakui, Yezidi and the historic ones.
RTL_SCRIPTS: frozenset[str] = frozenset(
    {
        "Arab", "Aran", "Hebr", "Syrc", "Syre", "Syrj", "Syrn", "Thaa", "Nkoo", "Adlm", "Rohg",
        "Mand", "Samr", "Mend", "Yezi", "Hung", "Phnx", "Armi", "Avst", "Cprt", "Khar", "Lydi",
        "Nbat", "Narb", "Orkh", "Palm", "Phli", "Phlp", "Prti", "Sarb", "Sogd", "Sogo", "Elym",
        "Chrs", "Hatr", "Mani", "Ougr", "Nshu",
    }
)  # fmt: skip

_EXAMPLES = "es, pt-BR, zh-Hans, sr-Latn, fa, hi"

#: The shape of a BCP 47 tag (letters, digits and hyphens in subtags of 1–8), for values
#: that come from data already checked (card ids, deck keys): shape only, no lookup.
TAG_SHAPE = re.compile(r"^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$")


@functools.cache
def _langcodes() -> ModuleType:
    """langcodes, imported when a tag is first checked or named: its tables take a tenth
    of a second to load, which the home screen's first paint doesn't pay (the names it
    shows come from the deck summaries, see :func:`remember_names`)."""
    import langcodes

    return langcodes


#: Names already known, by tag: (English, native). Filled as names are asked for, and by
#: the deck library from its cached summaries (:func:`remember_names`).
_NAMES: dict[str, tuple[str, str]] = {}


def remember_names(names: Mapping[str, tuple[str, str]]) -> None:
    """Take ``names`` (tag → English name, native name), as :func:`language_name` and
    :func:`native_name` would give them, from a cache kept beside the decks."""
    for tag, pair in names.items():
        _NAMES.setdefault(tag, pair)


class LanguageTagError(ValueError):
    """A text that is not a valid BCP 47 language tag; ``hint`` says what to write."""

    def __init__(self, tag: str, problem: str, hint: str) -> None:
        super().__init__(f"{problem}; {hint}")
        self.tag = tag
        self.problem = problem
        self.hint = hint


@functools.lru_cache(maxsize=4096)
def check_language(tag: str) -> str:
    """The standard form of the BCP 47 tag ``tag`` (``in`` → ``id``, ``pt_br`` → ``pt-BR``).

    Raises :class:`LanguageTagError` naming ``tag`` when it is not a valid tag (an unknown
    language subtag, a malformed tag, or ``und``), with a hint: the tag of the language
    ``tag`` names when it is a language's name (``Spanish`` → ``es``), else examples.
    """
    text = tag.strip().replace("_", "-")
    langcodes = _langcodes()
    if text and langcodes.tag_is_valid(text):
        standard = langcodes.standardize_tag(text)
        if langcodes.Language.get(standard).language not in (None, "und"):
            return str(standard)
    found = language_named(tag)
    hint = (
        f"did you mean {found} ({language_name(found)})? write a tag such as {_EXAMPLES}"
        if found
        else f"write a BCP 47 tag such as {_EXAMPLES}"
    )
    raise LanguageTagError(tag, f"unknown language {tag!r} (not a BCP 47 language tag)", hint)


def language_named(name: str) -> str | None:
    """The tag of the language ``name`` names, in English or in itself (``Spanish``,
    ``español``, ``Deutsch``, ``Brazilian Portuguese``), or ``None``. The whole text must be
    the name: langcodes also matches a longer text that starts with one (``English audio``),
    which names a field, not a language."""
    text = " ".join(name.split())
    if not text or len(text) > 60:
        return None
    try:
        found = _langcodes().find(text)
    except LookupError:
        return None
    if found.language in (None, "und"):
        return None
    names = (found.display_name("en"), found.autonym())
    if len(text.split()) > max(len(str(known).split()) for known in names):
        return None
    return str(found.to_tag())


def is_language(tag: str) -> bool:
    """Whether ``tag`` is a valid BCP 47 language tag."""
    try:
        check_language(tag)
    except LanguageTagError:
        return False
    return True


def language_name(tag: str) -> str:
    """The language's name in English, from CLDR (``pt-BR`` → ``Portuguese (Brazil)``); an
    invalid tag is returned as it is, so messages about bad input can still name it."""
    return _names(tag)[0]


def native_name(tag: str) -> str:
    """The language's name in itself (its autonym, ``fa`` → ``فارسی``), first letter capital
    as in a heading or a menu (CLDR gives the form used inside a sentence: ``español``)."""
    return _names(tag)[1]


def both_names(tag: str) -> str:
    """``Bangla · বাংলা``: the English name, then the name in the language itself (once,
    ``English``, where the two are the same)."""
    english, native = _names(tag)
    return english if native == english else f"{english} · {native}"


def _names(tag: str) -> tuple[str, str]:
    known = _NAMES.get(tag)
    if known is not None:
        return known
    if not is_language(tag):
        return tag, tag
    language = _langcodes().Language.get(tag)
    native = str(language.autonym())
    known = _NAMES[tag] = (str(language.display_name("en")), native[:1].upper() + native[1:])
    return known


@functools.lru_cache(maxsize=4096)
def script_of(tag: str) -> str | None:
    """The ISO 15924 script ``tag`` is written in: its own script subtag, else the likely
    one from CLDR's likely subtags (``fa`` → ``Arab``, ``ja`` → ``Jpan``, ``sr`` → ``Cyrl``).
    ``None`` for an invalid tag."""
    if not is_language(tag):
        return None
    language = _langcodes().Language.get(tag)
    script = language.script or language.maximize().script
    return str(script) if script else None


def direction(tag: str) -> Direction:
    """``"rtl"`` when ``tag``'s script is written right to left, else ``"ltr"``."""
    return "rtl" if script_of(tag) in RTL_SCRIPTS else "ltr"


def is_rtl(tag: str) -> bool:
    """Whether ``tag`` is written right to left."""
    return direction(tag) == "rtl"


def base_language(tag: str) -> str:
    """The language subtag alone (``pt-BR`` → ``pt``, ``zh-Hans`` → ``zh``), lower case."""
    return tag.split("-", 1)[0].lower()


def order_languages(tags: Iterable[str]) -> tuple[str, ...]:
    """``tags`` without repeats, in the order they first come (a deck's languages in the
    order its file lists them): the stable order of every list of languages."""
    return tuple(dict.fromkeys(tags))


def sorted_languages(tags: Iterable[str]) -> tuple[str, ...]:
    """``tags`` without repeats, sorted by tag: the order of languages that come as a set."""
    return tuple(sorted(set(tags)))


#: The names a concept's table in a deck file has besides its languages' tables.
CONCEPT_FIELDS: frozenset[str] = frozenset({"id", "acronym"})


#: The deck-file key of a language whose tag is also the name of a concept's field: its
#: ISO 639-3 code, which :func:`check_language` reads back as the tag (a test checks both
#: against langcodes). Indonesian (``id``) is the one such language.
_FIELD_LANGUAGE_KEYS: dict[str, str] = {"id": "ind"}
_FIELD_LANGUAGE_TAGS: dict[str, str] = {key: tag for tag, key in _FIELD_LANGUAGE_KEYS.items()}


def deck_key(tag: str) -> str:
    """The key of ``tag``'s table in a deck file: the tag, except where it is also the name
    of a concept's field: Indonesian (``id``) is written by its ISO 639-3 code ``ind``."""
    return _FIELD_LANGUAGE_KEYS.get(tag, tag)


def tag_of_key(key: str) -> str:
    """The language of a deck file's key already checked (the inverse of :func:`deck_key`;
    no lookup: for tables that validated when the file was read)."""
    return _FIELD_LANGUAGE_TAGS.get(key, key)


def parse_side(text: str) -> Side:
    """The side ``text`` names: ``term`` or ``definition``, or any prefix of one (``t``,
    ``def``), in any case — as the header abbreviates them. Raises ``ValueError`` otherwise."""
    word = text.strip().lower()
    found = [side for side in SIDES if word and side.startswith(word)]
    if len(found) != 1:
        raise ValueError(f"unknown side {text.strip()!r}; use term or definition (or t, def)")
    return found[0]
