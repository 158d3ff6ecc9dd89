"""Languages as BCP 47 tags, and facts about how they are written.

Any language a learner brings is a BCP 47 tag (``es``, ``pt-BR``, ``zh-Hans``, ``sr-Latn``,
``fa``…), checked and named by langcodes over CLDR's data (language_data): nothing here
lists languages by hand. The languages of the bundled decks are data in those decks.

A tag is kept in its standard form (``in`` → ``id``, ``iw`` → ``he``, ``EN`` → ``en``), so
the same language always has the same key in deck files, card ids and the progress store.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Literal

import langcodes

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
    if text and langcodes.tag_is_valid(text):
        standard = langcodes.standardize_tag(text)
        if langcodes.Language.get(standard).language not in (None, "und"):
            return standard
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
        found = langcodes.find(text)
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


@functools.lru_cache(maxsize=4096)
def language_name(tag: str) -> str:
    """The language's name in English, from CLDR (``pt-BR`` → ``Portuguese (Brazil)``); an
    invalid tag is returned as it is, so messages about bad input can still name it."""
    if not is_language(tag):
        return tag
    return str(langcodes.Language.get(tag).display_name("en"))


@functools.lru_cache(maxsize=4096)
def native_name(tag: str) -> str:
    """The language's name in itself (its autonym, ``fa`` → ``فارسی``), first letter capital
    as in a heading or a menu (CLDR gives the form used inside a sentence: ``español``)."""
    if not is_language(tag):
        return tag
    name = str(langcodes.Language.get(tag).autonym())
    return name[:1].upper() + name[1:]


@functools.lru_cache(maxsize=4096)
def script_of(tag: str) -> str | None:
    """The ISO 15924 script ``tag`` is written in: its own script subtag, else the likely
    one from CLDR's likely subtags (``fa`` → ``Arab``, ``ja`` → ``Jpan``, ``sr`` → ``Cyrl``).
    ``None`` for an invalid tag."""
    if not is_language(tag):
        return None
    language = langcodes.Language.get(tag)
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


@functools.lru_cache(maxsize=1024)
def deck_key(tag: str) -> str:
    """The key of ``tag``'s table in a deck file: the tag, except where it is also the name
    of a concept's field: Indonesian (``id``) is written by its ISO 639-3 code ``ind``,
    which :func:`check_language` reads back as ``id``."""
    if tag in CONCEPT_FIELDS and is_language(tag):
        return str(langcodes.Language.get(tag).to_alpha3())
    return tag


def parse_side(text: str) -> Side:
    """The side ``text`` names: ``term`` or ``definition``, or any prefix of one (``t``,
    ``def``), in any case — as the header abbreviates them. Raises ``ValueError`` otherwise."""
    word = text.strip().lower()
    found = [side for side in SIDES if word and side.startswith(word)]
    if len(found) != 1:
        raise ValueError(f"unknown side {text.strip()!r}; use term or definition (or t, def)")
    return found[0]


# The Anki note type's fields, named after the bundled decks' five languages: Anki knows a
# note type's fields by name, so these names stay as collections already hold them until
# the export has a note type per language set. Nothing else lists languages.
LANGUAGES: tuple[str, ...] = ("en", "bn", "ar", "ru", "fr")
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "bn": "Bengali",
    "ar": "Arabic",
    "ru": "Russian",
    "fr": "French",
}
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "bn": "বাংলা",
    "ar": "العربية",
    "ru": "Русский",
    "fr": "Français",
}
