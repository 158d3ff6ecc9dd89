"""Languages of a deck source's columns: a tag given by the learner checked, and a column's
language told from its texts together (one word alone says little; a column of them says more).
"""

from __future__ import annotations

from collections.abc import Sequence

from quizzer.concepts.languages import check_language, language_named
from quizzer.glossary.language_id import language_of_texts

#: Texts of a column pooled to tell its language: enough for any detector, bounded in time.
SAMPLE_TEXTS = 200


def valid_tag(code: str) -> str | None:
    """``code`` as quizzer writes the language, or ``None`` when it names none."""
    try:
        return check_language(code.strip())
    except ValueError:
        return None


def column_language(texts: Sequence[str]) -> str | None:
    """The language of a column's texts taken together, or ``None`` when they don't tell."""
    sample = [text for text in texts if text][:SAMPLE_TEXTS]
    return language_of_texts(sample)


def tag_for_name(name: str) -> str | None:
    """The language a name names, in English or in itself (``Spanish``, ``english``,
    ``español``), or ``None``."""
    return language_named(name)


def language_of(name: str) -> str | None:
    """The language a column name names, by tag (``es``, ``pt-BR``) or English name."""
    return valid_tag(name) or tag_for_name(name)
