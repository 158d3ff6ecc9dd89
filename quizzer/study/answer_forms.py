"""The accepted forms of an expected text: every way of answering it that counts as right.

``"Parameter-Efficient Fine-Tuning (PEFT)"`` is answered by itself, by the bare term
before its parenthesis, and by its acronym; ``"LoRA (Low-Rank Adaptation/Адаптация
низкого ранга)"`` by each part of the parenthesis too. Which parenthesis counts and
what an acronym is are the rules of :mod:`quizzer.concepts.term_parts`, shared with
glossary alignment.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from quizzer.concepts.languages import Side, script_of
from quizzer.concepts.normalize import compact, comparison_key, normalize
from quizzer.concepts.term_parts import looks_like_acronym, paren_parts

FormKind = Literal["full", "term", "acronym", "part"]


@dataclass(frozen=True, slots=True)
class AnswerForm:
    """One accepted way to answer: the ``full`` text, the bare ``term`` before its
    parenthesis, an ``acronym``, or another ``part`` of the parenthesis."""

    text: str
    kind: FormKind


#: A text with more words than this is taken for a definition when ``side`` isn't given.
_TERM_MAX_WORDS = 8


def _is_term(expected: str, side: Side | None) -> bool:
    if side is not None:
        return side == "term"
    return len(expected.split()) <= _TERM_MAX_WORDS


def answer_forms(
    expected: str, lang: str, acronym: str | None = None, side: Side | None = None
) -> tuple[AnswerForm, ...]:
    """Every accepted way to answer ``expected`` (written in ``lang``), full text first.

    ``"Parameter-Efficient Fine-Tuning (PEFT)"`` accepts itself, the term
    ``"Parameter-Efficient Fine-Tuning"`` and the acronym ``"PEFT"``;
    ``"LoRA (Low-Rank Adaptation/Адаптация низкого ранга)"`` accepts the term
    ``"LoRA"`` and each part of the parenthesis. The concept's ``acronym`` is
    accepted when the expected text contains it or ``lang`` is written in Latin
    letters (typing "LoRA" doesn't show you know the Bengali «লোরা»).

    Acronyms and parenthesis parts are ways to name a *term*: for a definition
    (``side="definition"``, or a text of more than 8 words when ``side`` is
    ``None``) only the full text is accepted.

    Never empty: a text that normalises to nothing (``"[/]"``) is compared as
    written (:func:`~quizzer.concepts.normalize.comparison_key`), and even an empty
    ``expected`` gives its one (empty) ``full`` form.
    """
    expected = unicodedata.normalize("NFC", expected.strip())
    forms: list[AnswerForm] = [AnswerForm(expected, "full")]
    if not _is_term(expected, side):
        return tuple(forms)
    parts = paren_parts(expected)
    if parts is not None:
        head, alternatives = parts
        forms.append(AnswerForm(head, "term"))
        for part in alternatives:
            is_acronym = looks_like_acronym(part) or (
                acronym is not None and part.casefold() == acronym.casefold()
            )
            forms.append(AnswerForm(part, "acronym" if is_acronym else "part"))
    if acronym:
        words = normalize(expected, lang).split()
        # In a language written in Latin letters the concept's acronym is itself an answer.
        if script_of(lang) == "Latn" or normalize(acronym, lang) in words:
            forms.append(AnswerForm(acronym.strip(), "acronym"))
    unique: list[AnswerForm] = []
    seen: set[str] = set()
    for form in forms:
        key = compact(comparison_key(form.text, lang))
        if key and key not in seen:
            seen.add(key)
            unique.append(form)
    return tuple(unique) or (forms[0],)
