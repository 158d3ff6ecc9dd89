"""Checking a typed answer against a concept's expected text, and turning verdicts into grades.

:func:`check_answer` compares after per-language normalisation
(:mod:`quizzer.concepts.normalize`) against every accepted form of the expected text
(:func:`~quizzer.study.answer_forms.answer_forms`): the full text, the term without its
parenthesis, the acronym and the other parts of an ``"A (B/C)"`` text. The result is an
:class:`AnswerCheck` with a :class:`Verdict`:

* ``EXACT``: the full text or the bare term, spelled right.
* ``ACCEPTED``: right, with ``notes`` for the UI to point out: accents differ
  (French), answered with the acronym, or with another part of the parenthesis.
* ``NEAR``: a near miss: similarity at least ``near_threshold`` (rapidfuzz), or a
  Bengali/Arabic/Russian answer typed in Latin transliteration
  (:mod:`quizzer.study.answer_transliteration`). Notes start with
  ``"near"`` (:data:`NOTE_NEAR`). The learner may say "I was right" (a UI action;
  :attr:`AnswerCheck.can_override`; pass ``overridden=True`` to :func:`grade_for`).
* ``WRONG``: anything else.

Near-miss policy (as in Anki, where a learner who sees a one-letter typo in the
diff still presses Hard or Good, never Again): a near miss is a *pass graded
Hard* and is recorded ``correct=True``, so FSRS and the statistics agree. A typo
shows the learner knew the answer; a Latin transliteration of a Bengali, Arabic
or Russian text shows they knew the word but not its spelling in the script,
which is still recall, so it too is Hard, never Good. It is not *spelled* right
(:attr:`AnswerCheck.right` is False): the UI shows the diff, and learn mode asks
it again. "I was right" is offered for near misses only and makes them Good; a
wrong answer can't be overridden (if it was truly right, the deck needs that
form). ``AnswerCheck.correct`` is exactly ``grade >= Hard``.

``diff`` is a character diff (:mod:`quizzer.study.answer_diff`), as data
(:class:`DiffSegment`), between what was typed and the closest accepted form, cut at
grapheme clusters so a Bengali vowel sign or an Arabic haraka never leaves its letter.

Grades (:func:`grade_for`; automatic grading never gives Easy, flip mode lets
the learner choose it):

============================  =====
wrong                         Again  (correct=False)
near miss                     Hard   (correct=True)
right, with a hint or slow    Hard   (correct=True)
right                         Good   (correct=True)
"I was right" on a near miss  Good (Hard if a hint was used)
============================  =====
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from quizzer.cards.card import Pair
from quizzer.concepts.answer_rules import rules_for
from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import Side, script_of
from quizzer.concepts.normalize import compact, comparison_key, graphemes
from quizzer.scheduling.grades import Grade
from quizzer.study.answer_diff import DiffSegment, char_diff
from quizzer.study.answer_forms import FormKind, answer_forms
from quizzer.study.answer_transliteration import (
    has_letters_outside_latin,
    is_latin_answer,
    transliteration_similarity,
)

#: rapidfuzz similarity (0–100) from which a wrong answer is a near miss.
NEAR_THRESHOLD = 80.0
#: Similarity of Latin transliterations (0–100) from which a Latin answer to a
#: Bengali, Arabic or Russian text is a near miss.
TRANSLIT_THRESHOLD = 75.0
#: An answer taking longer than this (milliseconds) is graded Hard, not Good.
SLOW_MS = 20_000


def transliterated(lang: str) -> bool:
    """Whether learners of ``lang`` may type a Latin transliteration instead of its script:
    every language not written in Latin letters (anyascii spells any script)."""
    script = script_of(lang)
    return script is not None and script != "Latn"


NOTE_NEAR = "near"
"""A near miss (a typo or a transliteration): passed, graded Hard, not spelled right."""
NOTE_ACCENTS = "accents"
"""The answer matches only when accents are ignored; show the right accents."""
NOTE_ACRONYM = "acronym"
"""The learner answered with the acronym; show the full term."""
NOTE_PART = "part"
"""The learner answered with another part of an ``"A (B/C)"`` text (e.g. the expansion)."""
NOTE_TRANSLITERATION = "transliteration"
"""A Latin-letter answer that sounds like the expected Bengali/Arabic/Russian text."""
NOTE_OTHER_CONCEPT = "other-concept"
"""The answer is (or is closest to) another concept's text, named in ``confused_with``."""
NOTE_PROMPT = "prompt"
"""The answer is the prompt itself, retyped: wrong, never a near miss."""


class Verdict(StrEnum):
    """How an answer compares with what was expected."""

    EXACT = "exact"
    ACCEPTED = "accepted"
    NEAR = "near"
    WRONG = "wrong"

    @property
    def correct(self) -> bool:
        """Whether the answer is recorded as correct: exact, accepted and near (a pass)."""
        return self is not Verdict.WRONG

    @property
    def right(self) -> bool:
        """Whether the answer is spelled right: exact or accepted (not a near miss)."""
        return self in (Verdict.EXACT, Verdict.ACCEPTED)


@dataclass(frozen=True, slots=True)
class AnswerCheck:
    """The outcome of :func:`check_answer`.

    ``matched`` is the accepted form closest to the answer (``None`` only for an
    empty or all-whitespace answer); ``similarity`` (0–100) is against it; ``notes`` are ``NOTE_*``
    constants; ``diff`` is empty for exact and wrong answers and for
    transliterations. ``confused_with`` is the other concept's text a wrong
    answer matched (see ``others`` in :func:`check_answer`).
    """

    verdict: Verdict
    typed: str
    expected: str
    matched: str | None
    notes: tuple[str, ...] = ()
    similarity: float = 0.0
    diff: tuple[DiffSegment, ...] = ()
    confused_with: str | None = None

    @property
    def correct(self) -> bool:
        """The ``correct`` to record: True for exact, accepted and near answers.

        Always ``grade >= Hard`` for :meth:`grade`; see the near-miss policy in
        the module docstring.
        """
        return self.verdict.correct

    @property
    def right(self) -> bool:
        """Spelled right (exact or accepted): False for a near miss, which shows a
        diff and, in learn mode, is asked again."""
        return self.verdict.right

    @property
    def can_override(self) -> bool:
        """Whether the learner may say "I was right": near misses only."""
        return self.verdict is Verdict.NEAR

    def grade(
        self,
        *,
        hint_used: bool = False,
        duration_ms: int | None = None,
        slow_ms: int = SLOW_MS,
        overridden: bool = False,
    ) -> Grade:
        """:func:`grade_for` this answer's verdict (``overridden`` only for a near miss)."""
        if overridden and not self.can_override:
            raise ValueError(f"a {self.verdict} answer can't be overridden")
        return grade_for(
            self.verdict,
            hint_used=hint_used,
            duration_ms=duration_ms,
            slow_ms=slow_ms,
            overridden=overridden,
        )


def _similarity(typed_key: str, form_key: str, lang: str) -> float:
    if not typed_key or not form_key:
        return 0.0
    if rules_for(lang).clusters:
        # A vowel sign or a virama conjunct is one unit of spelling: a slip in one
        # cluster costs one, however many code points it holds.
        return _cluster_similarity(typed_key, form_key)
    score = max(
        fuzz.ratio(typed_key, form_key),
        fuzz.token_sort_ratio(typed_key, form_key),
        fuzz.ratio(compact(typed_key), compact(form_key)),
    )
    return _capped(score, typed_key, form_key)


def _cluster_similarity(typed_key: str, form_key: str) -> float:
    typed_clusters = graphemes(compact(typed_key))
    form_clusters = graphemes(compact(form_key))
    score = max(
        fuzz.ratio(typed_key, form_key),
        fuzz.ratio(typed_clusters, form_clusters),
    )
    # One cluster off (a vowel sign, a conjunct typed as two letters) is one slip.
    slip = Levenshtein.distance(typed_clusters, form_clusters) <= 1 or (
        Levenshtein.distance(compact(typed_key), compact(form_key)) <= 1
    )
    if slip and len(form_clusters) >= 3:
        score = max(score, NEAR_THRESHOLD)
    return _capped(score, typed_key, form_key, typed_clusters, form_clusters)


def _capped(
    score: float,
    typed_key: str,
    form_key: str,
    typed_units: Sequence[str] | None = None,
    form_units: Sequence[str] | None = None,
) -> float:
    """``score`` with the rules of a near miss that don't depend on the measure."""
    # "8-bit" for "4-bit" is another concept, not a typo.
    if re.findall(r"\d+", typed_key) != re.findall(r"\d+", form_key):
        return min(float(score), 60.0)
    # One slip in a short word ("PEFF" for "PEFT") is a near miss, whatever the ratio.
    typed_units = typed_units if typed_units is not None else compact(typed_key)
    form_units = form_units if form_units is not None else compact(form_key)
    if len(form_units) >= 3 and Levenshtein.distance(typed_units, form_units) <= 1:
        score = max(score, NEAR_THRESHOLD)
    return float(score)


def _closest_other(
    typed_loose: str, others: Iterable[str], lang: str, side: Side | None
) -> tuple[float, str | None]:
    """The other concept's text closest to the answer (100 when it is one of its forms)."""
    best: tuple[float, str | None] = (0.0, None)
    for text in others:
        for form in answer_forms(text, lang, side=side):
            key = comparison_key(form.text, lang, accents=False)
            if compact(key) == compact(typed_loose):
                return 100.0, text
            score = _similarity(typed_loose, key, lang)
            if score > best[0]:
                best = (score, text)
    return best


def other_texts(
    concept: Concept, pool: Iterable[Concept], lang: str, side: Side
) -> tuple[str, ...]:
    """The ``lang`` ``side`` texts of ``pool``'s other concepts, for ``others`` in
    :func:`check_answer` (pass the concept's deck as ``pool``)."""
    return tuple(
        text
        for other in pool
        if other.uid != concept.uid and (text := other.text(lang, side)) is not None
    )


def _is_prompt(typed: str, prompt: str, prompt_lang: str) -> bool:
    """Whether ``typed`` is ``prompt`` or one of its forms, in the prompt's language."""
    typed_key = compact(comparison_key(typed, prompt_lang, accents=False))
    return any(
        compact(comparison_key(form.text, prompt_lang, accents=False)) == typed_key
        for form in answer_forms(unicodedata.normalize("NFC", prompt.strip()), prompt_lang)
        if form.kind in ("full", "term")
    )


_KIND_NOTES: dict[FormKind, tuple[str, ...]] = {
    "full": (),
    "term": (),
    "acronym": (NOTE_ACRONYM,),
    "part": (NOTE_PART,),
}


def check_answer(
    typed: str,
    expected: str,
    lang: str,
    *,
    acronym: str | None = None,
    others: Iterable[str] = (),
    side: Side | None = None,
    near_threshold: float = NEAR_THRESHOLD,
    prompt: tuple[str, str] | None = None,
) -> AnswerCheck:
    """Judge ``typed`` against ``expected`` (a term or definition in ``lang``).

    ``acronym`` is the concept's acronym, if it has one (see :func:`answer_forms`).
    ``others`` are the same-language, same-side texts of the deck's other concepts
    (:func:`other_texts`): an answer that is one of them, or closer to one of them
    than to ``expected``, is wrong, not a near miss ("Symmetric Quantization" for
    "Asymmetric Quantization"), and ``confused_with`` names it. ``side`` says
    whether ``expected`` is a term or a definition (guessed from its length when
    ``None``); definitions accept no acronym or parenthesis part. ``prompt`` is the
    card's prompt as (text, language): an answer that only retypes it (after that
    language's normalisation) is wrong with :data:`NOTE_PROMPT`, never a near miss,
    since copying the English prompt of an English → Bengali card, which sounds
    like its Bengali loanword, shows no recall.
    """
    expected_nfc = unicodedata.normalize("NFC", expected.strip())
    forms = answer_forms(expected_nfc, lang, acronym, side)
    typed_strict = comparison_key(typed, lang)
    if not typed_strict:
        return AnswerCheck(Verdict.WRONG, typed, expected_nfc, None)
    typed_loose = comparison_key(typed, lang, accents=False)

    # Strict before loose, and the full text or bare term before other parts.
    ranked = sorted(forms, key=lambda f: f.kind not in ("full", "term"))
    for form in ranked:
        if compact(comparison_key(form.text, lang)) == compact(typed_strict):
            notes = _KIND_NOTES[form.kind]
            verdict = Verdict.ACCEPTED if notes else Verdict.EXACT
            return AnswerCheck(verdict, typed, expected_nfc, form.text, notes, 100.0)
    # Accents differ: accepted, or a near miss, as the language's row says.
    accepted = rules_for(lang).accents == "accepted"
    for form in ranked:
        if compact(comparison_key(form.text, lang, accents=False)) == compact(typed_loose):
            if accepted:
                notes = (NOTE_ACCENTS, *_KIND_NOTES[form.kind])
                verdict, score = Verdict.ACCEPTED, 100.0
            else:
                notes = (NOTE_NEAR, NOTE_ACCENTS, *_KIND_NOTES[form.kind])
                verdict = Verdict.NEAR
                score = _similarity(typed_strict, comparison_key(form.text, lang), lang)
            return AnswerCheck(
                verdict,
                typed,
                expected_nfc,
                form.text,
                notes,
                score,
                char_diff(typed, form.text, lang),
            )

    if prompt is not None and _is_prompt(typed, *prompt):
        return AnswerCheck(Verdict.WRONG, typed, expected_nfc, ranked[0].text, (NOTE_PROMPT,), 0.0)

    scored = [
        (
            _similarity(typed_loose, comparison_key(form.text, lang, accents=False), lang),
            index,
            form,
        )
        for index, form in enumerate(forms)
    ]
    best_score, _, best = max(scored, key=lambda item: (item[0], -item[1]))
    other_score, other = _closest_other(typed_loose, others, lang, side)
    # Exact matches of ours were handled above, so best_score < 100 here.
    if other is not None and other_score >= near_threshold and other_score > best_score:
        return AnswerCheck(
            Verdict.WRONG,
            typed,
            expected_nfc,
            best.text,
            (NOTE_OTHER_CONCEPT,),
            best_score,
            confused_with=other,
        )
    if best_score >= near_threshold:
        return AnswerCheck(
            Verdict.NEAR,
            typed,
            expected_nfc,
            best.text,
            (NOTE_NEAR, *_KIND_NOTES[best.kind]),
            best_score,
            char_diff(typed, best.text, lang),
        )

    if transliterated(lang) and is_latin_answer(typed):
        native = [f for f in forms if has_letters_outside_latin(f.text)]
        translit = [(transliteration_similarity(typed, f.text), f) for f in native]
        if translit:
            score, form = max(translit, key=lambda item: item[0])
            if score >= TRANSLIT_THRESHOLD:
                return AnswerCheck(
                    Verdict.NEAR,
                    typed,
                    expected_nfc,
                    form.text,
                    (NOTE_NEAR, NOTE_TRANSLITERATION),
                    score,
                )
    return AnswerCheck(Verdict.WRONG, typed, expected_nfc, best.text, (), best_score)


def grade_for(
    verdict: Verdict,
    *,
    hint_used: bool = False,
    duration_ms: int | None = None,
    slow_ms: int = SLOW_MS,
    overridden: bool = False,
) -> Grade:
    """The scheduler grade for an automatically judged answer (typed, choice, learn).

    wrong → Again; near miss → Hard (a pass: record ``correct=True``); right →
    Good, or Hard when a hint was used or the answer took ``slow_ms`` or longer;
    "I was right" (``overridden``, offered for near misses) → Good, or Hard with
    a hint. Never Easy: only the learner can claim that (flip mode). A grade of
    Hard or better is exactly :attr:`Verdict.correct` (or an override).
    """
    if overridden:
        return 2 if hint_used else 3
    if verdict is Verdict.WRONG:
        return 1
    if verdict is Verdict.NEAR:
        return 2
    slow = duration_ms is not None and duration_ms >= slow_ms
    return 2 if hint_used or slow else 3


def check_card_answer(
    typed: str, concept: Concept, pool: Iterable[Concept], pair: Pair
) -> AnswerCheck:
    """:func:`check_answer` for a card: ``concept`` studied in direction ``pair``.

    The expected text is the concept's answer text, its acronym is accepted, and
    the texts of ``pool``'s other concepts tell a confusion from a near miss, and
    retyping the prompt is wrong.
    """
    lang, side = pair.answer_lang, pair.answer_side
    prompt_text = concept.text(pair.prompt_lang, pair.prompt_side)
    return check_answer(
        typed,
        concept.text(lang, side) or "",
        lang,
        acronym=concept.acronym,
        others=other_texts(concept, pool, lang, side),
        side=side,
        prompt=None if prompt_text is None else (prompt_text, pair.prompt_lang),
    )
