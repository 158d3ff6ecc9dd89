"""Checking a typed answer against a concept's expected text, and turning verdicts into grades.

:func:`check_answer` compares after per-language normalisation
(:mod:`quizzer.concepts.normalize`) against every accepted form of the expected text
(:func:`answer_forms`): the full text, the term without its parenthesis, the
acronym and the other parts of an ``"A (B/C)"`` text. The result is an
:class:`AnswerCheck` with a :class:`Verdict`:

* ``EXACT``: the full text or the bare term, spelled right.
* ``ACCEPTED``: right, with ``notes`` for the UI to point out: accents differ
  (French), answered with the acronym, or with another part of the parenthesis.
* ``NEAR``: a near miss: similarity at least ``near_threshold`` (rapidfuzz), or a
  Bengali/Arabic/Russian answer typed in Latin transliteration. Notes start with
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

``diff`` is a character diff, as data (:class:`DiffSegment`), between what was
typed and the closest accepted form, cut at grapheme clusters so a Bengali vowel
sign or an Arabic haraka never leaves its letter.

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
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from anyascii import anyascii
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from quizzer.cards.card import Pair
from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import Side
from quizzer.concepts.normalize import compact, comparison_key, graphemes, normalize
from quizzer.scheduling.review import Grade

#: rapidfuzz similarity (0–100) from which a wrong answer is a near miss.
NEAR_THRESHOLD = 80.0
#: Similarity of Latin transliterations (0–100) from which a Latin answer to a
#: Bengali, Arabic or Russian text is a near miss.
TRANSLIT_THRESHOLD = 75.0
#: An answer taking longer than this (milliseconds) is graded Hard, not Good.
SLOW_MS = 20_000

#: Languages whose learners may type a Latin transliteration instead of the script.
TRANSLITERATED_LANGUAGES = frozenset({"bn", "ar", "ru"})
#: Languages written in Latin letters, where the concept's acronym is itself an answer.
_LATIN_LANGUAGES = frozenset({"en", "fr"})

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

FormKind = Literal["full", "term", "acronym", "part"]
DiffOp = Literal["equal", "extra", "missing"]


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
class AnswerForm:
    """One accepted way to answer: the ``full`` text, the bare ``term`` before its
    parenthesis, an ``acronym``, or another ``part`` of the parenthesis."""

    text: str
    kind: FormKind


@dataclass(frozen=True, slots=True)
class DiffSegment:
    """A run of the character diff.

    ``equal``: typed and expected agree; ``extra``: typed but not expected;
    ``missing``: expected but not typed. Joining equal+extra gives the typed
    text, equal+missing the expected form.
    """

    op: DiffOp
    text: str


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


_PAREN_RE = re.compile(r"^(?P<head>.*?\S)\s*\((?P<inner>[^()]*\S[^()]*)\)\s*$", re.DOTALL)
_ACRONYM_RE = re.compile(r"^[A-Za-z0-9.\-]*[A-Z][A-Za-z0-9.\-]*[A-Z0-9][A-Za-z0-9.\-]*$")


def _looks_like_acronym(text: str) -> bool:
    """``PEFT``, ``ZeRO``, ``MoE``, ``LoRA``: one short word with 2+ capitals."""
    return (
        len(text) <= 12
        and " " not in text
        and sum(ch.isupper() for ch in text) >= 2
        and bool(_ACRONYM_RE.match(text))
    )


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
    m = _PAREN_RE.match(expected)
    if m:
        forms.append(AnswerForm(m["head"].strip(), "term"))
        for part in re.split(r"\s*[/;]\s*", m["inner"].strip()):
            if not part:
                continue
            is_acronym = _looks_like_acronym(part) or (
                acronym is not None and part.casefold() == acronym.casefold()
            )
            forms.append(AnswerForm(part, "acronym" if is_acronym else "part"))
    if acronym:
        words = normalize(expected, lang).split()
        if lang in _LATIN_LANGUAGES or normalize(acronym, lang) in words:
            forms.append(AnswerForm(acronym.strip(), "acronym"))
    unique: list[AnswerForm] = []
    seen: set[str] = set()
    for form in forms:
        key = compact(comparison_key(form.text, lang))
        if key and key not in seen:
            seen.add(key)
            unique.append(form)
    return tuple(unique) or (forms[0],)


def char_diff(typed: str, expected: str, lang: str) -> tuple[DiffSegment, ...]:
    """A grapheme-cluster diff of ``typed`` against ``expected`` for the UI to colour.

    Clusters compare by their normalised key with accents kept, so case and
    Arabic harakat don't count as differences but French accents do. Clusters
    that normalise to nothing (tatweel, a lone joiner) ride along with a neighbour.
    Between two agreeing runs the differences read as one ``extra`` run then one
    ``missing`` run («টিউনিন» for «টিউনিং»: extra «নিন», missing «নিং»), never
    interleaved pieces; runs never split a grapheme cluster.
    """

    def clusters(text: str) -> tuple[list[str], list[str]]:
        if not normalize(text, lang):
            # Only punctuation or markup ("[/]"): every character counts as written.
            parts = graphemes(text)
            return parts, [comparison_key(c, lang) or " " for c in parts]
        texts: list[str] = []
        keys: list[str] = []
        pending = ""
        for cluster in graphemes(text):
            key = normalize(cluster, lang) if cluster.strip() else " "
            if key == "" and texts:
                texts[-1] += cluster
            elif key == "":
                pending += cluster
            else:
                texts.append(pending + cluster)
                keys.append(key)
                pending = ""
        if pending:
            texts.append(pending)
            keys.append("")
        return texts, keys

    typed_texts, typed_keys = clusters(typed.strip())
    exp_texts, exp_keys = clusters(expected.strip())
    segments: list[DiffSegment] = []

    def emit(op: DiffOp, text: str) -> None:
        if not text:
            return
        if segments and segments[-1].op == op:
            segments[-1] = DiffSegment(op, segments[-1].text + text)
        else:
            segments.append(DiffSegment(op, text))

    # Between two runs that agree, all that was typed is one "extra" run and all
    # that was expected one "missing" run: interleaved replace/insert steps
    # («নি»→«নিং», then an extra «ন») would read as a jumble of pieces.
    extra: list[str] = []
    missing: list[str] = []
    for code in Levenshtein.opcodes(typed_keys, exp_keys):
        if code.tag == "equal":
            emit("extra", "".join(extra))
            emit("missing", "".join(missing))
            extra.clear()
            missing.clear()
            # Show the expected spelling (with its harakat) where the two agree.
            emit("equal", "".join(exp_texts[code.dest_start : code.dest_end]))
        else:
            extra.extend(typed_texts[code.src_start : code.src_end])
            missing.extend(exp_texts[code.dest_start : code.dest_end])
    emit("extra", "".join(extra))
    emit("missing", "".join(missing))
    return tuple(segments)


def transliterate(text: str) -> str:
    """A rough Latin spelling of ``text`` (anyascii), lower-cased."""
    return anyascii(unicodedata.normalize("NFC", text)).casefold()


_DIGRAPHS = (
    ("sh", "s"),
    ("ch", "c"),
    ("kh", "k"),
    ("gh", "g"),
    ("ph", "f"),
    ("th", "t"),
    ("dh", "d"),
    ("bh", "b"),
    ("jh", "j"),
    ("zh", "j"),
    ("ts", "c"),
    ("ck", "k"),
    ("x", "ks"),
)
_CONSONANT_FOLD = str.maketrans({"z": "j", "q": "k", "v": "b", "p": "f"})


def _skeleton(latin: str) -> str:
    """Consonants only, with look-alike sounds merged: Arabic romanisations have no
    short vowels and Bengali ones lose the inherent vowel, so vowels can't count."""
    s = latin.casefold()
    for old, new in _DIGRAPHS:
        s = s.replace(old, new)
    s = s.translate(_CONSONANT_FOLD)
    s = "".join(ch for ch in s if ch.isascii() and ch.isalpha() and ch not in "aeiouywh")
    return re.sub(r"(.)\1+", r"\1", s)


def _has_letters_outside_latin(text: str) -> bool:
    return any(ch.isalpha() and not ch.isascii() and not _is_latin(ch) for ch in text)


def _is_latin(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("LATIN ")


def _is_latin_answer(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(ch.isascii() or _is_latin(ch) for ch in letters)


def transliteration_similarity(typed: str, expected: str) -> float:
    """How close (0–100) a Latin-letter answer sounds to ``expected`` in another script."""
    roman = transliterate(expected)
    typed_fold = anyascii(typed).casefold()
    direct = fuzz.ratio(typed_fold, roman)
    a, b = _skeleton(typed_fold), _skeleton(roman)
    # A two-consonant skeleton ("lr" for «লোরা») only counts when identical.
    skel = fuzz.ratio(a, b) if len(b) >= 3 else (100.0 if a == b and a else 0.0)
    return max(direct, skel)


def _similarity(typed_key: str, form_key: str) -> float:
    if not typed_key or not form_key:
        return 0.0
    score = max(
        fuzz.ratio(typed_key, form_key),
        fuzz.token_sort_ratio(typed_key, form_key),
        fuzz.ratio(compact(typed_key), compact(form_key)),
    )
    # "8-bit" for "4-bit" is another concept, not a typo.
    if re.findall(r"\d+", typed_key) != re.findall(r"\d+", form_key):
        return min(float(score), 60.0)
    # One slip in a short word ("PEFF" for "PEFT") is a near miss, whatever the ratio.
    if (
        len(compact(form_key)) >= 3
        and Levenshtein.distance(compact(typed_key), compact(form_key)) <= 1
    ):
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
            score = _similarity(typed_loose, key)
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
) -> AnswerCheck:
    """Judge ``typed`` against ``expected`` (a term or definition in ``lang``).

    ``acronym`` is the concept's acronym, if it has one (see :func:`answer_forms`).
    ``others`` are the same-language, same-side texts of the deck's other concepts
    (:func:`other_texts`): an answer that is one of them, or closer to one of them
    than to ``expected``, is wrong, not a near miss ("Symmetric Quantization" for
    "Asymmetric Quantization"), and ``confused_with`` names it. ``side`` says
    whether ``expected`` is a term or a definition (guessed from its length when
    ``None``); definitions accept no acronym or parenthesis part.
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
    for form in ranked:
        if compact(comparison_key(form.text, lang, accents=False)) == compact(typed_loose):
            notes = (NOTE_ACCENTS, *_KIND_NOTES[form.kind])
            return AnswerCheck(
                Verdict.ACCEPTED,
                typed,
                expected_nfc,
                form.text,
                notes,
                100.0,
                char_diff(typed, form.text, lang),
            )

    scored = [
        (_similarity(typed_loose, comparison_key(form.text, lang, accents=False)), index, form)
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

    if lang in TRANSLITERATED_LANGUAGES and _is_latin_answer(typed):
        native = [f for f in forms if _has_letters_outside_latin(f.text)]
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
    the texts of ``pool``'s other concepts tell a confusion from a near miss.
    """
    lang, side = pair.answer_lang, pair.answer_side
    return check_answer(
        typed,
        concept.text(lang, side) or "",
        lang,
        acronym=concept.acronym,
        others=other_texts(concept, pool, lang, side),
        side=side,
    )
