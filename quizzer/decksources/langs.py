"""Languages of a deck source's columns: a tag or a name given by the learner or the file
checked, and a column's language told from its texts together (one word alone says little;
a column of them says more)."""

from __future__ import annotations

from collections.abc import Sequence

import langcodes

from quizzer.concepts.languages import check_language
from quizzer.glossary.language_id import TextsLanguage, language_of_texts

#: Texts of a column pooled to tell its language: enough for any detector, bounded in time.
SAMPLE_TEXTS = 200
#: Longest column name looked up as a language's name.
_MAX_NAME = 40


def valid_tag(code: str) -> str | None:
    """``code`` in its standard form when it is a BCP 47 tag, else ``None``."""
    try:
        return check_language(code.strip())
    except ValueError:
        return None


def tag_for_name(name: str) -> str | None:
    """The language a name names (``Spanish``, ``español``, ``Deutsch``), or ``None``.

    Only languages with a two-letter code count: a column named ``Pinyin`` is the
    romanisation of Chinese, not the Pinyin language of Cameroon (``pny``)."""
    text = name.strip()
    if not text or len(text) > _MAX_NAME:
        return None
    try:
        found = langcodes.find(text)
    except LookupError:
        return None
    if found.language is None or len(found.language) != 2:
        return None
    # langcodes finds a language in a text that starts with its name ("English audio"):
    # only a single word (Bengali, Deutsch) or the whole name, in English or in the
    # language itself, counts.
    names = {str(found.display_name("en")).casefold(), str(found.autonym()).casefold()}
    if len(text.split()) > 1 and text.casefold() not in names:
        return None
    return valid_tag(found.to_tag())


def language_of(name: str) -> str | None:
    """The language a column name names, by tag (``es``, ``pt-BR``) or by name."""
    return valid_tag(name) or tag_for_name(name)


def column_language(texts: Sequence[str]) -> TextsLanguage:
    """The language of a column's texts taken together, or why they don't tell it."""
    sample = [text for text in texts if text][:SAMPLE_TEXTS]
    return language_of_texts(sample)
