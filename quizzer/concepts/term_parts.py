"""The parts of a term: its acronym, and the alternatives in its closing parenthesis.

Glossary terms name a concept several ways in one line: ``"Parameter-Efficient
Fine-Tuning (PEFT)"``, ``"LoRA (Low-Rank Adaptation/Адаптация низкого ранга)"``,
``"Zero Redundancy Optimizer (ZeRO/Оптимизатор нулевой избыточности)"``. Alignment
(:mod:`quizzer.glossary.align`) reads the acronym out of them to match entries across
languages and to name new concepts; answer checking (:mod:`quizzer.study.answers`)
accepts each part as an answer. Both use the two rules here, so a part that aligns
as an acronym is also the one accepted as one.

**What an acronym is** (:func:`looks_like_acronym`): one token of at most 16
characters, Latin letters, digits and hyphens only, starting with a capital and
ending with a capital or a digit, with at least two capitals and no more lower-case
letters than capitals (``PEFT``, ``GPTQ``, ``LoRA``, ``ZeRO``, ``MoE``, ``QLoRA``,
``GPT-4``).

* The capital/lower-case balance does the real work: it keeps CamelCase names
  (``SmoothQuant``, ``DeepSpeed``) and words (``Flash Attention``, ``Scale``) out.
* 16 characters, not fewer: the length is only a guard against a long shouted word
  or a code constant; hyphenated compounds of acronyms and versions
  (``GPT-NeoX-20B``, ``FP8-E4M3``) are still acronyms. The bundled glossaries'
  longest acronym is four letters, so 12 or 16 import them alike; 16 is the limit
  the bundled decks' concept ids were made with.
* No dots: in this vocabulary a dot marks a code name (``LLM.int8()``,
  ``torch.compile``), not an abbreviation — with dots allowed, ``LLM.int8`` would
  pass the capital count. Dotted initialisms (``U.S.``) don't occur in the glossaries.
* Latin only: a Bengali, Arabic or Cyrillic word has no capitals to count, and the
  glossaries write acronyms in Latin letters in every language.

**Where the alternatives are** (:func:`paren_parts`): a parenthesis that closes the
term, after a space: ``"head (inner)"``; in Chinese, Japanese and Korean, which put no
space before it, a full-width one or one right after a Han, kana or Hangul letter
(``"图形处理器（GPU）"``, ``"图形处理器(GPU)"``). A parenthesis inside a name
(``LLM.int8()``, ``f(x)``) or followed by more text is part of the term, not a list
of alternatives; nested parentheses are not split.

**How the alternatives are separated** (:func:`split_alternatives`): ``/`` and
``;``, not ``,``. The glossaries join other names of the same thing with ``/``
(``"ZeRO/Оптимизатор нулевой избыточности"``); a comma inside parentheses lists
*different* things (``"(scale, zero point)"``), and accepting ``scale`` alone as the
answer, or as the concept's acronym, would be wrong. No term of the bundled
glossaries has a comma in its parenthesis, so the choice imports them alike.
"""

from __future__ import annotations

import re

#: The longest token still taken for an acronym (see the module docstring).
ACRONYM_MAX_LEN = 16

_ACRONYM_TOKEN = re.compile(r"^[A-Z](?:[A-Za-z0-9\-]*[A-Z0-9])?$")
# The contents hold no parenthesis, so a nested or unbalanced one ("A (B (C))") is no split.
# Chinese and Japanese write no space before a parenthesis, and mostly the full-width one:
# "图形处理器（GPU）", "图形处理器(GPU)" after a Han, kana or Hangul letter are split too.
_CJK_LETTER = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CLOSING_PAREN = re.compile(
    rf"^(?P<head>.*?\S)(?:\s+\(|\s*（|(?<=[{_CJK_LETTER}])\()"
    r"(?P<inner>[^()（）]*[^()（）\s][^()（）]*)[)）]\s*$",
    re.DOTALL,
)
_SEPARATORS = re.compile(r"\s*[/;]\s*")


def looks_like_acronym(text: str) -> bool:
    """Whether ``text`` (stripped) is an acronym: ``PEFT``, ``LoRA``, ``GPT-4``; not
    ``SmoothQuant``, ``LLM.int8()``, ``Flash Attention``."""
    token = text.strip()
    # (The first letter before the pattern: most terms aren't Latin capitals at all.)
    if not "A" <= token[:1] <= "Z" or len(token) > ACRONYM_MAX_LEN:
        return False
    if not _ACRONYM_TOKEN.match(token):
        return False
    upper = sum(1 for ch in token if "A" <= ch <= "Z")
    lower = sum(1 for ch in token if "a" <= ch <= "z")
    return upper >= 2 and lower <= upper


def split_alternatives(inner: str) -> tuple[str, ...]:
    """The alternatives of a parenthesis' contents, stripped, empty ones dropped:
    ``"ZeRO/Оптимизатор"`` → ``("ZeRO", "Оптимизатор")``."""
    return tuple(part for part in _SEPARATORS.split(inner.strip()) if part)


def paren_parts(term: str) -> tuple[str, tuple[str, ...]] | None:
    """``(head, alternatives)`` of a term ending in a parenthesis, else ``None``.

    ``"LoRA (Low-Rank Adaptation/Адаптация)"`` → ``("LoRA", ("Low-Rank Adaptation",
    "Адаптация"))``; ``"x (/)"`` → ``("x", ())``; ``"LLM.int8()"`` → ``None``.
    """
    term = term.strip()
    if not term.endswith((")", "）")):
        # What the pattern needs last; most terms have no parenthesis, and the lazy head
        # makes a failing match try every split of the term (a fifth of a big import's
        # naming of concepts went here).
        return None
    found = _CLOSING_PAREN.match(term)
    if found is None:
        return None
    return found["head"].strip(), split_alternatives(found["inner"])


def term_head(term: str) -> str:
    """The term without its closing parenthesis (the whole term, stripped, without one)."""
    parts = paren_parts(term)
    return parts[0] if parts is not None else term.strip()


def acronym_of(term: str) -> str | None:
    """The acronym a term carries: ``"… (PEFT)"``, ``"(ZeRO/…)"``, or a term like ``GPTQ``.

    The first alternative in the closing parenthesis that is an acronym, else the head
    when it is one (``"LoRA (Low-Rank Adaptation)"``), else ``None``.
    """
    parts = paren_parts(term)
    if parts is None:
        return term.strip() if looks_like_acronym(term) else None
    head, alternatives = parts
    for part in alternatives:
        if looks_like_acronym(part):
            return part
    return head if looks_like_acronym(head) else None
